// Duplicate identification benchmark (issue 13), through the service: the whole-repository identification
// of 10,000 and 100,000 generated documents (time by phase, memory, clusters, pairwise precision/recall of
// the stored clusters against the planted pairs), its rerun with nothing changed, and the incremental check
// of new documents one by one.
//
//   npm run bench:duplicates
//   BENCH_SIZES=2000 BENCH_DATABASES=postgres BENCH_INCREMENTAL=10 node tools/bench/src/duplicates.bench.mjs
//
// Runs in-process against the BUILT workspace (dist/ next to this tools/ tree, see bench-kit's ROOT): a
// Nest application context with the modules the workers app assembles (no HTTP, no job workers), the use
// cases called directly as the jobs would call them. For each size and database, a FRESH database
// (embedded = PGlite in a temporary DATA_DIR, postgres = a new database on 127.0.0.1:5432 via the test kit):
//   1. the corpus of tools/eval/src/duplicates-corpus.ts (generateDuplicatesCorpus, about 1.2 KB a document,
//      five layouts: Markdown x3, HTML, plain text with CRLF) of size + BENCH_INCREMENTAL documents; the
//      edited copies of BENCH_INCREMENTAL/2 planted `near` families and BENCH_INCREMENTAL/2 unrelated
//      documents are held out for step 5, so the full run sees exactly `size` documents. Each document is a
//      file of its layout's media type (.md text/markdown, .html text/html, .txt text/plain);
//   2. loading, not timed as identification. Sizes up to BENCH_INGEST_MAX (default 10,000): IngestDocument +
//      IndexDocument per document (parsing, chunking, embeddings, vectors: what a real upload does). Larger
//      sizes: `repository.documents`, `repository.document_contents` and `repository.semantic_nodes` rows
//      written by batched SQL, shaped as IngestDocument + IndexDocument write them: the node texts are the
//      app's own DocumentParser + chunkDocument output (what IndexDocument stores), the search vector is the
//      store's expression; no embeddings/vectors and no queued document-change jobs (identification reads
//      neither);
//   3. the audit instance (CreateAuditInstance) carried by RunInstanceStep from INIT to
//      ON_DUPLICATE_IDENTIFICATION (the step that delegates), then IdentifyDuplicates.execute({ instanceId },
//      progress) as the `duplicates.identify` job runs it, with a progress bar from its callback. Timed: the
//      fingerprint phase (start to the progress report of the last page: list ids, known and indexed
//      versions, read the passages of stale documents, fingerprint, save) and the cluster phase (the transaction: lock, load every fingerprint, cluster,
//      reconcile, write, complete the step), each split by wrapping the ports' methods. Peak RSS (VmHWM,
//      reset before through /proc/self/clear_refs; PGlite runs inside this process). The stored open clusters
//      (DuplicateClusterRepository.all) against the planted pairs of the loaded documents: pairwise P/R;
//   4. the rerun with nothing changed: UpdateInstanceStep back to ON_DUPLICATE_IDENTIFICATION, the same
//      execute, timed the same way (since 5e8c2e8 it reads content versions, not texts, and clusters again);
//   5. incremental: each held-out document in turn is ingested and indexed through the use cases, then
//      CheckChangedDocument.execute({ instanceId, documentId, change: 'indexed' }) is timed (the
//      `duplicates.document-changed` job). A near copy must join its original's open cluster, an unrelated
//      document must stay out of every cluster;
//   6. a last full run over size + held-out documents (step set back again): it must write nothing if the
//      incremental checks left the clusters a full run would find; P/R over all planted pairs.
// Prints Markdown tables and writes JSON to tools/bench/results/duplicates-<timestamp>.json.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import {
  builtWorkspace,
  checkDatabases,
  coresMeter,
  distFile,
  endRunSoon,
  envNumber,
  gitCommit,
  latencySummary,
  machineInfo,
  machineTicks,
  memorySampler,
  peakRssMiB,
  progressBar,
  resetPeakRss,
  ROOT,
  round,
  STUB_ATTEMPT,
  timeMethod,
  writeResults,
} from './bench-kit.mjs';

const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });

