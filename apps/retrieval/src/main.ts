import 'reflect-metadata';
import { runApp } from '@svc/composition';

runApp('retrieval').catch((error: unknown) => {
  console.error('Failed to start retrieval:', error instanceof Error ? error.message : error);
  process.exit(1);
});
