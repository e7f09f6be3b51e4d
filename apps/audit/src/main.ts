import 'reflect-metadata';
import { runApp } from '@svc/composition';

runApp('audit').catch((error: unknown) => {
  console.error('Failed to start audit:', error instanceof Error ? error.message : error);
  process.exit(1);
});