const settings = {
  /** Documents in the repository at the full run; each size runs on a fresh database. */
  sizes: (process.env.BENCH_SIZES ?? '10000,100000').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b),
  databases: (process.env.BENCH_DATABASES ?? 'postgres,embedded').split(',').map((m) => m.trim()).filter(Boolean),
  /** PGlite runs only the sizes up to this (ingesting 100,000 documents into PGlite would take hours). */
  embeddedMaxDocuments: envInteger('BENCH_EMBEDDED_MAX', 10000, { min: 1 }),
  /** Sizes up to this are ingested and indexed through the use cases; larger ones are seeded by SQL. */
  ingestMaxDocuments: envInteger('BENCH_INGEST_MAX', 10000, { min: 0 }),
  /** Documents checked one by one after the full run: half edited copies of loaded documents, half unrelated. */
  incremental: envInteger('BENCH_INCREMENTAL', 50, { min: 0 }),
  /** A last full run after the incremental checks (must write nothing). */
  finalRun: envInteger('BENCH_FINAL_RUN', 1, { min: 0, max: 1 }) === 1,
  /** Documents per seeding transaction (SQL loading only). */
  seedBatch: envInteger('BENCH_SEED_BATCH', 500, { min: 1, max: 2000 }),
  seed: envInteger('BENCH_SEED', 20261126),
};
if (settings.sizes.length === 0) throw new Error('BENCH_SIZES: give one or more document counts, e.g. 10000,100000');
checkDatabases(settings.databases);

const { require, workersModule } = builtWorkspace();
const { NestFactory } = require('@nestjs/core');
const { createTestDatabase } = require(distFile('tools', 'test-kit', 'src', 'index.js'));
const { IdGenerator } = require(distFile('libs', 'shared', 'kernel', 'src', 'index.js'));
const { TypeOrmUnitOfWork } = require(distFile('libs', 'platform', 'database', 'src', 'index.js'));
const { BootstrapInstallation } = require(distFile('libs', 'identity', 'core', 'src', 'index.js'));
const { AuditInstanceRepository, CompleteInstanceStep, CreateAuditInstance, GetInstanceStep, RunInstanceStep, UpdateInstanceStep } = require(distFile('libs', 'workspace', 'core', 'src', 'index.js'));
const { chunkDocument, DocumentParser, IngestDocument, IndexDocument } = require(distFile('libs', 'repository', 'core', 'src', 'index.js'));
const { CheckChangedDocument, ClusterWriter, DuplicateClusterRepository, DuplicatesSettings, DuplicatesSource, FingerprintStore, IdentificationRuns, IdentifyDuplicates } = require(distFile('libs', 'duplicates', 'core', 'src', 'index.js'));
const { generateDuplicatesCorpus, pairsOf, pairwiseScores } = require(distFile('tools', 'eval', 'src', 'duplicates-corpus.js'));

const log = (message) => process.stderr.write(`${message}\n`);
const s = (ms) => round(ms / 1000, 2);

/** The file a generated text is: its layout's extension and media type. */
function fileOf(text) {
  if (text.startsWith('<!DOCTYPE html>')) return { ext: 'html', mediaType: 'text/html' };
  if (text.includes('\r\n')) return { ext: 'txt', mediaType: 'text/plain' };
  return { ext: 'md', mediaType: 'text/markdown' };
}

/**
 * The corpus of `size + incremental` documents; the held-out documents: the edited copies of the first
 * near families (every edit rate in turn) and unrelated documents spread over the corpus, alternating.
 */
function corpusFor(size) {
  const corpus = generateDuplicatesCorpus({ documents: size + settings.incremental, seed: settings.seed });
  const nearFamilies = corpus.families.filter((f) => f.kind === 'near');
  const wantNear = Math.ceil(settings.incremental / 2);
  if (nearFamilies.length < wantNear) throw new Error(`the corpus of ${size} documents has ${nearFamilies.length} near families, ${wantNear} are needed`);
  const near = nearFamilies.slice(0, wantNear).map((f) => ({ kind: 'near', id: f.ids[1], original: f.ids[0], editRate: f.editRate }));
  const inFamily = new Set(corpus.families.flatMap((f) => f.ids));
  const unrelated = corpus.documents.filter((d) => !inFamily.has(d.id));
  const wantNew = settings.incremental - wantNear;
  const fresh = Array.from({ length: wantNew }, (_, i) => ({ kind: 'new', id: unrelated[Math.floor(((i + 0.5) * unrelated.length) / wantNew)].id, original: null, editRate: null }));
  const heldOut = [];
  for (let i = 0; i < Math.max(near.length, fresh.length); i++) {
    if (near[i]) heldOut.push(near[i]);
    if (fresh[i]) heldOut.push(fresh[i]);
  }
  const held = new Set(heldOut.map((h) => h.id));
  const files = new Map(
    corpus.documents.map((d) => {
      const { ext, mediaType } = fileOf(d.text);
      return [d.id, { externalId: d.id, name: `${d.id}.${ext}`, mediaType, content: d.text }];
    }),
  );
  return { corpus, heldOut, loaded: corpus.documents.filter((d) => !held.has(d.id)).map((d) => files.get(d.id)), files };
}

/** The planted pairs (pairKey of corpus ids) whose two documents are both in `ids`. */
function plantedAmong(corpus, ids) {
  return new Set([...corpus.duplicatePairs].filter((key) => key.split('|').every((id) => ids.has(id))));
}

