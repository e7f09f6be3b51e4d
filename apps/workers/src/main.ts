import 'reflect-metadata';
import { runApp } from '@svc/composition';

runApp('workers').catch((error: unknown) => {
  console.error('Failed to start workers:', error instanceof Error ? error.message : error);
  process.exit(1);
});
