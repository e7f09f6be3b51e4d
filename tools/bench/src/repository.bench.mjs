// Repository pipeline benchmark: ingestion + indexation throughput, search latency at a large node
// count (hybrid / full-text / vector) and the HNSW index's recall@10, on both databases, in ONE run.
//
//   npm run build && node tools/bench/src/repository.bench.mjs
//   BENCH_DOCUMENTS=500 BENCH_NODES=10000 BENCH_QUERIES=50 node tools/bench/src/repository.bench.mjs
//
// Runs in-process against the BUILT workspace (dist/): a Nest application context with the real
// repository modules (as tools/eval's retrieval evaluation and the CLI assemble them, no HTTP, no job
// workers), calling the use cases directly. For each database (embedded = PGlite in a fresh temporary
// DATA_DIR, postgres = a fresh database on 127.0.0.1:5432 via the test kit):
//   1. ingest + index BENCH_DOCUMENTS generated Markdown documents (IngestDocument, then IndexDocument
//      with a stub attempt), timing each half;
//   2. top the same instance up to BENCH_NODES semantic nodes with bulk writes through the ports
//      (DocumentRepository.save, SemanticNodeRepository.stage and publish under one attempt, VectorIndex.upsert;
//      10 nodes per bulk document). On PGlite the HNSW index is dropped before the bulk load and
//      rebuilt after it with PgVectorIndex.ensureHnswIndex (timed);
//   3. search latency (SearchSemanticNodes, hybrid / fulltext / vector), p50/p99, after a warm-up;
//   4. (PGlite) recall@10 of the HNSW search against an exact scan of the same table.
// Prints a Markdown table and writes JSON to tools/bench/results/repository-<timestamp>.json.
// See tools/bench/README.md.
import { Buffer } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { distFile, envNumber, gitCommit, latencySummary, machineInfo, machineTicks, processCpuSeconds, progressBar, requireBuilt, ROOT, round, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';


// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

/** Settings here are counts: integers unless a caller says otherwise. */
const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });

const settings = {
  /** Documents ingested and indexed through the use cases (phase 1). */
  documents: envInteger('BENCH_DOCUMENTS', 10000, { min: 1 }),
  /** Semantic nodes of the instance when searching (phase 2 tops up to this with bulk writes). */
  nodes: envInteger('BENCH_NODES', 100000, { min: 1 }),
  /** Measured queries per search mode. */
  queries: envInteger('BENCH_QUERIES', 200, { min: 1 }),
  /** Unmeasured queries per mode before measuring. */
  warmupQueries: envInteger('BENCH_WARMUP_QUERIES', 20, { min: 0 }),
  /** Queries for recall@10 (PGlite HNSW vs exact). */
  recallQueries: envInteger('BENCH_RECALL_QUERIES', 100, { min: 0 }),
  /** Wall-clock cap per search mode (warm-up included); fewer queries are measured when reached, and said so. */
  searchBudgetS: envInteger('BENCH_SEARCH_BUDGET_S', 60, { min: 1 }),
  /** Nodes per bulk-loaded document. */
  nodesPerBulkDocument: envInteger('BENCH_BULK_NODES_PER_DOCUMENT', 10, { min: 1, max: 200 }),
  /** PGlite: drop the HNSW index before the bulk load and build it after (1), or keep inserting into it (0). */
  hnswAfterLoad: process.env.BENCH_HNSW_AFTER_LOAD !== '0',
  /** PGlite session maintenance_work_mem while building the HNSW index ('' = leave the default). */
  hnswBuildMemory: process.env.BENCH_HNSW_BUILD_MEMORY ?? '512MB',
  seed: envInteger('BENCH_SEED', 42),
  /**
   * `topical` (default): each document is about one of 300 subjects, whose words it uses more often,
   * as real repositories are; `uniform`: every word drawn from the same Zipf law, a structureless
   * word soup, the worst case for HNSW recall.
   */
  corpus: process.env.BENCH_CORPUS ?? 'topical',
  /** The VECTOR_HNSW_* settings of the service (defaults as the service's own). */
  hnswEnv: Object.fromEntries(['VECTOR_HNSW_M', 'VECTOR_HNSW_EF_CONSTRUCTION', 'VECTOR_HNSW_EF_SEARCH'].filter((n) => process.env[n]).map((n) => [n, process.env[n]])),
  databases: (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',').map((m) => m.trim()).filter(Boolean),
};
if (settings.corpus !== 'topical' && settings.corpus !== 'uniform') throw new Error(`BENCH_CORPUS: unknown corpus "${settings.corpus}" (topical, uniform)`);
for (const db of settings.databases) {
  if (db !== 'embedded' && db !== 'postgres') throw new Error(`BENCH_DATABASES: unknown database "${db}" (embedded, postgres)`);
}

