// HNSW settings sweep: recall@10 against an exact scan, search latency and build time for several
// (m, ef_construction) graphs and ef_search lists, on PGlite with the service's own vector index
// (PgVectorIndex over vector_index.node_vectors: the partial expression index and the search
// statement the service uses), for the topical and the uniform corpus.
//
//   npm run build && node tools/bench/src/hnsw-params.bench.mjs
//   HNSW_BENCH_VECTORS=5000 HNSW_BENCH_GRAPHS=16:64 node tools/bench/src/hnsw-params.bench.mjs
//
// For each corpus: BENCH vectors of node paragraphs (10 per document, each document on one subject
// in the topical corpus) embedded by the local hashing embedder (512 dimensions), written through
// VectorIndex.upsert without an index; the exact top 10 of each query by a sequential scan; then for
// each graph, the index built with PgVectorIndex.ensureHnswIndex (timed) and, for each ef_search,
// recall@10 and latency of VectorIndex.search. See tools/bench/README.md.
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { distFile, envNumber, gitCommit, machineInfo, percentile, progressBar, requireBuilt, ROOT, round, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';

const settings = {
  vectors: envNumber('HNSW_BENCH_VECTORS', 20000, { min: 100, integer: true }),
  queries: envNumber('HNSW_BENCH_QUERIES', 100, { min: 1, integer: true }),
  graphs: (process.env.HNSW_BENCH_GRAPHS ?? '16:64,16:128,24:128,32:200').split(',').map((g) => g.split(':').map(Number)),
  efSearch: (process.env.HNSW_BENCH_EF_SEARCH ?? '40,100,200,400').split(',').map(Number),
  corpora: (process.env.HNSW_BENCH_CORPORA ?? 'topical,uniform').split(','),
  seed: envNumber('BENCH_SEED', 42, { integer: true }),
};
for (const [m, efc] of settings.graphs) {
  if (!Number.isInteger(m) || !Number.isInteger(efc) || efc < 2 * m) throw new Error(`HNSW_BENCH_GRAPHS: "${m}:${efc}" is not m:ef_construction with ef_construction >= 2m`);
}

requireBuilt();
const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createTestDatabase } = require(distFile('tools', 'test-kit', 'src', 'index.js'));
const { loadConfig } = require(distFile('libs', 'platform', 'config', 'src', 'index.js'));
const { Database, PLATFORM_MIGRATIONS } = require(distFile('libs', 'platform', 'database', 'src', 'index.js'));
const { PgVectorIndex, VECTOR_INDEX_MIGRATIONS } = require(distFile('libs', 'platform', 'vector-index', 'src', 'index.js'));
const { LocalHashingEmbedder } = require(distFile('libs', 'platform', 'embeddings', 'src', 'index.js'));

const INSTANCE = 'ki_bench';
const embedder = new LocalHashingEmbedder();
const literal = (v) => `[${v.join(',')}]`;

