import type { AppConfig } from '@svc/config';
import { DataSource, DataSourceOptions } from 'typeorm';
import { EmbeddedConnection } from './embedded-postgres';

export interface PersistenceParts {
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
}

/** The same options in both modes: only the connection differs (TCP URL, or PGlite's socket). */
export function dataSourceOptions(
  config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>,
  parts: PersistenceParts,
  embedded?: EmbeddedConnection,
): DataSourceOptions {
  const connection = embedded
    ? { host: embedded.host, port: embedded.port, username: embedded.username, database: embedded.database }
    : { url: config.DATABASE_URL };
  return {
    type: 'postgres',
    ...connection,
    entities: parts.entities,
    migrations: parts.migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // PGlite has one session: a second pooled connection would share its transaction state. That session outlives
    // a connection: one that dropped leaves its named statements behind, which the next connection's client knows
    // nothing of, so each new connection starts by dropping them. The one connection is never closed for idling.
    extra: embedded
      ? { max: 1, connectionTimeoutMillis: 60000, idleTimeoutMillis: 0, onConnect: (client: { query(sql: string): Promise<unknown> }) => client.query('DEALLOCATE ALL') }
      : { max: config.DATABASE_POOL_SIZE, connectionTimeoutMillis: 5000, statement_timeout: 30000 },
  };
}

const MIGRATION_LOCK_KEY = 727_001;

/**
 * Runs pending migrations. On a shared PostgreSQL, under an advisory lock, so apps started together
 * migrate once while the others wait. The embedded database has one owner process (its lock file)
 * and one connection, so it needs no lock.
 */
export async function runMigrations(dataSource: DataSource, shared: boolean): Promise<string[]> {
  if (!shared) return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