/** One document ingested and indexed through the use cases (what an upload and its indexation job do); its document id. */
async function ingestOne(app, instanceId, doc) {
  const ingested = await app.get(IngestDocument).execute(instanceId, { externalId: doc.externalId, name: doc.name, url: null, owner: null, mediaType: doc.mediaType, content: Buffer.from(doc.content, 'utf8') });
  const outcome = await app.get(IndexDocument).execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, STUB_ATTEMPT);
  if (outcome !== 'indexed') throw new Error(`${doc.externalId} was not indexed (${outcome})`);
  return ingested.id;
}

async function ingestAll(app, instanceId, docs, label) {
  const bar = progressBar(label, docs.length);
  const t0 = performance.now();
  const ids = new Map();
  for (const doc of docs) {
    ids.set(doc.externalId, await ingestOne(app, instanceId, doc));
    bar.tick();
  }
  bar.end();
  return { method: 'use cases (IngestDocument + IndexDocument)', seconds: (performance.now() - t0) / 1000, ids };
}

/**
 * Seeds the documents as IngestDocument + IndexDocument would leave them (state INDEXED, content, nodes from
 * the app's parser and chunker), by batched SQL through the app's connection: no embeddings, no vectors, no jobs.
 */
async function seedAll(app, instanceId, docs, label) {
  const uow = app.get(TypeOrmUnitOfWork);
  const parser = app.get(DocumentParser);
  const ids = app.get(IdGenerator);
  const bar = progressBar(label, docs.length);
  const t0 = performance.now();
  const map = new Map();
  let nodeCount = 0;
  let parseMs = 0;
  for (let i = 0; i < docs.length; i += settings.seedBatch) {
    const batch = docs.slice(i, i + settings.seedBatch);
    const rows = [];
    const tp = performance.now();
    for (const doc of batch) {
      const content = Buffer.from(doc.content, 'utf8');
      const drafts = chunkDocument(await parser.parse({ content, mediaType: doc.mediaType, fileName: doc.name }));
      const id = ids.next('kd_');
      map.set(doc.externalId, id);
      rows.push({ doc, id, content, contentHash: createHash('sha256').update(content).digest('hex'), nodes: drafts.map((d) => ({ id: ids.next('kn_'), ...d })) });
    }
    parseMs += performance.now() - tp;
    const now = new Date();
    await uow.run(async () => {
      const q = (sql, params) => uow.manager().query(sql, params);
      let params = [];
      const docTuples = rows.map((r) => {
        const b = params.length;
        params.push(r.id, instanceId, r.doc.externalId, r.doc.name, null, null, '{}', r.doc.mediaType, r.content.length, r.contentHash, 'INDEXED', null, now, now, now);
        return `(${Array.from({ length: 15 }, (_, k) => `$${b + k + 1}`).join(', ')})`;
      });
      await q(
        `INSERT INTO repository.documents (id, instance_id, external_id, name, url, owner, extraproperties, media_type, size_bytes, content_hash, state, failure_reason, created_at, updated_at, indexed_at) VALUES ${docTuples.join(', ')}`,
        params,
      );
      params = [];
      const contentTuples = rows.map((r) => {
        params.push(r.id, r.content);
        return `($${params.length - 1}, $${params.length})`;
      });
      await q(`INSERT INTO repository.document_contents (document_id, content) VALUES ${contentTuples.join(', ')}`, params);
      const nodes = rows.flatMap((r) => r.nodes.map((n) => ({ ...n, documentId: r.id })));
      nodeCount += nodes.length;
      for (let j = 0; j < nodes.length; j += 500) {
        params = [];
        // The store's tuple (TypeOrmSemanticNodeRepository.stage), search vector included; no attempt, like the document's
        // nodes_attempt, so the rows are the published ones (ADR 0051).
        const tuples = nodes.slice(j, j + 500).map((n) => {
          const b = params.length;
          params.push(n.id, instanceId, n.documentId, n.position, n.text, n.headingPath, n.charStart, n.charEnd);
          const text = `$${b + 5}`;
          const headings = `array_to_string($${b + 6}::text[], ' ')`;
          return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, ${text}, $${b + 6}::text[], $${b + 7}, $${b + 8},
            setweight(to_tsvector('english', ${headings}), 'A') || setweight(to_tsvector('english', ${text}), 'B') || setweight(to_tsvector('simple', ${text}), 'D'))`;
        });
        await q(`INSERT INTO repository.semantic_nodes (id, instance_id, document_id, position, text, heading_path, char_start, char_end, search_vector) VALUES ${tuples.join(', ')}`, params);
      }
    });
    bar.tick(batch.length);
  }
  bar.end();
  await uow.manager().query('ANALYZE repository.documents; ANALYZE repository.semantic_nodes').catch(() => undefined);
  return { method: 'batched SQL (rows shaped as IngestDocument + IndexDocument write them; no embeddings, no jobs)', seconds: (performance.now() - t0) / 1000, parse_s: round(parseMs / 1000, 1), nodes: nodeCount, ids: map };
}

/** RunInstanceStep from INIT until the step that delegates to the duplicates context. */
async function toIdentificationStep(app, instanceId) {
  const steps = app.get(GetInstanceStep);
  const run = app.get(RunInstanceStep);
  for (let i = 0; i < 20; i++) {
    const step = await steps.execute(instanceId);
    if (step === 'ON_DUPLICATE_IDENTIFICATION') return;
    const outcome = await run.execute({ instanceId, step });
    if (outcome === 'waiting') await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`instance ${instanceId} did not reach ON_DUPLICATE_IDENTIFICATION (${await steps.execute(instanceId)})`);
}

/** The admin's recovery move (UpdateInstanceStep) back to ON_DUPLICATE_IDENTIFICATION, for a rerun. */
async function backToIdentificationStep(app, principal, instanceId) {
  const instance = await app.get(AuditInstanceRepository).get(instanceId);
  const access = { instanceId, organizationId: instance.organizationId, isMember: true, isInstanceAdmin: true, isAdmin: true, instance };
  await app.get(UpdateInstanceStep).execute(principal, access, 'ON_DUPLICATE_IDENTIFICATION');
}

/** The ports IdentifyDuplicates and CheckChangedDocument call, wrapped to time each call. */
function instrument(app, timers, counts) {
  const source = app.get(DuplicatesSource);
  const fingerprints = app.get(FingerprintStore);
  const clusters = app.get(DuplicateClusterRepository);
  const runs = app.get(IdentificationRuns);
  return [
    timeMethod(app.get(GetInstanceStep), 'facts', timers, 'step_facts'),
    timeMethod(source, 'liveIds', timers, 'live_ids'),
    // Since 5e8c2e8: the content versions of a page, read before any text (only documents whose fingerprint is stale are read).
    ...(typeof source.indexedVersions === 'function' ? [timeMethod(source, 'indexedVersions', timers, 'indexed_versions')] : []),
    timeMethod(source, 'read', timers, 'read_passages', (docs) => {
      counts.documents_read += docs?.length ?? 0;
      counts.text_bytes_read += docs?.reduce((n, d) => n + d.text.length, 0) ?? 0;
    }),
    timeMethod(runs, 'start', timers, 'run_start'),
    timeMethod(runs, 'progress', timers, 'run_progress'),
    timeMethod(runs, 'finish', timers, 'run_finish'),
    timeMethod(fingerprints, 'retainOnly', timers, 'retain_only'),
    timeMethod(fingerprints, 'versions', timers, 'versions'),
    timeMethod(fingerprints, 'save', timers, 'save_fingerprints', (_, [, saved]) => {
      counts.fingerprints_saved += saved.length;
    }),
    timeMethod(fingerprints, 'all', timers, 'load_fingerprints', (all) => {
      counts.fingerprints_loaded += all?.length ?? 0;
    }),
    timeMethod(fingerprints, 'candidates', timers, 'candidates', (found) => {
      counts.candidates += found?.length ?? 0;
    }),
    timeMethod(fingerprints, 'ofDocuments', timers, 'neighbourhood_fingerprints'),
    timeMethod(fingerprints, 'remove', timers, 'remove_fingerprints'),
    timeMethod(clusters, 'lock', timers, 'lock'),
    timeMethod(clusters, 'all', timers, 'load_clusters'),
    timeMethod(clusters, 'touching', timers, 'touching_clusters'),
    timeMethod(app.get(ClusterWriter), 'apply', timers, 'write_clusters'),
    timeMethod(app.get(CompleteInstanceStep), 'execute', timers, 'complete_step'),
  ];
}

const newCounts = () => ({ documents_read: 0, text_bytes_read: 0, fingerprints_saved: 0, fingerprints_loaded: 0, candidates: 0 });

/** One IdentifyDuplicates.execute, as the job runs it, timed by phase; the stored open clusters afterwards. */
async function identify(app, instanceId, label) {
  const timers = {};
  const counts = newCounts();
  const restore = instrument(app, timers, counts);
  globalThis.gc?.();
  const rssBefore = round(process.memoryUsage().rss / 1024 ** 2, 0);
  const peakReset = resetPeakRss();
  const memory = memorySampler();
  const cores = coresMeter();
  let bar = null;
  let shown = 0;
  let fingerprintPhaseEnd = null;
  let phaseCores = null;
  let outcome;
  const t0 = performance.now();
  try {
    outcome = await app.get(IdentifyDuplicates).execute({ instanceId }, async (percent, message) => {
      // "checked N/M documents, K fingerprinted" ("read …" before 5e8c2e8).
      const read = /^(?:checked|read) (\d+)\/(\d+) documents/.exec(message);
      if (read) {
        const [done, total] = [Number(read[1]), Number(read[2])];
        bar ??= progressBar(`${label} identify`, total);
        bar.tick(done - shown);
        shown = done;
        if (done === total) {
          fingerprintPhaseEnd = performance.now();
          phaseCores = cores();
          bar.end();
          log(`${label} clustering and reconciling...`);
        }
      }
    });
  } finally {
    for (const r of restore) r();
  }
  const end = performance.now();
  const totalCores = cores();
  const mem = memory.stop();
  const peak = peakReset ? peakRssMiB() : null;
  if (fingerprintPhaseEnd === null) fingerprintPhaseEnd = end;
  const match = /^identified (\d+) documents \((\d+) fingerprinted\) clusters (\d+) writes (\d+)/.exec(outcome);
  if (!match) throw new Error(`IdentifyDuplicates: ${outcome}`);
  const fpMs = fingerprintPhaseEnd - t0;
  const clMs = end - fingerprintPhaseEnd;
  const t = (key) => timers[key] ?? 0;
  const fpIo = t('step_facts') + t('live_ids') + t('run_start') + t('retain_only') + t('versions') + t('indexed_versions') + t('read_passages') + t('save_fingerprints') + t('run_progress');
  const clIo = t('lock') + t('load_fingerprints') + t('load_clusters') + t('write_clusters') + t('run_finish') + t('complete_step');
  return {
    outcome,
    documents: Number(match[1]),
    fingerprinted: Number(match[2]),
    clusters_found: Number(match[3]),
    cluster_writes: Number(match[4]),
    total_s: s(end - t0),
    fingerprint_phase: {
      seconds: s(fpMs),
      start_s: s(t('step_facts') + t('live_ids') + t('run_start') + t('retain_only') + t('versions')),
      indexed_versions_s: timers.indexed_versions === undefined ? null : s(t('indexed_versions')),
      read_passages_s: s(t('read_passages')),
      read_passages_calls: timers.read_passages_calls,
      fingerprint_cpu_and_rest_s: s(fpMs - fpIo),
      save_fingerprints_s: s(t('save_fingerprints')),
      progress_rows_s: s(t('run_progress')),
      cores: phaseCores,
    },
    cluster_phase: {
      seconds: s(clMs),
      lock_s: s(t('lock')),
      load_fingerprints_s: s(t('load_fingerprints')),
      load_clusters_s: s(t('load_clusters')),
      cluster_reconcile_cpu_and_rest_s: s(clMs - clIo),
      write_clusters_s: s(t('write_clusters')),
      complete_step_s: s(t('complete_step') + t('run_finish')),
    },
    counts: { ...counts, text_mb_read: round(counts.text_bytes_read / 1024 ** 2, 1) },
    cores: totalCores,
    memory: { rss_before_mb: rssBefore, peak_rss_mb: peak, peak_reset: peakReset, sampled: mem },
  };
}

/** The open clusters stored, as groups of corpus ids; pairwise scores against `expected`. */
async function storedClusters(app, instanceId, corpusIdOf, expected) {
  const all = await app.get(DuplicateClusterRepository).all(instanceId);
  const open = all.filter((c) => c.state !== 'RESOLVED');
  const groups = open.map((c) => c.documentIds.map((id) => corpusIdOf.get(id) ?? id));
  const scores = pairwiseScores(pairsOf(groups), expected);
  const byState = {};
  for (const c of all) byState[c.state] = (byState[c.state] ?? 0) + 1;
  return {
    stored: all.length,
    open: open.length,
    exact: open.filter((c) => c.exact).length,
    by_state: byState,
    largest: Math.max(0, ...open.map((c) => c.documentIds.length)),
    precision: round(scores.precision, 4),
    recall: round(scores.recall, 4),
    true_positives: scores.truePositives,
    predicted_pairs: scores.predicted,
    planted_pairs: scores.expected,
  };
}

/**
 * What PostgreSQL's planner knows of the fingerprints table when the incremental checks start: the candidates
 * query (`band_keys && $keys OR canonical_hash = $hash`) is planned from these statistics, which only
 * (auto)ANALYZE refreshes (PGlite runs no autovacuum). Read-only; null when the view says nothing.
 */
async function fingerprintTableStats(app) {
  try {
    const [row] = await app
      .get(TypeOrmUnitOfWork)
      .manager()
      .query(`SELECT n_live_tup, n_mod_since_analyze, last_analyze, last_autoanalyze, last_autovacuum FROM pg_stat_user_tables WHERE schemaname = 'duplicates' AND relname = 'fingerprints'`);
    if (!row) return null;
    return {
      live_rows: Number(row.n_live_tup),
      modified_since_analyze: Number(row.n_mod_since_analyze),
      analyzed: Boolean(row.last_analyze || row.last_autoanalyze),
      last_autoanalyze: row.last_autoanalyze ? new Date(row.last_autoanalyze).toISOString() : null,
      last_autovacuum: row.last_autovacuum ? new Date(row.last_autovacuum).toISOString() : null,
    };
  } catch {
    return null;
  }
}

/** Each held-out document ingested and indexed, then CheckChangedDocument timed; did it land where it should? */
async function incremental(app, instanceId, heldOut, files, ids, label) {
  const check = app.get(CheckChangedDocument);
  const clusters = app.get(DuplicateClusterRepository);
  const timers = {};
  const counts = newCounts();
  const rounds = [];
  const statsAtStart = await fingerprintTableStats(app);
  const bar = progressBar(`${label} incremental`, heldOut.length);
  const restore = instrument(app, timers, counts);
  try {
    for (const h of heldOut) {
      const ti = performance.now();
      const documentId = await ingestOne(app, instanceId, files.get(h.id));
      ids.set(h.id, documentId);
      const indexMs = performance.now() - ti;
      const before = { ...timers };
      const candidatesBefore = counts.candidates;
      const t0 = performance.now();
      const outcome = await check.execute({ instanceId, documentId, change: 'indexed' });
      const ms = performance.now() - t0;
      const delta = (key) => round((timers[key] ?? 0) - (before[key] ?? 0));
      const touching = (await clusters.touching(instanceId, [documentId])).filter((c) => c.state !== 'RESOLVED');
      const original = h.original ? ids.get(h.original) : null;
      const placed = h.kind === 'near' ? touching.some((c) => c.documentIds.includes(original)) : touching.length === 0;
      rounds.push({
        kind: h.kind,
        corpus_id: h.id,
        edit_rate: h.editRate,
        ingest_index_ms: round(indexMs),
        check_ms: round(ms),
        outcome,
        placed,
        cluster_size: touching[0]?.documentIds.length ?? 0,
        candidates: counts.candidates - candidatesBefore,
        parts_ms: {
          read: delta('read_passages'),
          save: delta('save_fingerprints'),
          candidates: delta('candidates'),
          touching: delta('touching_clusters'),
          neighbourhood: delta('neighbourhood_fingerprints'),
          lock: delta('lock'),
          write: delta('write_clusters'),
        },
      });
      bar.tick();
    }
  } finally {
    for (const r of restore) r();
  }
  bar.end();
  const of = (kind) => rounds.filter((r) => r.kind === kind);
  const p95 = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]) : null;
  };
  const checkMs = rounds.map((r) => r.check_ms);
  return {
    fingerprint_table_stats_at_start: statsAtStart,
    checks: rounds.length,
    check_ms: { ...latencySummary(checkMs), p95: p95(checkMs) },
    ingest_index_ms: latencySummary(rounds.map((r) => r.ingest_index_ms)),
    candidates: latencySummary(rounds.map((r) => r.candidates)),
    parts_p50_ms: Object.fromEntries(Object.keys(rounds[0]?.parts_ms ?? {}).map((k) => [k, latencySummary(rounds.map((r) => r.parts_ms[k])).p50])),
    near_copies_joined: `${of('near').filter((r) => r.placed).length}/${of('near').length}`,
    new_documents_alone: `${of('new').filter((r) => r.placed).length}/${of('new').length}`,
    misplaced: rounds.filter((r) => !r.placed).map((r) => ({ corpus_id: r.corpus_id, kind: r.kind, edit_rate: r.edit_rate, outcome: r.outcome })),
    detail: rounds,
  };
}

async function benchRun(db, size) {
  const label = `[${db} ${size}]`;
  log(`${label} generating the corpus (${size} + ${settings.incremental} held out)...`);
  const { corpus, heldOut, loaded, files } = corpusFor(size);
  const bytes = loaded.reduce((n, d) => n + Buffer.byteLength(d.content), 0);
  log(`${label} fresh ${db === 'embedded' ? 'PGlite DATA_DIR' : 'PostgreSQL database on 127.0.0.1:5432'}...`);
  const testDb = await createTestDatabase(db);
  let app;
  try {
    const { config, module } = workersModule(testDb.env);
    app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
    const installed = await app.get(BootstrapInstallation).execute({ organizationName: 'Bench', adminEmail: 'admin@bench.example', adminApiKey: undefined, adminPassword: undefined });
    const principal = { organizationId: installed.organizationId, userId: installed.adminUserId, roles: ['ADMIN'], credential: { kind: 'org_api_key', id: 'bench' } };
    const instanceId = (await app.get(CreateAuditInstance).execute(principal, { name: 'Bench repository' })).instance_id;

    const loadCores = coresMeter();
    const load = size <= settings.ingestMaxDocuments ? await ingestAll(app, instanceId, loaded, `${label} ingest+index`) : await seedAll(app, instanceId, loaded, `${label} seed (SQL)`);
    const ids = load.ids;
    const loading = { method: load.method, documents: loaded.length, mean_document_bytes: round(bytes / loaded.length, 0), seconds: round(load.seconds, 1), documents_per_s: round(loaded.length / load.seconds, 1), parse_s: load.parse_s ?? null, nodes: load.nodes ?? null, cores: loadCores() };
    await toIdentificationStep(app, instanceId);

    const corpusIdOf = () => new Map([...ids].map(([corpusId, id]) => [id, corpusId]));
    const loadedIds = new Set(loaded.map((d) => d.externalId));
    const expected = plantedAmong(corpus, loadedIds);
    const full = await identify(app, instanceId, `${label} full run`);
    full.clusters = await storedClusters(app, instanceId, corpusIdOf(), expected);
    log(`${label} full run ${full.total_s} s: ${full.outcome}; P ${full.clusters.precision} R ${full.clusters.recall}`);

    await backToIdentificationStep(app, principal, instanceId);
    const rerun = await identify(app, instanceId, `${label} rerun`);
    log(`${label} rerun ${rerun.total_s} s: ${rerun.outcome}`);

    const incr = settings.incremental > 0 ? await incremental(app, instanceId, heldOut, files, ids, label) : null;
    let final = null;
    if (settings.finalRun) {
      const incrementalClusters = await storedClusters(app, instanceId, corpusIdOf(), plantedAmong(corpus, new Set(ids.keys())));
      await backToIdentificationStep(app, principal, instanceId);
      final = await identify(app, instanceId, `${label} final full run`);
      final.clusters = await storedClusters(app, instanceId, corpusIdOf(), plantedAmong(corpus, new Set(ids.keys())));
      final.clusters_after_incremental = incrementalClusters;
      log(`${label} final run ${final.total_s} s: ${final.outcome}`);
    }
    const plantedKinds = {};
    for (const f of corpus.families) plantedKinds[f.kind] = (plantedKinds[f.kind] ?? 0) + 1;
    return {
      database: db,
      size,
      page_documents: app.get(DuplicatesSettings).pageDocuments,
      threshold: config.DUPLICATES_JACCARD_THRESHOLD,
      scheme: app.get(DuplicatesSettings).scheme,
      corpus: { documents: corpus.documents.length, held_out: heldOut.length, families: plantedKinds, planted_pairs_loaded: expected.size, planted_pairs_all: corpus.duplicatePairs.size },
      loading,
      full,
      rerun,
      incremental: incr,
      final,
    };
  } finally {
    await app?.close().catch((e) => log(`${label} close failed: ${e}`));
    await testDb.drop().catch((e) => log(`${label} drop failed: ${e}`));
  }
}

function tables(results) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = ['### Whole-repository identification (IdentifyDuplicates), rerun, incremental check (CheckChangedDocument)', ''];
  lines.push('| Database | Documents | Loaded by | Full run s | Fingerprint phase s | Cluster phase s | Peak RSS MiB (before) | Open clusters | Precision | Recall | Rerun s | Incremental p50 / p95 / max ms | Near copies joined | New alone | Final run writes |');
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|');
  for (const r of results) {
    const inc = r.incremental;
    lines.push(
      `| ${r.database} | ${r.size.toLocaleString('en-GB')} | ${r.loading.method.startsWith('use cases') ? 'use cases' : 'SQL seed'} | **${f(r.full.total_s)}** | ${f(r.full.fingerprint_phase.seconds)} | ${f(r.full.cluster_phase.seconds)} | ${f(r.full.memory.peak_rss_mb ?? r.full.memory.sampled.rss_mb, 0)} (${f(r.full.memory.rss_before_mb, 0)}) | ${r.full.clusters.open.toLocaleString('en-GB')} | ${f(r.full.clusters.precision, 4)} | ${f(r.full.clusters.recall, 4)} | ${f(r.rerun.total_s)} | ${inc ? `${f(inc.check_ms.p50)} / ${f(inc.check_ms.p95)} / ${f(inc.check_ms.max)}` : '–'} | ${inc?.near_copies_joined ?? '–'} | ${inc?.new_documents_alone ?? '–'} | ${r.final ? r.final.cluster_writes : '–'} |`,
    );
  }
  lines.push('', '### Where the time goes (seconds)', '');
  lines.push('| Database | Documents | Run | Start (ids, known versions) | Indexed versions | Read passages | Fingerprint CPU + rest | Save fingerprints | Load fingerprints | Cluster + reconcile CPU + rest | Write clusters | Cores bench / PostgreSQL / other |');
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    for (const [name, run] of [['full', r.full], ['rerun', r.rerun], ['final', r.final]]) {
      if (!run) continue;
      const a = run.fingerprint_phase;
      const b = run.cluster_phase;
      lines.push(`| ${r.database} | ${r.size.toLocaleString('en-GB')} | ${name} (${run.fingerprinted} fingerprinted) | ${f(a.start_s, 2)} | ${f(a.indexed_versions_s)} | ${f(a.read_passages_s)} | ${f(a.fingerprint_cpu_and_rest_s)} | ${f(a.save_fingerprints_s)} | ${f(b.load_fingerprints_s)} | ${f(b.cluster_reconcile_cpu_and_rest_s)} | ${f(b.write_clusters_s)} | ${f(run.cores.bench_cores, 2)} / ${f(run.cores.postgres_cores, 2)} / ${f(run.cores.other_cores, 2)} |`);
    }
  }
  const withIncr = results.filter((r) => r.incremental);
  if (withIncr.length > 0) {
    lines.push('', '### Incremental check, p50 of its parts (ms)', '');
    lines.push('| Database | Documents | Checks | Read passages | Save fingerprint | Candidates query | Touching clusters | Neighbourhood | Write | Candidates p50 / max | Ingest+index p50 ms | Fingerprints analysed at start |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|');
    for (const r of withIncr) {
      const p = r.incremental.parts_p50_ms;
      lines.push(`| ${r.database} | ${r.size.toLocaleString('en-GB')} | ${r.incremental.checks} | ${f(p.read)} | ${f(p.save)} | ${f(p.candidates)} | ${f(p.touching)} | ${f(p.neighbourhood)} | ${f(p.write)} | ${r.incremental.candidates.p50} / ${r.incremental.candidates.max} | ${f(r.incremental.ingest_index_ms.p50)} | ${r.incremental.fingerprint_table_stats_at_start ? (r.incremental.fingerprint_table_stats_at_start.analyzed ? 'yes' : 'no') : '–'} |`);
    }
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = machineTicks();
  const busyBefore = before && after ? round(((after.busy - before.busy) / (after.total - before.total)) * cpus().length) : null;
  log(`bench: databases=${settings.databases.join(',')} sizes=${settings.sizes.join(',')} incremental=${settings.incremental} cpus=${cpus().length} cores busy before=${busyBefore}`);
  const results = [];
  const t0 = performance.now();
  const report = () => ({
    benchmark: 'duplicates',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    total_s: round((performance.now() - t0) / 1000, 1),
    // BENCH_GIT_COMMIT: when run from an exported tree (git archive) of a commit, which has no .git.
    git_commit: gitCommit() ?? process.env.BENCH_GIT_COMMIT ?? null,
    settings: {
      ...settings,
      method:
        'in-process Nest application context (the workers app modules, no HTTP, no job workers); IdentifyDuplicates.execute and CheckChangedDocument.execute called as their jobs would; a fresh database per size and database',
    },
    machine: machineInfo(busyBefore),
    results,
  });
  let file = null;
  for (const size of settings.sizes) {
    for (const db of settings.databases) {
      if (db === 'embedded' && size > settings.embeddedMaxDocuments) continue;
      results.push(await benchRun(db, size));
      // Written after every run, so a long run that is stopped keeps what it measured.
      file = writeResults('duplicates', startedAt, report());
    }
  }
  console.log('');
  console.log(`## duplicates benchmark (sizes ${settings.sizes.join(', ')}, ${cpus().length} CPUs, node ${process.version}, ${round((performance.now() - t0) / 1000, 1)} s)`);
  console.log('');
  console.log(tables(results));
  for (const r of results) {
    // Other work than this process and PostgreSQL (whose processes also serve other users' databases).
    const busiest = Math.max(...[r.full, r.rerun, r.final].filter(Boolean).map((run) => run.cores.other_cores ?? 0));
    if (busiest > 0.25) console.log(`\nWarning: ${r.database} ${r.size}: other processes used up to ${busiest} cores during the runs (shared machine).`);
  }
  const big = results.filter((r) => r.size >= 100000);
  for (const r of big) {
    const goals = [
      `full run ${r.full.total_s} s ${r.full.total_s <= 90 ? '≤' : '>'} 90 s`,
      `P ${r.full.clusters.precision} / R ${r.full.clusters.recall} ${r.full.clusters.precision >= 0.95 && r.full.clusters.recall >= 0.95 ? '≥' : '<'} 0.95`,
      r.incremental ? `incremental max ${r.incremental.check_ms.max} ms ${r.incremental.check_ms.max <= 200 ? '≤' : '>'} 200 ms` : null,
    ].filter(Boolean);
    console.log(`\nGoals (${r.database} ${r.size}): ${goals.join('; ')}`);
  }
  console.log('');
  console.log(`Results: ${file ? relative(ROOT, file) : '(none)'}`);
  endRunSoon();
}

await main();
