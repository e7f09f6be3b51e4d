import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export type TestDatabaseMode = 'postgres' | 'embedded';

/** Where the machine's PostgreSQL is; CI and developers run it on the standard port. */
export const TEST_POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  mode: TestDatabaseMode;
  /** Environment for loadConfig: DATABASE_URL for postgres, DATA_DIR for embedded. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, empty database per test file: a new PostgreSQL database, or a new PGlite directory. */
export async function createTestDatabase(mode: TestDatabaseMode): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docaudit-test-'));
  if (mode === 'embedded') {
    return { mode, env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    mode,
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir, AUTH_SECRET: randomBytes(32).toString('hex') },
    drop: async () => {
      const client = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
