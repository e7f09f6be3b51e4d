import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, createAdapter, loadConfig, PlatformCoreModule } from '@svc/config';
import { Database, DatabaseModule, PLATFORM_MIGRATIONS } from '@svc/database';
import { Embedder, VectorIndex } from '@svc/kernel';
import { createTestDatabase, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { ExactScanVectorIndex, SPARSE_QUERY_MAX_TERMS } from './exact-scan-vector-index';
import { PgVectorIndex } from './pg-vector-index';
import { vectorIndexContract } from './testing/vector-index.contract';
import { createVectorIndex, detectVectorStorage } from './vector-index.factory';
import { CreateVectorIndexSchema1763700000400, VECTOR_INDEX_MIGRATIONS } from './vector-index.migration';
import { VectorIndexModule } from './vector-index.module';
import { VECTOR_STORES } from './vector-index.registry';

const parts = { entities: [], migrations: [...PLATFORM_MIGRATIONS, CreateVectorIndexSchema1763700000400] };

/** One database per mode for the whole file: the contract isolates its tests by instance id. */
function databaseFor(mode: TestDatabaseMode) {
  const state: { testDb?: TestDatabase; db?: Database; config?: AppConfig } = {};
  beforeAll(async () => {
    state.testDb = await createTestDatabase(mode);
    state.config = loadConfig(state.testDb.env);
    state.db = await Database.open(state.config, parts);
  });
  afterAll(async () => {
    await state.db?.close();
    await state.testDb?.drop();
  });
  return Object.assign(() => state.db as Database, { config: () => state.config as AppConfig });
}

const hnswIndexes = async (db: Database): Promise<string[]> =>
  (
    await db.dataSource.query(
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'vector_index' AND indexdef LIKE '%USING hnsw%' ORDER BY indexname`,
    )
  ).map((r: { indexname: string }) => r.indexname);

describe('VectorIndex on PGlite (pgvector)', () => {
  const db = databaseFor('embedded');

  vectorIndexContract('PgVectorIndex (PGlite)', { exact: false }, async () => {
    const index = await createVectorIndex(db().unitOfWork);
    return { index, uow: db().unitOfWork };
  });

  vectorIndexContract('ExactScanVectorIndex over the pgvector column (PGlite, VECTOR_STORE=exact-scan)', { exact: true }, async () => {
    const index = await createAdapter(VECTOR_STORES, { ...db.config(), VECTOR_STORE: 'exact-scan' }, { uow: db().unitOfWork });
    return { index, uow: db().unitOfWork };
  });

  it('builds the adapter VECTOR_STORE names: auto and pgvector give PgVectorIndex with the VECTOR_HNSW_* settings, exact-scan the scan', async () => {
    const store = (extra: Record<string, unknown>) => createAdapter(VECTOR_STORES, { ...db.config(), ...extra }, { uow: db().unitOfWork });
    expect(await store({})).toBeInstanceOf(PgVectorIndex);
    expect(await store({ VECTOR_STORE: 'pgvector' })).toBeInstanceOf(PgVectorIndex);
    expect(await store({ VECTOR_STORE: 'exact-scan' })).toBeInstanceOf(ExactScanVectorIndex);
    const tuned = (await store({ VECTOR_STORE: 'pgvector', VECTOR_HNSW_M: 24, VECTOR_HNSW_EF_CONSTRUCTION: 128 })) as PgVectorIndex;
    await tuned.upsert('ins_registry', 'space-registry', [{ id: 'kn_r1', documentId: 'doc_r', vector: [1, 0, 0, 0, 0] }]);
    const [definition]: { indexdef: string }[] = await db().dataSource.query(`SELECT indexdef FROM pg_indexes WHERE indexname = $1`, [PgVectorIndex.hnswIndexName('space-registry', 5)]);
    expect(definition.indexdef).toMatch(/WITH \(m='24', ef_construction='128'\)/);
  });

  it('stores vectors in a pgvector column, so the factory picks PgVectorIndex with iterative scans', async () => {
    const storage = await detectVectorStorage(db().unitOfWork);
    expect(storage.kind).toBe('pgvector');
    expect(storage.pgvectorVersion).toMatch(/^0\.(8|9|\d\d)\./);
    expect(await createVectorIndex(db().unitOfWork)).toBeInstanceOf(PgVectorIndex);
    expect(VECTOR_INDEX_MIGRATIONS).toEqual([CreateVectorIndexSchema1763700000400]);
  });

  it('creates one HNSW index per vector space on its first write, and none for a rolled-back one', async () => {
    const index = new PgVectorIndex(db().unitOfWork);
    const uow = db().unitOfWork;
    const space = (model: string, dims: number) => PgVectorIndex.hnswIndexName(model, dims);
    await index.upsert('ins_hnsw', 'space-a', [{ id: 'kn_h1', documentId: 'doc_1', vector: [1, 0, 0, 0, 0, 0] }]);
    await index.upsert('ins_hnsw', 'space-a', [{ id: 'kn_h2', documentId: 'doc_1', vector: [0, 1, 0, 0, 0, 0] }]);
    expect(await hnswIndexes(db())).toContain(space('space-a', 6));

    // Created inside a transaction that rolls back: the index goes with it, and a later write recreates it.
    await expect(
      uow.run(async () => {
        await index.upsert('ins_hnsw', 'space-b', [{ id: 'kn_h3', documentId: 'doc_2', vector: [1, 0, 0, 0, 0, 0, 0] }]);
        await index.upsert('ins_hnsw', 'space-b', [{ id: 'kn_h4', documentId: 'doc_2', vector: [0, 1, 0, 0, 0, 0, 0] }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await hnswIndexes(db())).not.toContain(space('space-b', 7));
    await index.upsert('ins_hnsw', 'space-b', [{ id: 'kn_h3', documentId: 'doc_2', vector: [1, 0, 0, 0, 0, 0, 0] }]);
    expect(await hnswIndexes(db())).toContain(space('space-b', 7));

    // Spaces larger than HNSW allows are stored and searched exactly, without an index.
    const big = Array.from({ length: 2001 }, (_, i) => (i === 0 ? 1 : 0));
    await index.upsert('ins_hnsw', 'space-big', [{ id: 'kn_big', documentId: 'doc_3', vector: big }]);
    expect(await hnswIndexes(db())).not.toContain(space('space-big', 2001));
    expect((await index.search('ins_hnsw', 'space-big', big, 5)).map((m) => m.id)).toEqual(['kn_big']);
  });

  it('builds the HNSW graph with the configured m and ef_construction, and refuses settings pgvector would reject', async () => {
    const index = new PgVectorIndex(db().unitOfWork, { iterativeScan: true, hnsw: { m: 24, efConstruction: 128, efSearch: 300 } });
    await index.upsert('ins_tuned', 'space-tuned', [{ id: 'kn_t1', documentId: 'doc_t', vector: [1, 0, 0, 0, 0] }]);
    const [definition]: { indexdef: string }[] = await db().dataSource.query(`SELECT indexdef FROM pg_indexes WHERE indexname = $1`, [
      PgVectorIndex.hnswIndexName('space-tuned', 5),
    ]);
    expect(definition.indexdef).toMatch(/WITH \(m='24', ef_construction='128'\)/);
    expect((await index.search('ins_tuned', 'space-tuned', [1, 0, 0, 0, 0], 3)).map((m) => m.id)).toEqual(['kn_t1']);
    expect(() => new PgVectorIndex(db().unitOfWork, { iterativeScan: true, hnsw: { m: 16, efConstruction: 20, efSearch: 40 } })).toThrow(/ef_construction/);
  });

  it("serves a large instance's search from the HNSW index, ties ordered by an incremental sort", async () => {
    const index = new PgVectorIndex(db().unitOfWork);
    const dims = 8;
    let seed = 11;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: `kn_p${i}`,
      documentId: `doc_${i % 50}`,
      vector: Array.from({ length: dims }, random),
    }));
    await index.upsert('ins_plan', 'space-plan', rows);
    await db().dataSource.query('ANALYZE vector_index.node_vectors');
    const query = `[${Array.from({ length: dims }, random).join(',')}]`;
    const plan: { 'QUERY PLAN': string }[] = await db().unitOfWork.run(async () => {
      const manager = db().unitOfWork.manager();
      await manager.query(`SELECT set_config('hnsw.iterative_scan', 'strict_order', true)`);
      return manager.query(`EXPLAIN ${PgVectorIndex.searchSql(dims)}`, ['ins_plan', 'space-plan', query, 10]);
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain(`Index Scan using ${PgVectorIndex.hnswIndexName('space-plan', dims)}`);
    expect(text).toContain('Incremental Sort');
    const found = await index.search('ins_plan', 'space-plan', JSON.parse(query), 10);
    expect(found).toHaveLength(10);
  });

  it('provides the adapter through VectorIndexModule and indexes the configured model at boot', async () => {
    const embedder: Embedder = { model: 'boot-model', dimensions: 16, embed: async () => [] };
    // Global, like EmbeddingsModule: the bootstrap finds the Embedder without importing it.
    @Global()
    @Module({ providers: [{ provide: Embedder, useValue: embedder }], exports: [Embedder] })
    class FakeEmbeddings {}
    @Module({
      imports: [PlatformCoreModule.forRoot(db.config()), DatabaseModule.forExisting(db()), FakeEmbeddings, VectorIndexModule.forRoot()],
    })
    class Root {}
    const app = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
    try {
      await app.init();
      expect(app.get(VectorIndex)).toBeInstanceOf(PgVectorIndex);
      expect(await hnswIndexes(db())).toContain(PgVectorIndex.hnswIndexName('boot-model', 16));
    } finally {
      await app.close();
    }
  });
});

describe('VectorIndex on PostgreSQL without pgvector (exact scan over real[])', () => {
  const db = databaseFor('postgres');

  vectorIndexContract('ExactScanVectorIndex (PostgreSQL)', { exact: true }, async () => {
    const index = await createVectorIndex(db().unitOfWork);
    return { index, uow: db().unitOfWork };
  });

  it('falls back to a real[] column when the server has no pgvector, so the factory picks the exact scan', async () => {
    const available = await db().dataSource.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    const storage = await detectVectorStorage(db().unitOfWork);
    if (available.length > 0) {
      // A server with pgvector (not this machine's stock PostgreSQL) gets the pgvector column.
      expect(storage.kind).toBe('pgvector');
      return;
    }
    expect(storage).toEqual({ kind: 'real[]', pgvectorVersion: null });
    expect(await createVectorIndex(db().unitOfWork)).toBeInstanceOf(ExactScanVectorIndex);
    const columns = await db().dataSource.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'vector_index' AND table_name = 'node_vectors' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'node_id', data_type: 'text' },
      { column_name: 'instance_id', data_type: 'text' },
      { column_name: 'document_id', data_type: 'text' },
      { column_name: 'model', data_type: 'text' },
      { column_name: 'dims', data_type: 'integer' },
      { column_name: 'embedding', data_type: 'ARRAY' },
    ]);
  });

  it('rejects rows whose size disagrees with their dims, or with NULL elements, at the table', async () => {
    await expect(
      db().dataSource.query(
        `INSERT INTO vector_index.node_vectors VALUES ('kn_bad', 'ins', 'doc', 'm', 3, ARRAY[1, 2]::real[])`,
      ),
    ).rejects.toThrow(/node_vectors_dims/);
    await expect(
      db().dataSource.query(
        `INSERT INTO vector_index.node_vectors VALUES ('kn_bad', 'ins', 'doc', 'm', 2, ARRAY[1, NULL]::real[])`,
      ),
    ).rejects.toThrow(/node_vectors_dims/);
  });

  it('scores sparse queries term by term and dense ones in one pass, with the same exact cosines', async () => {
    const index = new ExactScanVectorIndex(db().unitOfWork);
    const dims = SPARSE_QUERY_MAX_TERMS + 200;
    let seed = 5;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: `kn_d${i}`, documentId: 'doc_d', vector: Array.from({ length: dims }, random) }));
    rows.push({ id: 'kn_dzero', documentId: 'doc_d', vector: Array.from({ length: dims }, () => 0) });
    await index.upsert('ins_dense', 'space-dense', rows);
    const unit = (v: number[]) => {
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const cosine = (a: number[], b: number[]) => unit(a).reduce((s, x, i) => s + x * unit(b)[i], 0);
    const expected = (q: number[]) =>
      rows
        .filter((r) => r.id !== 'kn_dzero')
        .map((r) => ({ id: r.id, score: cosine(q, r.vector) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 5);
    const dense = Array.from({ length: dims }, random);
    const sparse = Array.from({ length: dims }, (_, i) => (i % 7 === 0 ? random() : 0));
    for (const query of [dense, sparse]) {
      const found = await index.search('ins_dense', 'space-dense', query, 5);
      expect(found.map((m) => m.id)).toEqual(expected(query).map((m) => m.id));
      found.forEach((m, i) => expect(m.score).toBeCloseTo(expected(query)[i].score, 5));
    }
  });

  it('refuses VECTOR_STORE=pgvector on a real[] column at start, naming the setting; auto and exact-scan scan', async () => {
    const available = await db().dataSource.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    const store = (extra: Record<string, unknown>) => createAdapter(VECTOR_STORES, { ...db.config(), ...extra }, { uow: db().unitOfWork });
    if (available.length > 0) {
      // A server with pgvector has the pgvector column (not this machine's stock PostgreSQL).
      expect(await store({ VECTOR_STORE: 'pgvector' })).toBeInstanceOf(PgVectorIndex);
      return;
    }
    const refused = await Promise.resolve(store({ VECTOR_STORE: 'pgvector' })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([expect.stringMatching(/^VECTOR_STORE: pgvector needs .* but it is real\[\]/)]);
    expect(await store({ VECTOR_STORE: 'auto' })).toBeInstanceOf(ExactScanVectorIndex);
    expect(await store({ VECTOR_STORE: 'exact-scan' })).toBeInstanceOf(ExactScanVectorIndex);
  });

  it('provides the exact-scan adapter through VectorIndexModule, without an Embedder', async () => {
    @Module({ imports: [PlatformCoreModule.forRoot(db.config()), DatabaseModule.forExisting(db()), VectorIndexModule.forRoot()] })
    class Root {}
    const app = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
    try {
      await app.init();
      expect(app.get(VectorIndex)).toBeInstanceOf(ExactScanVectorIndex);
    } finally {
      await app.close();
    }
  });
});

describe('CreateVectorIndexSchema migration', () => {
  it.each<TestDatabaseMode>(['embedded', 'postgres'])('reverts cleanly (%s)', async (mode) => {
    const testDb = await createTestDatabase(mode);
    const db = await Database.open(loadConfig(testDb.env), parts);
    try {
      await db.dataSource.undoLastMigration({ transaction: 'each' });
      const [{ t }] = await db.dataSource.query(`SELECT to_regclass('vector_index.node_vectors') AS t`);
      expect(t).toBeNull();
      await db.dataSource.runMigrations({ transaction: 'each' });
      expect((await detectVectorStorage(db.unitOfWork)).kind).toEqual(mode === 'embedded' ? 'pgvector' : expect.any(String));
    } finally {
      await db.close();
      await testDb.drop();
    }
  });

  it('tells which migration is missing when the table does not exist', async () => {
    const testDb = await createTestDatabase('postgres');
    const db = await Database.open(loadConfig(testDb.env), { entities: [], migrations: [...PLATFORM_MIGRATIONS] });
    try {
      await expect(createVectorIndex(db.unitOfWork)).rejects.toThrow(/VECTOR_INDEX_MIGRATIONS/);
    } finally {
      await db.close();
      await testDb.drop();
    }
  });
});
