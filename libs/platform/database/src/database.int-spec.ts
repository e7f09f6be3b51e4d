import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@svc/config';
import { createTestDatabase, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { Database } from './database';
import { EmbeddedPostgres } from './embedded-postgres';

class CreateProbeTable1700000000000 implements MigrationInterface {
  name = 'CreateProbeTable1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SCHEMA probe');
    await q.query('CREATE TABLE probe.items (id text PRIMARY KEY)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP SCHEMA probe CASCADE');
  }
}

const parts = { entities: [], migrations: [CreateProbeTable1700000000000] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each<TestDatabaseMode>(['embedded', 'postgres'])('Database (%s)', (mode) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase(mode);
    db = await Database.open(loadConfig(testDb.env), parts);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('applies the migrations once and answers the readiness ping', async () => {
    const tables = await db.dataSource.query(`SELECT to_regclass('probe.items') AS t`);
    expect(tables[0].t).toBe('probe.items');
    expect(await db.ping()).toBe(true);
  });

  it("never lets one transaction capture another request's queries", async () => {
    const uow = db.unitOfWork;
    let insideA!: () => void;
    const aStarted = new Promise<void>((r) => (insideA = r));
    const requestA = uow
      .run(async () => {
        await uow.manager().query(`INSERT INTO probe.items VALUES ('a')`);
        insideA();
        await sleep(300);
        throw new Error('roll back A');
      })
      .catch((e: Error) => e.message);
    await aStarted;
    // Request B runs while A's transaction is open; it must commit on its own.
    const requestB = uow.run(() => uow.manager().query(`INSERT INTO probe.items VALUES ('b')`));
    const [aOutcome] = await Promise.all([requestA, requestB]);
    expect(aOutcome).toBe('roll back A');
    const rows: { id: string }[] = await db.dataSource.query('SELECT id FROM probe.items ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(['b']);
  });

  it('runs prepared reads on the open transaction when there is one, else on a pooled connection, again and again', async () => {
    const uow = db.unitOfWork;
    const read = (id: string) => uow.prepared<{ id: string; n: number }>(`SELECT id, length(id) AS n FROM probe.items WHERE id = $1`, [id]);
    await uow.run(() => uow.manager().query(`INSERT INTO probe.items VALUES ('prep-1')`));
    for (let i = 0; i < 3; i++) expect(await read('prep-1')).toEqual([{ id: 'prep-1', n: 6 }]);
    // Inside a transaction it sees the transaction's own uncommitted row, and waits for no other connection (the embedded mode has one).
    const seen = await uow
      .run(async () => {
        await uow.manager().query(`INSERT INTO probe.items VALUES ('prep-2')`);
        const inside = await read('prep-2');
        throw Object.assign(new Error('roll back'), { inside });
      })
      .catch((e: { inside: unknown }) => e.inside);
    expect(seen).toEqual([{ id: 'prep-2', n: 6 }]);
    expect(await read('prep-2')).toEqual([]);
    // Parameters are bound, never spliced into the text.
    expect(await read("prep-1' OR '1'='1")).toEqual([]);
  });

  it('prepares a read again when a migration changed its table under the cached plan', async () => {
    const uow = db.unitOfWork;
    await uow.run(async () => {
      await uow.manager().query(`CREATE TABLE probe.counted (id text PRIMARY KEY, n int)`);
      await uow.manager().query(`INSERT INTO probe.counted VALUES ('a', 1)`);
    });
    const read = () => uow.prepared<{ id: string; n: number | string }>(`SELECT id, n FROM probe.counted WHERE id = $1`, ['a']);
    expect(await read()).toEqual([{ id: 'a', n: 1 }]);
    // Another process's migration: the column's type changes, so the server refuses the cached plan.
    await db.dataSource.query(`ALTER TABLE probe.counted ALTER COLUMN n TYPE bigint`);
    expect(await read()).toEqual([{ id: 'a', n: '1' }]);
    expect(await read()).toEqual([{ id: 'a', n: '1' }]);
  });

  /** The pool's connections, to drop them as a network failure or a restarted database would. */
  const pooledClients = () => (db.dataSource.driver as unknown as { master: { _clients: { connection: { stream: { destroy(): void } } }[] } }).master._clients;
  const statementName = (sql: string) => `p_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}_0`;

  it('reads again when the server and the client disagree on what a connection prepared', async () => {
    const uow = db.unitOfWork;
    await uow.run(() => uow.manager().query(`INSERT INTO probe.items VALUES ('agree')`));
    // 42P05: the server already has the name (another connection of the same session left it), the client never parsed it.
    const sql = `SELECT id, 'left' AS origin FROM probe.items WHERE id = $1`;
    await uow.run(() => uow.manager().query(`PREPARE ${statementName(sql)} AS SELECT id, 'stale' AS origin FROM probe.items WHERE id = $1`));
    expect(await uow.prepared(sql, ['agree'])).toEqual([{ id: 'agree', origin: 'left' }]);
    // 26000: the client believes the name parsed, the server dropped it.
    const other = `SELECT id, 'dropped' AS origin FROM probe.items WHERE id = $1`;
    const dropped = await uow.run(async () => {
      const rows = await uow.prepared(other, ['agree']);
      await uow.manager().query('DEALLOCATE ALL');
      return rows;
    });
    expect(dropped).toEqual([{ id: 'agree', origin: 'dropped' }]);
    for (let i = 0; i < 3; i++) expect(await uow.prepared(other, ['agree'])).toEqual([{ id: 'agree', origin: 'dropped' }]);
    expect(await uow.prepared(sql, ['agree'])).toEqual([{ id: 'agree', origin: 'left' }]);
  });

  it('reads again after a statement failed or its connection dropped mid-flight, and readiness says so', async () => {
    const uow = db.unitOfWork;
    const divide = (n: number) => uow.prepared<{ q: number }>(`SELECT 10 / $1::int AS q`, [n]);
    await expect(divide(0)).rejects.toMatchObject({ code: '22012' });
    expect(await divide(2)).toEqual([{ q: 5 }]);
    const read = (id: string) => uow.prepared<{ id: string }>(`SELECT id FROM probe.items WHERE id = $1 AND pg_sleep(0.05) IS NOT NULL`, [id]);
    await uow.run(() => uow.manager().query(`INSERT INTO probe.items VALUES ('load')`));
    expect(await read('load')).toEqual([{ id: 'load' }]);
    // Under load (prepared and plain reads in flight), every connection drops; the calls in flight may fail.
    const inFlight = Array.from({ length: 12 }, (_, i) => (i % 2 ? read('load') : db.dataSource.query('SELECT 1 AS one')).then(() => 'ok', () => 'failed'));
    await sleep(20);
    for (const client of pooledClients()) client.connection.stream.destroy();
    await Promise.all(inFlight);
    // Then every call answers: the same prepared read, plain queries, transactions, and readiness.
    for (let i = 0; i < 5; i++) expect(await read('load')).toEqual([{ id: 'load' }]);
    expect(await divide(5)).toEqual([{ q: 2 }]);
    expect(await uow.run(() => uow.manager().query(`SELECT count(*)::int AS n FROM probe.items WHERE id = 'load'`))).toEqual([{ n: 1 }]);
    expect(await db.ping()).toBe(true);
  });

  it('keeps the event loop free while the database works', async () => {
    const server = createServer((_req, res) => res.end('alive'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const events: string[] = [];
      const heavy = db.dataSource
        .query('SELECT count(*) FROM generate_series(1, 3000000) a, generate_series(1, 3) b')
        .then(() => events.push('query done'));
      await sleep(50);
      const body = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
      events.push(`http ${body}`);
      await heavy;
      expect(events).toEqual(['http alive', 'query done']);
    } finally {
      server.close();
    }
  });
});

describe('Embedded database persistence', () => {
  it('takes over a lock left by a crashed process whose pid was reused (containers restart as pid 1)', async () => {
    const testDb = await createTestDatabase('embedded');
    const config = loadConfig(testDb.env);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(join(config.dataDir, 'pglite.lock'), JSON.stringify({ pid: 1, startTime: 'long-ago' }));
    const db = await Database.open(config, parts);
    await db.close();
    await testDb.drop();
  });

  it('keeps data across a restart', async () => {
    const testDb = await createTestDatabase('embedded');
    const config = loadConfig(testDb.env);
    const first = await Database.open(config, parts);
    await first.dataSource.query(`INSERT INTO probe.items VALUES ('kept')`);
    await first.close();
    const second = await Database.open(config, parts);
    try {
      const rows = await second.dataSource.query('SELECT id FROM probe.items');
      expect(rows).toEqual([{ id: 'kept' }]);
    } finally {
      await second.close();
      await testDb.drop();
    }
  });
});

describe('Embedded database started early (the standalone starts it before loading the service)', () => {
  it('is the one Database.open takes over: one thread, its lock taken at once and released at close', async () => {
    const testDb = await createTestDatabase('embedded');
    const config = loadConfig(testDb.env);
    const lock = join(config.dataDir, 'pglite.lock');
    try {
      EmbeddedPostgres.startEarly(config.dataDir);
      EmbeddedPostgres.startEarly(config.dataDir);
      expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
      const db = await Database.open(config, parts);
      await db.dataSource.query(`INSERT INTO probe.items VALUES ('early')`);
      expect(await db.ping()).toBe(true);
      await db.close();
      expect(existsSync(lock)).toBe(false);
      // Taken once: the next open starts its own.
      const again = await Database.open(config, parts);
      expect(await again.dataSource.query('SELECT id FROM probe.items')).toEqual([{ id: 'early' }]);
      await again.close();
    } finally {
      await testDb.drop();
    }
  });

  it('reports a data directory in use when Database.open takes it over, as a start of its own would', async () => {
    const testDb = await createTestDatabase('embedded');
    const config = loadConfig(testDb.env);
    mkdirSync(config.dataDir, { recursive: true });
    // A live process (this one's parent) owns it.
    writeFileSync(join(config.dataDir, 'pglite.lock'), JSON.stringify({ pid: process.ppid, startTime: null }));
    try {
      EmbeddedPostgres.startEarly(config.dataDir);
      await expect(Database.open(config, parts)).rejects.toThrow(`is in use by process ${process.ppid}`);
    } finally {
      await testDb.drop();
    }
  });
});

describe('Database statistics (embedded)', () => {
  it('keeps the planner statistics current: PGlite has no autovacuum, so the service runs ANALYZE itself', async () => {
    const own = await createTestDatabase('embedded');
    const opened = await Database.open(loadConfig(own.env), parts, { analyzeIntervalMs: 200 });
    try {
      await opened.dataSource.query(`INSERT INTO probe.items (id) SELECT 'i' || g FROM generate_series(1, 500) AS g`);
      const estimate = async () => Number((await opened.dataSource.query(`SELECT reltuples FROM pg_class WHERE oid = 'probe.items'::regclass`))[0].reltuples);
      let seen = await estimate();
      for (let i = 0; i < 50 && seen !== 500; i += 1) {
        await sleep(100);
        seen = await estimate();
      }
      expect(seen).toBe(500);
    } finally {
      await opened.close();
      await own.drop();
    }
  });
});
