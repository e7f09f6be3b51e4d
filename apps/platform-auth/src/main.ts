import 'reflect-metadata';
import { runApp } from '@svc/composition';

runApp('platform-auth').catch((error: unknown) => {
  console.error('Failed to start platform-auth:', error instanceof Error ? error.message : error);
  process.exit(1);
});
