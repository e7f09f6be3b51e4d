import 'reflect-metadata';
import { runStandalone } from '@svc/composition';

runStandalone().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
