import 'reflect-metadata';
import { loadConfig } from '@svc/config';
import { EmbeddedPostgres } from '@svc/database';

// The embedded database starts on its own thread (and, on a first start, is created: seconds) while this one loads
// the rest of the service (seconds too), rather than after it. A bad configuration is left to runStandalone to report.
try {
  const config = loadConfig();
  if (config.databaseMode === 'embedded') EmbeddedPostgres.startEarly(config.dataDir);
} catch {
  // runStandalone validates the configuration again and says what is wrong
}

import('@svc/composition')
  .then(({ runStandalone }) => runStandalone())
  .catch((error: unknown) => {
    console.error('Failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