async function sweep(kind) {
  const testDb = await createTestDatabase('embedded');
  const db = await Database.open(loadConfig({ ...testDb.env, LOG_LEVEL: 'silent' }), { entities: [], migrations: [...PLATFORM_MIGRATIONS, ...VECTOR_INDEX_MIGRATIONS] });
  try {
    const uow = db.unitOfWork;
    const corpus = new Corpus(settings.seed, kind);
    // Written without an HNSW index: the adapter would create it on the space's first write.
    const writer = new (class extends PgVectorIndex {
      async prepareWrite() {}
    })(uow);
    const load = progressBar(`[${kind}] load`, settings.vectors);
    for (let d = 0; d * 10 < settings.vectors; d++) {
      corpus.startDocument();
      const texts = Array.from({ length: Math.min(10, settings.vectors - d * 10) }, () => corpus.paragraph(corpus.int(40, 90)).text);
      const vectors = await embedder.embed(texts);
      await writer.upsert(INSTANCE, embedder.model, vectors.map((vector, i) => ({ id: `kn_${d}_${i}`, documentId: `kd_${d}`, vector })));
      load.tick(texts.length);
    }
    load.end();
    await db.dataSource.query('ANALYZE vector_index.node_vectors');

    const queryCorpus = new Corpus(settings.seed, kind);
    queryCorpus.random = mulberry32(settings.seed + 1);
    const queries = await embedder.embed(Array.from({ length: settings.queries }, () => queryCorpus.query()));
    const exactMs = [];
    const truth = [];
    for (const q of queries) {
      const t = performance.now();
      const rows = await uow.run(async () => {
        const m = uow.manager();
        await m.query(`SELECT set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
        return m.query(PgVectorIndex.searchSql(embedder.dimensions), [INSTANCE, embedder.model, literal(q), 10]);
      });
      exactMs.push(performance.now() - t);
      truth.push(new Set(rows.map((r) => r.node_id)));
    }
    const rows = [];
    for (const [m, efConstruction] of settings.graphs) {
      await db.dataSource.query(`DROP INDEX IF EXISTS vector_index.${PgVectorIndex.hnswIndexName(embedder.model, embedder.dimensions)}`);
      await db.dataSource.query(`SET maintenance_work_mem = '512MB'`);
      process.stderr.write(`[${kind}] building m ${m}, ef_construction ${efConstruction} over ${settings.vectors} vectors...\n`);
      const b0 = performance.now();
      await new PgVectorIndex(uow, { iterativeScan: true, hnsw: { m, efConstruction, efSearch: 40 } }).ensureHnswIndex(embedder.model, embedder.dimensions);
      const buildS = (performance.now() - b0) / 1000;
      await db.dataSource.query(`RESET maintenance_work_mem`);
      const plan = await uow.run(async () => {
        const x = uow.manager();
        await x.query(`SELECT set_config('hnsw.iterative_scan', 'strict_order', true)`);
        return x.query(`EXPLAIN ${PgVectorIndex.searchSql(embedder.dimensions)}`, [INSTANCE, embedder.model, literal(queries[0]), 10]);
      });
      const usesIndex = plan.some((r) => r['QUERY PLAN'].includes(PgVectorIndex.hnswIndexName(embedder.model, embedder.dimensions)));
      for (const efSearch of settings.efSearch) {
        const index = new PgVectorIndex(uow, { iterativeScan: true, hnsw: { m, efConstruction, efSearch } });
        let hits = 0;
        const latencies = [];
        for (let i = 0; i < queries.length; i++) {
          const t = performance.now();
          const found = await index.search(INSTANCE, embedder.model, queries[i], 10);
          latencies.push(performance.now() - t);
          hits += found.filter((f) => truth[i].has(f.id)).length;
        }
        latencies.sort((a, b) => a - b);
        const total = truth.reduce((s, t) => s + t.size, 0);
        rows.push({ m, ef_construction: efConstruction, build_s: round(buildS, 1), plan_uses_hnsw: usesIndex, ef_search: efSearch, recall_at_10: round(hits / total, 3), p50_ms: round(percentile(latencies, 50), 1), p99_ms: round(percentile(latencies, 99), 1) });
        process.stderr.write(`[${kind}] m ${m} ef_construction ${efConstruction} ef_search ${efSearch}: recall@10 ${rows.at(-1).recall_at_10}\n`);
      }
    }
    exactMs.sort((a, b) => a - b);
    return { corpus: kind, vectors: settings.vectors, exact_scan_p50_ms: round(percentile(exactMs, 50), 1), rows };
  } finally {
    await db.close();
    await testDb.drop();
  }
}

const started = new Date();
const results = [];
for (const kind of settings.corpora) results.push(await sweep(kind));
const report = { benchmark: 'hnsw-params', started_at: started.toISOString(), git_commit: gitCommit(), machine: machineInfo(null), settings, results };
const file = writeResults('hnsw-params', started, report);

console.log(`\n## HNSW settings sweep (${settings.vectors} vectors of 512 dimensions, ${settings.queries} queries, PGlite, PgVectorIndex)\n`);
console.log('| Corpus | m | ef_construction | build s | ef_search | recall@10 | p50 ms | p99 ms | plan uses HNSW |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of results) for (const x of r.rows) console.log(`| ${r.corpus} | ${x.m} | ${x.ef_construction} | ${x.build_s} | ${x.ef_search} | ${x.recall_at_10} | ${x.p50_ms} | ${x.p99_ms} | ${x.plan_uses_hnsw ? 'yes' : 'no'} |`);
console.log(`\nExact scan p50: ${results.map((r) => `${r.corpus} ${r.exact_scan_p50_ms} ms`).join(', ')}\nResults: ${relative(ROOT, file)}`);