requireBuilt();
const require = createRequire(import.meta.url);
require('reflect-metadata');
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { DataSource } = require('typeorm');
const { createTestDatabase } = require(distFile('tools', 'test-kit', 'src', 'index.js'));
const { PERSISTENCE, repositoryContext } = require(distFile('libs', 'composition', 'src', 'index.js'));
const { loadConfig, PlatformCoreModule } = require(distFile('libs', 'platform', 'config', 'src', 'index.js'));
const { DatabaseModule, TypeOrmUnitOfWork } = require(distFile('libs', 'platform', 'database', 'src', 'index.js'));
const { Embedder, VectorIndex, IdGenerator } = require(distFile('libs', 'shared', 'kernel', 'src', 'index.js'));
const { PgVectorIndex } = require(distFile('libs', 'platform', 'vector-index', 'src', 'index.js'));
const repo = require(distFile('libs', 'repository', 'core', 'src', 'index.js'));
const { CreateRepositoryInstance, IngestDocument, IndexDocument, SearchSemanticNodes, DocumentRepository, SemanticNodeRepository } = repo;

// ---------------------------------------------------------------------------------------------
// Measurement helpers
// ---------------------------------------------------------------------------------------------

function postgresCpuSeconds() {
  let total = 0;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
        total += processCpuSeconds(entry) ?? 0;
      } catch {
        // ended meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}

function sampleCpu() {
  return { at: performance.now(), self: processCpuSeconds(process.pid), postgres: postgresCpuSeconds(), machine: machineTicks() };
}

/** Average cores used between two samples: this process (PGlite's thread included), PostgreSQL, the rest. */
function cpuBetween(before, after) {
  const wall = (after.at - before.at) / 1000;
  const cores = (a, b) => (a === null || b === null || wall <= 0 ? null : round((b - a) / wall, 2));
  const machine =
    before.machine && after.machine && after.machine.total > before.machine.total
      ? round(((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * cpus().length, 2)
      : null;
  const bench = cores(before.self, after.self);
  const postgres = cores(before.postgres, after.postgres);
  const other = machine === null ? null : round(Math.max(0, machine - (bench ?? 0) - (postgres ?? 0)), 2);
  return { machine_cores_busy: machine, bench_process_cores: bench, postgres_cores: postgres, other_cores: other };
}

// ---------------------------------------------------------------------------------------------
// Application context
// ---------------------------------------------------------------------------------------------

class BenchRootModule {}
Module({})(BenchRootModule);

function benchModule(env) {
  const config = loadConfig({ ...env, ...settings.hnswEnv, LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
  return {
    module: BenchRootModule,
    imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...repositoryContext(config, { withControllers: false, runWorkers: false })],
  };
}

/** The HNSW settings the service would use with this environment. */
function hnswSettings() {
  const config = loadConfig({ ...settings.hnswEnv, DATA_DIR: join(ROOT, 'tmp', 'bench-config'), LOG_LEVEL: 'silent' });
  return { m: config.VECTOR_HNSW_M, efConstruction: config.VECTOR_HNSW_EF_CONSTRUCTION, efSearch: config.VECTOR_HNSW_EF_SEARCH };
}

const STUB_ATTEMPT = { attempt: 1, maxAttempts: 1, progress: async () => undefined };

async function countNodes(ds, instanceId) {
  const rows = await ds.query(`SELECT count(*)::int AS n FROM repository.semantic_nodes WHERE instance_id = $1`, [instanceId]);
  return rows[0].n;
}

async function hnswIndexNames(ds) {
  try {
    const rows = await ds.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'vector_index' AND indexdef ILIKE '%USING hnsw%'`);
    return rows.map((r) => r.indexname);
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Phases
// ---------------------------------------------------------------------------------------------

async function ingestPhase(app, db, instanceId, corpus) {
  const ingest = app.get(IngestDocument);
  const index = app.get(IndexDocument);
  const ds = app.get(DataSource);
  let ingestMs = 0;
  let indexMs = 0;
  let words = 0;
  let bytes = 0;
  const outcomes = {};
  const bar = progressBar(`[${db}] ingest+index`, settings.documents);
  const cpu0 = sampleCpu();
  const t0 = performance.now();
  let generateMs = 0;
  for (let i = 0; i < settings.documents; i++) {
    const g0 = performance.now();
    const doc = corpus.markdown();
    const content = Buffer.from(doc.content, 'utf8');
    generateMs += performance.now() - g0;
    words += doc.words;
    bytes += content.length;
    const a = performance.now();
    const ingested = await ingest.execute(instanceId, { externalId: `bench-${i}`, name: `${doc.title}.md`, url: null, owner: 'bench', mediaType: 'text/markdown', content });
    const b = performance.now();
    const outcome = await index.execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, STUB_ATTEMPT);
    const c = performance.now();
    ingestMs += b - a;
    indexMs += c - b;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    bar.tick();
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu = cpuBetween(cpu0, sampleCpu());
  bar.end();
  const nodes = await countNodes(ds, instanceId);
  const pipelineS = (ingestMs + indexMs) / 1000;
  return {
    documents: settings.documents,
    outcomes,
    semantic_nodes: nodes,
    nodes_per_document: round(nodes / settings.documents, 2),
    words_per_document: round(words / settings.documents, 1),
    bytes_per_document: Math.round(bytes / settings.documents),
    wall_s: round(wallS, 1),
    pipeline_s: round(pipelineS, 1),
    generator_s: round(generateMs / 1000, 1),
    ingest_s: round(ingestMs / 1000, 1),
    index_s: round(indexMs / 1000, 1),
    ingest_share: round(ingestMs / (ingestMs + indexMs), 3),
    documents_per_s: round(settings.documents / pipelineS, 1),
    nodes_per_s: round(nodes / pipelineS, 1),
    ingest_ms_per_document: round(ingestMs / settings.documents, 2),
    index_ms_per_document: round(indexMs / settings.documents, 2),
    cpu,
  };
}

async function bulkPhase(app, db, instanceId, corpus, startNodes) {
  const ds = app.get(DataSource);
  const documents = app.get(DocumentRepository);
  const nodesRepo = app.get(SemanticNodeRepository);
  const vectors = app.get(VectorIndex);
  const embedder = app.get(Embedder);
  const ids = app.get(IdGenerator);
  const uow = app.get(TypeOrmUnitOfWork);
  const isPgVector = vectors instanceof PgVectorIndex;
  const missing = Math.max(0, settings.nodes - startNodes);
  const result = { vector_index: vectors.constructor.name, start_nodes: startNodes, target_nodes: settings.nodes, bulk_nodes: 0, bulk_documents: 0 };
  if (missing === 0) return { ...result, skipped: 'already at the target' };

  let dropped = [];
  if (isPgVector && settings.hnswAfterLoad) {
    dropped = await hnswIndexNames(ds);
    for (const name of dropped) await ds.query(`DROP INDEX vector_index.${name}`);
  }
  const perDoc = settings.nodesPerBulkDocument;
  const docCount = Math.ceil(missing / perDoc);
  const bar = progressBar(`[${db}] bulk load`, missing);
  let embedMs = 0;
  let writeMs = 0;
  let written = 0;
  const cpu0 = sampleCpu();
  const t0 = performance.now();
  const DOCS_PER_TX = 10;
  for (let d = 0; d < docCount; d += DOCS_PER_TX) {
    const batch = [];
    const e0 = performance.now();
    for (let k = d; k < Math.min(docCount, d + DOCS_PER_TX); k++) {
      const n = Math.min(perDoc, missing - k * perDoc);
      const now = new Date();
      const document = {
        id: ids.next('kd_'),
        instanceId,
        externalId: `bulk-${k}`,
        name: `${corpus.title()}.md`,
        url: null,
        owner: 'bench',
        extraproperties: {},
        mediaType: 'text/markdown',
        sizeBytes: 0,
        contentHash: `bulk${k}`.padEnd(64, '0'),
        state: 'INDEXED',
        failureReason: null,
        createdAt: now,
        updatedAt: now,
        indexedAt: now,
      };
      corpus.startDocument();
      const heading = corpus.title();
      let offset = 0;
      const nodes = [];
      for (let p = 0; p < n; p++) {
        const text = corpus.paragraph(corpus.int(40, 90)).text;
        nodes.push({ id: ids.next('kn_'), instanceId, documentId: document.id, position: p, text, headingPath: [document.name, heading], charStart: offset, charEnd: offset + text.length });
        offset += text.length + 2;
      }
      const embedded = await embedder.embed(nodes.map((x) => x.text));
      document.sizeBytes = offset;
      batch.push({ document, nodes, embedded });
    }
    const w0 = performance.now();
    embedMs += w0 - e0;
    await uow.run(async () => {
      for (const { document, nodes, embedded } of batch) {
        await documents.save(document);
        // One indexation attempt per document (ADR 0051): its nodes staged, the attempt made the document's latest, published.
        const attemptId = ids.next('kx_');
        await nodesRepo.stage(attemptId, nodes);
        await uow.manager().query('UPDATE repository.documents SET indexing_attempt = $2 WHERE id = $1', [document.id, attemptId]);
        if (!(await nodesRepo.publish(document.id, attemptId, nodes.length))) throw new Error(`bulk document ${document.id}: its nodes were not published`);
        await vectors.upsert(instanceId, embedder.model, nodes.map((x, i) => ({ id: x.id, documentId: document.id, vector: embedded[i] })));
      }
    });
    writeMs += performance.now() - w0;
    const n = batch.reduce((s, b) => s + b.nodes.length, 0);
    written += n;
    result.bulk_documents += batch.length;
    bar.tick(n);
  }
  bar.end();
  const loadS = (performance.now() - t0) / 1000;
  const cpuLoad = cpuBetween(cpu0, sampleCpu());
  Object.assign(result, {
    bulk_nodes: written,
    load_s: round(loadS, 1),
    generate_embed_s: round(embedMs / 1000, 1),
    write_s: round(writeMs / 1000, 1),
    write_nodes_per_s: round(written / (writeMs / 1000), 1),
    hnsw_maintained_during_load: isPgVector && !settings.hnswAfterLoad,
    cpu_load: cpuLoad,
  });

  if (isPgVector && settings.hnswAfterLoad) {
    if (settings.hnswBuildMemory) await ds.query(`SET maintenance_work_mem = '${settings.hnswBuildMemory.replace(/'/g, '')}'`);
    process.stderr.write(`[${db}] building the HNSW index over ${await countNodes(ds, instanceId)} vectors (maintenance_work_mem ${settings.hnswBuildMemory || 'default'})...\n`);
    const c0 = sampleCpu();
    const h0 = performance.now();
    // A fresh adapter: the context's one remembers the space as indexed and would skip the creation.
    await new PgVectorIndex(uow, { iterativeScan: true, hnsw: hnswSettings() }).ensureHnswIndex(embedder.model, embedder.dimensions);
    result.hnsw_build_s = round((performance.now() - h0) / 1000, 1);
    result.hnsw_build_cpu = cpuBetween(c0, sampleCpu());
    result.hnsw_build_maintenance_work_mem = settings.hnswBuildMemory || null;
    result.hnsw_indexes_after = await hnswIndexNames(ds);
    if (settings.hnswBuildMemory) await ds.query(`RESET maintenance_work_mem`);
    process.stderr.write(`[${db}] HNSW index built in ${result.hnsw_build_s} s\n`);
  }
  result.nodes_after = await countNodes(ds, instanceId);
  const vectorRows = await ds.query(`SELECT count(*)::int AS n FROM vector_index.node_vectors WHERE instance_id = $1`, [instanceId]);
  result.vectors_after = vectorRows[0].n;
  return result;
}

async function searchPhase(app, db, instanceId, queries) {
  const search = app.get(SearchSemanticNodes);
  const out = {};
  for (const mode of ['hybrid', 'fulltext', 'vector']) {
    const budgetEnd = performance.now() + settings.searchBudgetS * 1000;
    let warm = 0;
    // Warm-up: at most a fifth of the budget.
    const warmEnd = performance.now() + (settings.searchBudgetS * 1000) / 5;
    for (let i = 0; i < settings.warmupQueries && (i === 0 || performance.now() < warmEnd); i++) {
      await search.execute(instanceId, queries[(queries.length - 1 - i) % queries.length], 10, mode);
      warm++;
    }
    const latencies = [];
    let results = 0;
    let empty = 0;
    const bar = progressBar(`[${db}] search ${mode.padEnd(8)}`, settings.queries);
    const cpu0 = sampleCpu();
    for (let i = 0; i < settings.queries && (i === 0 || performance.now() < budgetEnd); i++) {
      const t = performance.now();
      const res = await search.execute(instanceId, queries[i % queries.length], 10, mode);
      latencies.push(performance.now() - t);
      results += res.semantic_nodes.length;
      if (res.semantic_nodes.length === 0) empty++;
      bar.tick();
    }
    const cpu = cpuBetween(cpu0, sampleCpu());
    bar.end();
    out[mode] = {
      queries: latencies.length,
      requested: settings.queries,
      budget_reached: latencies.length < settings.queries,
      warmup_queries: warm,
      latency_ms: latencySummary(latencies),
      mean_results: round(results / latencies.length, 2),
      empty_results: empty,
      cpu,
    };
  }
  return out;
}

/** PGlite: recall@10 of the HNSW search (the adapter's own, at limit 10 and at the service's 50 candidates) against an exact scan. */
async function recallPhase(app, db, instanceId, queries) {
  const vectors = app.get(VectorIndex);
  if (!(vectors instanceof PgVectorIndex) || settings.recallQueries === 0) return { skipped: `${vectors.constructor.name} is exact by construction` };
  const uow = app.get(TypeOrmUnitOfWork);
  const embedder = app.get(Embedder);
  const dims = embedder.dimensions;
  const [vec0] = await embedder.embed([queries[0]]);
  const literal = (v) => `[${v.join(',')}]`;
  // Is the approximate search really served by the HNSW index? (the planner may prefer an exact scan)
  const plan = await uow.run(async () => {
    const m = uow.manager();
    await m.query(`SELECT set_config('hnsw.ef_search', '${hnswSettings().efSearch}', true), set_config('hnsw.iterative_scan', 'strict_order', true)`);
    return m.query(`EXPLAIN ${PgVectorIndex.searchSql(dims)}`, [instanceId, embedder.model, literal(vec0), 10]);
  });
  const planText = plan.map((r) => r['QUERY PLAN']).join('\n');
  let hit10 = 0;
  let hit50 = 0;
  let total = 0;
  const approxMs = [];
  const exactMs = [];
  const bar = progressBar(`[${db}] recall@10`, settings.recallQueries);
  for (let i = 0; i < settings.recallQueries; i++) {
    const q = queries[(i * 7 + 3) % queries.length];
    const [v] = await embedder.embed([q]);
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    if (norm === 0) continue;
    const unit = v.map((x) => x / norm);
    const a0 = performance.now();
    const approx10 = (await vectors.search(instanceId, embedder.model, v, 10)).map((m) => m.id);
    approxMs.push(performance.now() - a0);
    const approx50 = (await vectors.search(instanceId, embedder.model, v, 50)).slice(0, 10).map((m) => m.id);
    const e0 = performance.now();
    const exact = await uow.run(async () => {
      const m = uow.manager();
      // Same statement, index scans off: a sequential scan computing every distance (exact top 10).
      await m.query(`SELECT set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
      return m.query(PgVectorIndex.searchSql(dims), [instanceId, embedder.model, literal(unit), 10]);
    });
    exactMs.push(performance.now() - e0);
    const truth = new Set(exact.map((r) => r.node_id));
    hit10 += approx10.filter((id) => truth.has(id)).length;
    hit50 += approx50.filter((id) => truth.has(id)).length;
    total += truth.size;
    bar.tick();
  }
  bar.end();
  return {
    queries: exactMs.length,
    recall_at_10_limit_10: round(hit10 / total, 4),
    recall_at_10_service_candidates_50: round(hit50 / total, 4),
    hnsw_search_ms: latencySummary(approxMs),
    exact_scan_ms: latencySummary(exactMs),
    hnsw_plan_uses_index: /hnsw/i.test(planText) || /node_vectors_hnsw/.test(planText),
    plan: planText.split('\n').slice(0, 4).join(' | '),
  };
}

async function benchDatabase(db, queries) {
  process.stderr.write(`[${db}] fresh ${db === 'embedded' ? 'PGlite DATA_DIR' : 'PostgreSQL database on 127.0.0.1:5432'}...\n`);
  const testDb = await createTestDatabase(db);
  let app;
  try {
    const t0 = performance.now();
    app = await NestFactory.createApplicationContext(benchModule(testDb.env), { logger: false, abortOnError: false });
    const openS = (performance.now() - t0) / 1000;
    const vectorIndex = app.get(VectorIndex).constructor.name;
    const embedder = app.get(Embedder);
    const pool = app.get(DataSource).options.extra?.max ?? null;
    process.stderr.write(`[${db}] context open in ${openS.toFixed(1)} s: ${vectorIndex}, embedder ${embedder.model}\n`);
    const { instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_bench', name: 'Bench repository' });
    // Same seed for both databases: the same documents in the same order.
    const corpus = new Corpus(settings.seed, settings.corpus);
    const ingestion = await ingestPhase(app, db, instanceId, corpus);
    const bulk = await bulkPhase(app, db, instanceId, corpus, ingestion.semantic_nodes);
    const search = await searchPhase(app, db, instanceId, queries);
    const recall = await recallPhase(app, db, instanceId, queries);
    const rss = Math.round(process.memoryUsage().rss / 1024 ** 2);
    return { database: db, vector_index: vectorIndex, embedder: embedder.model, pool_max: pool, context_open_s: round(openS, 1), instance_id: instanceId, ingestion, bulk, search, recall, bench_rss_mb_at_end: rss };
  } finally {
    await app?.close().catch((e) => process.stderr.write(`[${db}] close failed: ${e}\n`));
    await testDb.drop().catch((e) => process.stderr.write(`[${db}] drop failed: ${e}\n`));
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function tables(results) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = [];
  lines.push('### Ingestion + indexation (use cases, in-process)', '');
  lines.push('| Database | Documents | Nodes | docs/s | nodes/s | ingest ms/doc | index ms/doc | ingest share | Cores: bench process / PG / other |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    const i = r.ingestion;
    lines.push(`| ${r.database} (${r.vector_index}) | ${i.documents} | ${i.semantic_nodes} | ${f(i.documents_per_s)} | ${f(i.nodes_per_s)} | ${f(i.ingest_ms_per_document, 2)} | ${f(i.index_ms_per_document, 2)} | ${f(i.ingest_share * 100, 0)} % | ${f(i.cpu.bench_process_cores, 2)} / ${f(i.cpu.postgres_cores, 2)} / ${f(i.cpu.other_cores, 2)} |`);
  }
  lines.push('', '### Bulk load to the search size', '');
  lines.push('| Database | Nodes at search | Bulk nodes | Load s (generate+embed / write) | write nodes/s | HNSW build s |');
  lines.push('|---|---:|---:|---|---:|---:|');
  for (const r of results) {
    const b = r.bulk;
    lines.push(`| ${r.database} | ${b.nodes_after ?? b.start_nodes} | ${b.bulk_nodes} | ${f(b.load_s)} (${f(b.generate_embed_s)} / ${f(b.write_s)}) | ${f(b.write_nodes_per_s)} | ${b.hnsw_build_s === undefined ? '–' : f(b.hnsw_build_s)} |`);
  }
  lines.push('', '### Search latency (SearchSemanticNodes, limit 10)', '');
  lines.push('| Database | Nodes | Mode | Queries | p50 (ms) | p90 (ms) | p99 (ms) | mean results | other cores |');
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    for (const [mode, s] of Object.entries(r.search)) {
      lines.push(`| ${r.database} | ${r.bulk.nodes_after ?? r.bulk.start_nodes} | ${mode} | ${s.queries}${s.budget_reached ? ` of ${s.requested} (budget)` : ''} | ${f(s.latency_ms.p50, 2)} | ${f(s.latency_ms.p90, 2)} | ${f(s.latency_ms.p99, 2)} | ${f(s.mean_results, 1)} | ${f(s.cpu.other_cores, 2)} |`);
    }
  }
  const withRecall = results.filter((r) => r.recall.queries);
  if (withRecall.length) {
    lines.push('', '### Vector recall@10 (HNSW vs exact scan of the same table)', '');
    const h = hnswSettings();
    lines.push(`| Database | Nodes | Queries | recall@10 (limit 10; m ${h.m}, ef_construction ${h.efConstruction}, ef_search ${h.efSearch}) | recall@10 (top 10 of the service's 50 candidates) | HNSW p50/p99 ms | exact scan p50/p99 ms | plan uses HNSW |`);
    lines.push('|---|---:|---:|---:|---:|---|---|---|');
    for (const r of withRecall) {
      const x = r.recall;
      lines.push(`| ${r.database} | ${r.bulk.nodes_after ?? r.bulk.start_nodes} | ${x.queries} | ${f(x.recall_at_10_limit_10, 3)} | ${f(x.recall_at_10_service_candidates_50, 3)} | ${f(x.hnsw_search_ms.p50, 2)} / ${f(x.hnsw_search_ms.p99, 2)} | ${f(x.exact_scan_ms.p50, 1)} / ${f(x.exact_scan_ms.p99, 1)} | ${x.hnsw_plan_uses_index ? 'yes' : 'no'} |`);
    }
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  const cpuList = cpus();
  process.stderr.write(
    `bench: databases=${settings.databases.join(',')} documents=${settings.documents} nodes=${settings.nodes} queries=${settings.queries} recall_queries=${settings.recallQueries} budget=${settings.searchBudgetS}s/mode cpus=${cpuList.length}\n`,
  );
  const idle0 = sampleCpu();
  await sleep(1000);
  const busyBefore = cpuBetween(idle0, sampleCpu()).machine_cores_busy;
  if (busyBefore !== null && busyBefore > 0.25) {
    process.stderr.write(`bench: warning: ${busyBefore} of ${cpuList.length} cores already busy before the run (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}); figures will be noisy\n`);
  }
  // The query set: generated once (its own seed), the same for every database and mode.
  const qc = new Corpus(settings.seed, settings.corpus);
  const qr = mulberry32(settings.seed + 1);
  qc.random = qr;
  const queries = Array.from({ length: Math.max(settings.queries, settings.recallQueries, 1) + settings.warmupQueries }, () => qc.query());

  const results = [];
  const t0 = performance.now();
  for (const db of settings.databases) {
    const d0 = performance.now();
    const r = await benchDatabase(db, queries);
    r.total_s = round((performance.now() - d0) / 1000, 1);
    results.push(r);
  }
  const report = {
    benchmark: 'repository',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    total_s: round((performance.now() - t0) / 1000, 1),
    git_commit: gitCommit(),
    settings: {
      documents: settings.documents,
      nodes: settings.nodes,
      queries: settings.queries,
      warmup_queries: settings.warmupQueries,
      recall_queries: settings.recallQueries,
      search_budget_s_per_mode: settings.searchBudgetS,
      bulk_nodes_per_document: settings.nodesPerBulkDocument,
      hnsw_after_load: settings.hnswAfterLoad,
      hnsw_build_memory: settings.hnswBuildMemory || null,
      seed: settings.seed,
      corpus: settings.corpus,
      hnsw: hnswSettings(),
      databases: settings.databases,
      method: 'in-process Nest application context (real repository modules, no HTTP, no job workers); use cases called directly',
    },
    machine: machineInfo(busyBefore),
    results,
  };
  const file = writeResults('repository', startedAt, report);

  console.log('');
  console.log(`## repository benchmark (${settings.corpus} corpus, ${settings.documents} documents, ${settings.nodes} nodes, ${settings.queries} queries/mode, ${cpuList.length} CPUs, node ${process.version}, ${report.total_s} s)`);
  console.log('');
  console.log(tables(results));
  console.log('');
  const noisy = [];
  for (const r of results) {
    if ((r.ingestion.cpu.other_cores ?? 0) > 0.25) noisy.push(`${r.database} ingestion (${r.ingestion.cpu.other_cores} cores)`);
    for (const [mode, s] of Object.entries(r.search)) if ((s.cpu.other_cores ?? 0) > 0.25) noisy.push(`${r.database} ${mode} search (${s.cpu.other_cores} cores)`);
  }
  if (busyBefore > 0.25) console.log(`- warning: ${busyBefore} cores were busy before the run`);
  if (noisy.length) console.log(`- warning: other processes used CPU during ${noisy.join(', ')}; those figures are noisy`);
  console.log(`Results: ${relative(ROOT, file)}`);
  setTimeout(() => process.exit(0), 1000).unref();
}

await main();
