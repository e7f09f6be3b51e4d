// Full-audit scan benchmark (issue 12): a full scan of 1,000 and 10,000 documents (about 10 semantic nodes
// each) on PGlite and on PostgreSQL with one worker, its time and memory, the planted contradictions it
// finds, and the incremental rescan of one changed document.
//
//   npm run bench:full-audit
//   BENCH_SIZES=1000 BENCH_DATABASES=postgres node tools/bench/src/full-audit.bench.mjs
//   FULL_AUDIT_VECTOR_BAND=0.6-0.98 BENCH_SIZES=1000 ... (vector-neighbour blocking on, ADR 0042)
//
// Runs in-process against the BUILT workspace (dist/): a Nest application context with the modules the
// workers app assembles (no HTTP, no job workers: runWorkers false), so the process holds the whole app
// as a worker does, and the use cases are called directly in the order the jobs would run them. For each
// database and each size, a FRESH database (embedded = PGlite in a temporary DATA_DIR, postgres = a new
// database on 127.0.0.1:5432 via the test kit), so every scan reads every document:
//   1. an organisation, its admin and an audit instance; BENCH_PLANTED_PAIRS pairs of documents stating
//      different figures for the same review ("The <subject> review is completed within 19 days." vs 26
//      days), then generated Markdown documents (the topical corpus of the other benchmarks, two generated
//      bodies per document: about 10 semantic nodes) up to the size, ingested and indexed through the use
//      cases (IngestDocument + IndexDocument);
//   2. the instance moved to RUNNING_PHASE through RunInstanceStep (the jobs it queues stay queued);
//   3. the full scan, one worker: StartFullAuditScan.execute (records the scan, queues the chunk jobs),
//      then ExtractClaims.execute for each chunk (the document ids of ReadDocumentPassages.liveIds in
//      chunks of FULL_AUDIT_CHUNK_DOCUMENTS, in the order StartFullAuditScan cut them, with the scan id
//      and chunk number the queued jobs carry), then JudgeFullAudit.execute, which completes the scan.
//      Timed: extraction (split into reading passages, claim extraction CPU and claim writes), judge
//      (split into loading the claims, conflict writes and the rest: the in-memory judgement), total.
//      Memory: process.memoryUsage() sampled every 250 ms, and the kernel's peak RSS (VmHWM, reset
//      before the scan through /proc/self/clear_refs);
//   4. incremental: BENCH_INCREMENTAL_ROUNDS times, one planted document re-ingested with a changed
//      figure and indexed, then RescanChangedDocument.execute (change 'indexed') and JudgeFullAudit.execute
//      timed separately: p50 and max.
// Prints Markdown tables and writes JSON to tools/bench/results/full-audit-<timestamp>.json.
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { builtWorkspace, checkDatabases, distFile, endRunSoon, envNumber, gitCommit, ingestAndIndex, latencySummary, machineInfo, machineTicks, processCpuSeconds, progressBar, ROOT, round, STUB_ATTEMPT, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';

const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });

const settings = {
  /** Repository sizes in documents; each runs on a fresh database. */
  sizes: (process.env.BENCH_SIZES ?? '1000,10000').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b),
  databases: (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',').map((m) => m.trim()).filter(Boolean),
  /** Pairs of documents that contradict each other on one figure. */
  plantedPairs: envInteger('BENCH_PLANTED_PAIRS', 20, { min: 1 }),
  /** Generated bodies per document (each 2-4 sections): 2 gives about 10 semantic nodes. */
  bodiesPerDocument: envInteger('BENCH_BODIES_PER_DOCUMENT', 2, { min: 1, max: 10 }),
  /** Incremental rescans measured after the full scan. */
  incrementalRounds: envInteger('BENCH_INCREMENTAL_ROUNDS', 5, { min: 0 }),
  /** Stop the extraction when its projected time exceeds this (the rate measured so far is reported). */
  maxExtractSeconds: envInteger('BENCH_MAX_EXTRACT_S', 1200, { min: 10 }),
  /**
   * PostgreSQL only, after the in-process measures: full rescans run by this many `dist/apps/workers`
   * processes (distributed mode, Redis), e.g. `1,2`; empty: skipped.
   */
  workerProcesses: (process.env.BENCH_WORKER_PROCESSES ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0),
  seed: envInteger('BENCH_SEED', 42),
};
if (settings.sizes.length === 0) throw new Error('BENCH_SIZES: give one or more document counts, e.g. 1000,10000');
if (settings.sizes[0] < settings.plantedPairs * 2) throw new Error(`BENCH_SIZES: the smallest size must hold the ${settings.plantedPairs * 2} planted documents`);
checkDatabases(settings.databases);

const { require, workersModule: benchModule } = builtWorkspace();
const { Client } = require('pg');
const { NestFactory } = require('@nestjs/core');
const { createTestDatabase, TEST_REDIS_URL } = require(distFile('tools', 'test-kit', 'src', 'index.js'));
const { JobQueue, UnitOfWork } = require(distFile('libs', 'shared', 'kernel', 'src', 'index.js'));
const { BootstrapInstallation } = require(distFile('libs', 'identity', 'core', 'src', 'index.js'));
const { CreateAuditInstance, GetInstanceStep, RunInstanceStep } = require(distFile('libs', 'workspace', 'core', 'src', 'index.js'));
const { IngestDocument, IndexDocument, ReadDocumentPassages } = require(distFile('libs', 'repository', 'core', 'src', 'index.js'));
const { IdentifyDuplicates } = require(distFile('libs', 'duplicates', 'core', 'src', 'index.js'));
const { ClaimStore, ExtractClaims, FullAuditConflictRepository, FullAuditSettings, JudgeFullAudit, RescanChangedDocument, ScanSource, ScanStore, StartFullAuditScan } = require(distFile('libs', 'full-audit', 'core', 'src', 'index.js'));

const MiB = 1024 ** 2;
/** The scan's own settings passed through (FULL_AUDIT_VECTOR_BAND: vector-neighbour blocking). */
const scanEnv = Object.fromEntries(['FULL_AUDIT_VECTOR_BAND'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]));

/** A generated document of `bodies` generated bodies: the first one's title and intro, every body's sections. */
function generatedDocument(corpus, bodies, extraSection = null) {
  const first = corpus.markdown();
  const parts = [first.content.trimEnd()];
  for (let b = 1; b < bodies; b++) {
    const more = corpus.markdown().content.split('\n');
    // Its title becomes a section heading, its intro that section's text.
    parts.push(more.map((line) => (line.startsWith('# ') ? `## ${line.slice(2)}` : line)).join('\n').trimEnd());
  }
  if (extraSection) parts.splice(1, 0, extraSection);
  return { title: first.title, content: `${parts.join('\n\n')}\n` };
}

/** The planted pairs: pair k states two figures for "the <subject> review", one per document. */
function plantedPairs(corpus, count) {
  const random = mulberry32(settings.seed + 7);
  const pairs = [];
  for (let k = 0; k < count; k++) {
    corpus.startDocument();
    const subject = `${corpus.topics[corpus.topic][k % 20]} ${corpus.vocabulary[500 + k]}`;
    const days = 5 + Math.floor(random() * 40);
    const figures = [days, days + 7];
    const documents = figures.map((figure, j) => {
      const section = (f) => `## ${subject[0].toUpperCase()}${subject.slice(1)} review\n\n${corpus.paragraph(40).text} The ${subject} review is completed within ${f} days. ${corpus.paragraph(40).text}`;
      const doc = generatedDocument(corpus, settings.bodiesPerDocument, section(figure));
      return { externalId: `planted-${k}-${j}`, name: `${doc.title} ${k}-${j}.md`, content: doc.content, section };
    });
    pairs.push({ subject, figures, documents });
  }
  return pairs;
}

const ingestAll = (app, instanceId, docs, label) => ingestAndIndex(app, { IngestDocument, IndexDocument }, instanceId, docs, label);

/** Wraps `object[method]` (an instance's own property shadows the prototype's) to add its time to `timer[key]`. */
function timeMethod(object, method, timer, key, after = null) {
  const original = object[method].bind(object);
  timer[key] = 0;
  object[method] = async (...args) => {
    const t = performance.now();
    try {
      const result = await original(...args);
      after?.(result, args);
      return result;
    } finally {
      timer[key] += performance.now() - t;
    }
  };
  return () => {
    object[method] = original;
  };
}

/** Peak RSS of this process since the last reset (kernel high-water mark, kB → MiB). */
function peakRssMiB() {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    return Number.isFinite(kb) ? round(kb / 1024, 0) : null;
  } catch {
    return null;
  }
}
function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** process.memoryUsage() every 250 ms: the maxima, and the samples' count. */
function memorySampler() {
  const peak = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
  let samples = 0;
  const sample = () => {
    const m = process.memoryUsage();
    for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], m[key]);
    samples++;
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return { samples, ...Object.fromEntries(Object.entries(peak).map(([k, v]) => [`${k}_mb`, Math.round(v / MiB)])) };
    },
  };
}

function coresMeter() {
  const startTicks = machineTicks();
  const startCpu = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(startCpu);
    const end = machineTicks();
    const machineBusy = startTicks && end ? ((end.busy - startTicks.busy) / (end.total - startTicks.total)) * cpus().length : null;
    const benchCores = (cpu.user + cpu.system) / 1e6 / seconds;
    return { bench_cores: round(benchCores), machine_cores_busy: round(machineBusy), other_cores: machineBusy === null ? null : round(machineBusy - benchCores) };
  };
}

async function runningPhase(app, instanceId) {
  const steps = app.get(GetInstanceStep);
  const run = app.get(RunInstanceStep);
  for (let i = 0; i < 20; i++) {
    const step = await steps.execute(instanceId);
    if (step === 'RUNNING_PHASE') return;
    // The duplicates context does this step's work (its job) and completes it; no job runs in this process.
    if (step === 'ON_DUPLICATE_IDENTIFICATION') {
      await app.get(IdentifyDuplicates).execute({ instanceId }, async () => undefined);
      continue;
    }
    const outcome = await run.execute({ instanceId, step });
    if (outcome === 'waiting') await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`instance ${instanceId} did not reach RUNNING_PHASE (${await steps.execute(instanceId)})`);
}

/** The full scan, one worker, as the jobs would run it; the extraction stops early when it would exceed maxExtractSeconds. */
async function fullScan(app, instanceId, label) {
  const source = app.get(ScanSource);
  const claims = app.get(ClaimStore);
  const conflicts = app.get(FullAuditConflictRepository);
  const timers = {};
  let passages = 0;
  let claimCount = 0;
  const restore = [
    timeMethod(source, 'read', timers, 'read_passages_ms', (docs) => {
      passages += docs.reduce((n, d) => n + d.passages.length, 0);
    }),
    timeMethod(claims, 'contentHashes', timers, 'content_hashes_ms'),
    timeMethod(claims, 'save', timers, 'save_claims_ms', (_, [, documents]) => {
      claimCount += documents.reduce((n, d) => n + d.claims.length, 0);
    }),
    timeMethod(claims, 'all', timers, 'load_claims_ms'),
    timeMethod(conflicts, 'inScope', timers, 'load_conflicts_ms'),
    timeMethod(conflicts, 'insertIfNew', timers, 'insert_conflicts_ms'),
    timeMethod(conflicts, 'update', timers, 'update_conflicts_ms'),
    timeMethod(source, 'names', timers, 'names_ms'),
  ];
  const peakReset = resetPeakRss();
  const memory = memorySampler();
  const cores = coresMeter();
  const rssBefore = Math.round(process.memoryUsage().rss / MiB);
  try {
    const t0 = performance.now();
    const started = await app.get(StartFullAuditScan).execute({ instanceId, reason: 'demand' });
    const match = /^started (\S+) (\d+) (\d+)$/.exec(started);
    if (!match) throw new Error(`StartFullAuditScan: ${started}`);
    const [, scanId, total, chunkCount] = match;
    const chunkSize = app.get(FullAuditSettings).chunkDocuments;
    // The order StartFullAuditScan cut the chunks in (the same read of liveIds).
    const ids = await app.get(ReadDocumentPassages).liveIds(instanceId);
    if (ids.length !== Number(total)) throw new Error(`liveIds gave ${ids.length} documents, the scan ${total}`);
    const startMs = performance.now() - t0;
    const extract = app.get(ExtractClaims);
    const bar = progressBar(`${label} extract`, ids.length);
    const t1 = performance.now();
    let extracted = 0;
    let stopped = null;
    for (let chunk = 0; chunk * chunkSize < ids.length; chunk++) {
      const documentIds = ids.slice(chunk * chunkSize, (chunk + 1) * chunkSize);
      await extract.execute({ instanceId, scan: { id: scanId, chunk }, documentIds });
      extracted += documentIds.length;
      bar.tick(documentIds.length);
      const elapsed = (performance.now() - t1) / 1000;
      if (extracted >= 500 && elapsed > 30 && (elapsed / extracted) * ids.length > settings.maxExtractSeconds) {
        stopped = `extraction stopped after ${extracted} of ${ids.length} documents: projected ${Math.round((elapsed / extracted) * ids.length)} s > BENCH_MAX_EXTRACT_S ${settings.maxExtractSeconds}`;
        break;
      }
    }
    bar.end();
    const extractMs = performance.now() - t1;
    const extractCores = cores();
    const extractMemory = { ...memory.stop(), peak_rss_vmhwm_mb: peakRssMiB() };
    const extraction = {
      documents: extracted,
      chunks: Number(chunkCount),
      chunk_documents: chunkSize,
      passages,
      claims: claimCount,
      seconds: round(extractMs / 1000, 1),
      documents_per_s: round(extracted / (extractMs / 1000), 1),
      claims_per_s: round(claimCount / (extractMs / 1000), 0),
      read_passages_s: round(timers.read_passages_ms / 1000, 1),
      content_hashes_s: round(timers.content_hashes_ms / 1000, 1),
      save_claims_s: round(timers.save_claims_ms / 1000, 1),
      claims_cpu_and_rest_s: round((extractMs - timers.read_passages_ms - timers.content_hashes_ms - timers.save_claims_ms) / 1000, 1),
      cores: extractCores,
      memory: extractMemory,
    };
    if (stopped) {
      process.stderr.write(`${label} ${stopped}\n`);
      return { scan_id: scanId, documents: Number(total), stopped, start_s: round(startMs / 1000, 2), extraction, judge: null, total_s: null, memory: { ...extractMemory, rss_before_mb: rssBefore, peak_reset: peakReset } };
    }
    const judgeMemory = memorySampler();
    const judgeCores = coresMeter();
    process.stderr.write(`${label} judge...\n`);
    const t2 = performance.now();
    const outcome = await app.get(JudgeFullAudit).execute({ instanceId });
    const judgeMs = performance.now() - t2;
    const totalMs = performance.now() - t0;
    const scan = await app.get(ScanStore).lastCompleted(instanceId);
    if (!scan || scan.id !== scanId) throw new Error(`the scan did not complete: ${outcome}`);
    const judgeWrites = timers.insert_conflicts_ms + timers.update_conflicts_ms;
    const judge = {
      outcome,
      seconds: round(judgeMs / 1000, 1),
      load_claims_s: round(timers.load_claims_ms / 1000, 1),
      load_conflicts_s: round(timers.load_conflicts_ms / 1000, 2),
      names_s: round(timers.names_ms / 1000, 2),
      conflict_writes_s: round(judgeWrites / 1000, 1),
      judgement_and_rest_s: round((judgeMs - timers.load_claims_ms - timers.load_conflicts_ms - timers.names_ms - judgeWrites) / 1000, 1),
      cores: judgeCores(),
      memory: judgeMemory.stop(),
    };
    return {
      scan_id: scanId,
      documents: Number(total),
      findings: scan.findings,
      start_s: round(startMs / 1000, 2),
      extraction,
      judge,
      total_s: round(totalMs / 1000, 1),
      memory: { rss_before_mb: rssBefore, peak_rss_vmhwm_mb: peakRssMiB(), peak_reset: peakReset, sampled_peak_rss_mb: Math.max(extractMemory.rss_mb, judge.memory.rss_mb), sampled_peak_heap_used_mb: Math.max(extractMemory.heapUsed_mb, judge.memory.heapUsed_mb) },
    };
  } finally {
    for (const r of restore) r();
  }
}

/** Which planted pairs the stored conflicts hold (both documents of the pair in one conflict), and the conflicts by attribute. */
async function recall(app, instanceId, pairs, ids) {
  const all = await app.get(FullAuditConflictRepository).inScope(instanceId, null);
  const found = pairs.filter((p) => {
    const [a, b] = p.documents.map((d) => ids.get(d.externalId));
    return all.some((c) => c.documentIds.includes(a) && c.documentIds.includes(b));
  });
  const byAttribute = {};
  const byState = {};
  for (const c of all) {
    byAttribute[c.attribute] = (byAttribute[c.attribute] ?? 0) + 1;
    byState[c.state] = (byState[c.state] ?? 0) + 1;
  }
  const plantedIds = new Set(pairs.flatMap((p) => p.documents.map((d) => ids.get(d.externalId))));
  const touchingPlanted = all.filter((c) => c.documentIds.some((d) => plantedIds.has(d))).length;
  return {
    conflicts: all.length,
    planted_found: found.length,
    planted: pairs.length,
    missed: pairs.filter((p) => !found.includes(p)).map((p) => p.subject),
    conflicts_touching_planted_documents: touchingPlanted,
    by_state: byState,
    by_attribute: Object.fromEntries(Object.entries(byAttribute).sort((a, b) => b[1] - a[1]).slice(0, 12)),
    example_findings: all.slice(0, 5).map((c) => ({ attribute: c.attribute, subject: c.subject, values: c.excerpts.map((e) => e.value), texts: c.excerpts.map((e) => e.text.slice(0, 160)) })),
  };
}

/** One planted document changed per round (its figure), re-ingested and indexed; then the rescan and the judge, timed. */
async function incremental(app, instanceId, pairs, ids, label) {
  const ingest = app.get(IngestDocument);
  const index = app.get(IndexDocument);
  const rescan = app.get(RescanChangedDocument);
  const judge = app.get(JudgeFullAudit);
  const rounds = [];
  const bar = progressBar(`${label} incremental`, settings.incrementalRounds);
  for (let r = 0; r < settings.incrementalRounds; r++) {
    const pair = pairs[r % pairs.length];
    const doc = pair.documents[0];
    // The same document with another sentence: the figure moves further from its pair's.
    const content = doc.content.replace(`within ${pair.figures[0]} days`, `within ${pair.figures[0] + 20 + r} days`);
    const t0 = performance.now();
    const ingested = await ingest.execute(instanceId, { externalId: doc.externalId, name: doc.name, url: null, owner: null, mediaType: 'text/markdown', content: Buffer.from(content, 'utf8') });
    const indexed = await index.execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, STUB_ATTEMPT);
    if (indexed !== 'indexed') throw new Error(`${doc.externalId} was not re-indexed (${indexed})`);
    const t1 = performance.now();
    const rescanOutcome = await rescan.execute({ instanceId, documentId: ids.get(doc.externalId), change: 'indexed' });
    const t2 = performance.now();
    const judgeOutcome = await judge.execute({ instanceId });
    const t3 = performance.now();
    rounds.push({ reindex_ms: round(t1 - t0), rescan_ms: round(t2 - t1), judge_ms: round(t3 - t2), total_ms: round(t3 - t1), rescan_outcome: rescanOutcome, judge_outcome: judgeOutcome });
    bar.tick();
  }
  bar.end();
  const summary = (key) => latencySummary(rounds.map((x) => x[key]));
  return { rounds: rounds.length, reindex_ms: summary('reindex_ms'), rescan_ms: summary('rescan_ms'), judge_ms: summary('judge_ms'), total_ms: summary('total_ms'), detail: rounds };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** VmRSS and VmHWM (peak) of a process, MiB. */
function processMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
    return { rss_mb: round(kb('VmRSS') / 1024, 0), peak_rss_mb: round(kb('VmHWM') / 1024, 0) };
  } catch {
    return { rss_mb: null, peak_rss_mb: null };
  }
}

/**
 * A full rescan run by `count` worker processes (`node dist/apps/workers/src/main.js`, distributed mode:
 * the bench database, Redis, a queue prefix of their own). Every document's claims are removed first
 * (through the ClaimStore port) so the scan reads them all again; the stored conflicts stay, so the
 * judge refreshes them. The `full-audit.scan` job is queued by a second application context that uses
 * the same prefix; timed from the enqueue to the scan row COMPLETED.
 */
async function workerProcessScan(app, testDb, instanceId, count, label) {
  const ids = await app.get(ReadDocumentPassages).liveIds(instanceId);
  await app.get(UnitOfWork).run(() => app.get(ClaimStore).remove(instanceId, ids));
  // The jobs queued so far (document changes of the ingestion, the in-process scan's chunks) would be
  // relayed to the workers and run first: only the scan job queued below must run.
  const pg = new Client({ connectionString: testDb.env.DATABASE_URL });
  await pg.connect();
  const dropped = (await pg.query(`DELETE FROM jobs.jobs WHERE state IN ('queued', 'running')`)).rowCount;
  await pg.end();
  const prefix = `fab${randomBytes(4).toString('hex')}`;
  const baseEnv = { ...testDb.env, ...scanEnv, REDIS_URL: TEST_REDIS_URL, JOBS_QUEUE_PREFIX: prefix, FULL_AUDIT_RESCAN_HOURS: '0' };
  const workers = [];
  let output = '';
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '', ...baseEnv, HOST: '127.0.0.1', WORKERS_HEALTH_PORT: String(port), LOG_LEVEL: 'warn', DEMO_DATA: 'false' };
    const child = spawn(process.execPath, [distFile('apps', 'workers', 'src', 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (output = (output + d.toString()).slice(-20000)));
    child.stderr.on('data', (d) => (output = (output + d.toString()).slice(-20000)));
    workers.push({ child, url: `http://127.0.0.1:${port}` });
  }
  let enqueuer;
  try {
    const deadline = Date.now() + 90000;
    for (const w of workers) {
      for (;;) {
        if (w.child.exitCode !== null) throw new Error(`a worker exited with ${w.child.exitCode}:\n${output}`);
        const ready = await globalThis.fetch(`${w.url}/health/ready`).then((r) => r.status === 200, () => false);
        if (ready) break;
        if (Date.now() > deadline) throw new Error(`worker ${w.url} not ready in 90 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const { module, config } = benchModule(baseEnv);
    const jobsConcurrency = config.JOBS_CONCURRENCY;
    enqueuer = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
    const scans = app.get(ScanStore);
    const before = await scans.lastCompleted(instanceId);
    const cpuBefore = workers.map((w) => processCpuSeconds(w.child.pid));
    const cores = coresMeter();
    const t0 = performance.now();
    await enqueuer.get(UnitOfWork).run(() => enqueuer.get(JobQueue).enqueue('full-audit.scan', { instanceId, reason: 'demand' }));
    const bar = progressBar(`${label} ${count} worker process(es)`, ids.length);
    let completed = null;
    let peakRss = 0;
    let shown = 0;
    while (!completed) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      for (const w of workers) {
        if (w.child.exitCode !== null) throw new Error(`a worker exited with ${w.child.exitCode} during the scan:\n${output}`);
      }
      peakRss = Math.max(peakRss, workers.reduce((n, w) => n + (processMemory(w.child.pid).rss_mb ?? 0), 0));
      const last = await scans.lastCompleted(instanceId);
      if (last && last.id !== before?.id) completed = last;
      const running = completed ? null : await scans.running(instanceId);
      if (running) {
        const read = Math.min(ids.length, (await scans.chunksDone(running.id)) * app.get(FullAuditSettings).chunkDocuments);
        bar.tick(read - shown);
        shown = read;
      }
      if ((performance.now() - t0) / 1000 > settings.maxExtractSeconds * 2) throw new Error(`the scan did not complete in ${settings.maxExtractSeconds * 2} s`);
    }
    const seconds = (performance.now() - t0) / 1000;
    bar.end();
    return {
      worker_processes: count,
      jobs_concurrency: jobsConcurrency,
      documents: completed.total,
      chunks: completed.chunks,
      queued_jobs_dropped_before: dropped,
      findings: completed.findings,
      seconds: round(seconds, 1),
      documents_per_s: round(completed.total / seconds, 1),
      workers: workers.map((w, i) => ({ ...processMemory(w.child.pid), cpu_s: round(processCpuSeconds(w.child.pid) - cpuBefore[i], 1) })),
      sampled_peak_rss_sum_mb: peakRss,
      cores: cores(),
    };
  } finally {
    await enqueuer?.close().catch(() => undefined);
    await Promise.all(
      workers.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}

async function benchRun(db, size) {
  const label = `[${db} ${size}]`;
  process.stderr.write(`${label} fresh ${db === 'embedded' ? 'PGlite DATA_DIR' : 'PostgreSQL database on 127.0.0.1:5432'}...\n`);
  const testDb = await createTestDatabase(db);
  let app;
  try {
    const { config, module } = benchModule({ ...testDb.env, ...scanEnv });
    app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
    const installed = await app.get(BootstrapInstallation).execute({ organizationName: 'Bench', adminEmail: 'admin@bench.example', adminApiKey: undefined, adminPassword: undefined });
    const principal = { organizationId: installed.organizationId, userId: installed.adminUserId, roles: ['ADMIN'], credential: { kind: 'org_api_key', id: 'bench' } };
    const instanceId = (await app.get(CreateAuditInstance).execute(principal, { name: 'Bench repository' })).instance_id;

    // Same seed for every run: the same documents in the same order.
    const corpus = new Corpus(settings.seed, 'topical');
    const pairs = plantedPairs(corpus, settings.plantedPairs);
    // Planted documents spread over the repository (not all in the first chunks).
    const docs = [];
    const planted = pairs.flatMap((p) => p.documents);
    const every = Math.floor(size / planted.length);
    for (let i = 0; docs.length < size; i++) {
      if (i % every === 0 && planted.length > 0) docs.push(planted.shift());
      else {
        const doc = generatedDocument(corpus, settings.bodiesPerDocument);
        docs.push({ externalId: `bench-${i}`, name: `${doc.title}.md`, content: doc.content });
      }
    }
    docs.push(...planted);
    const ingestCores = coresMeter();
    const { seconds, ids } = await ingestAll(app, instanceId, docs, `${label} ingest+index`);
    const ingestion = { documents: docs.length, seconds: round(seconds, 1), documents_per_s: round(docs.length / seconds, 1), cores: ingestCores() };
    await runningPhase(app, instanceId);

    const scan = await fullScan(app, instanceId, label);
    const found = scan.judge ? await recall(app, instanceId, pairs, ids) : null;
    const incr = scan.judge && settings.incrementalRounds > 0 ? await incremental(app, instanceId, pairs, ids, label) : null;
    const processes = [];
    if (db === 'postgres' && scan.judge) for (const count of settings.workerProcesses) processes.push(await workerProcessScan(app, testDb, instanceId, count, label));
    return { database: db, size, chunk_documents: config.FULL_AUDIT_CHUNK_DOCUMENTS, vector_band: config.FULL_AUDIT_VECTOR_BAND, ingestion, scan, recall: found, incremental: incr, worker_processes: processes };
  } finally {
    await app?.close().catch((e) => process.stderr.write(`${label} close failed: ${e}\n`));
    await testDb.drop().catch((e) => process.stderr.write(`${label} drop failed: ${e}\n`));
  }
}

function tables(results) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = ['### Full scan, one worker (in-process), and incremental rescan of one changed document', ''];
  lines.push('| Database | Documents | Nodes | Extraction s | Judge s | Total s | Peak RSS MiB | Peak heap MiB | Claims | Findings | Planted found | Incremental p50 / max s (rescan + judge) |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    const s = r.scan;
    const inc = r.incremental;
    lines.push(
      `| ${r.database} | ${r.size} | ${s.extraction.passages} | ${f(s.extraction.seconds)}${s.stopped ? ` (stopped at ${s.extraction.documents})` : ''} | ${s.judge ? f(s.judge.seconds) : '–'} | ${f(s.total_s)} | ${f(s.memory.peak_rss_vmhwm_mb ?? s.memory.sampled_peak_rss_mb, 0)} | ${f(s.memory.sampled_peak_heap_used_mb ?? s.extraction.memory.heapUsed_mb, 0)} | ${s.extraction.claims} | ${s.findings ?? '–'} | ${r.recall ? `${r.recall.planted_found}/${r.recall.planted}` : '–'} | ${inc ? `${f(inc.total_ms.p50 / 1000, 2)} / ${f(inc.total_ms.max / 1000, 2)}` : '–'} |`,
    );
  }
  lines.push('', '### Where the time goes', '');
  lines.push('| Database | Documents | docs/s | claims/s | read passages s | claims CPU s | save claims s | judge: load claims s | judge: judgement s | judge: writes s | incremental rescan p50 / judge p50 ms | ingest+index docs/s |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of results) {
    const e = r.scan.extraction;
    const j = r.scan.judge;
    const inc = r.incremental;
    lines.push(
      `| ${r.database} | ${r.size} | ${f(e.documents_per_s)} | ${f(e.claims_per_s, 0)} | ${f(e.read_passages_s)} | ${f(e.claims_cpu_and_rest_s)} | ${f(e.save_claims_s)} | ${j ? f(j.load_claims_s) : '–'} | ${j ? f(j.judgement_and_rest_s) : '–'} | ${j ? f(j.conflict_writes_s) : '–'} | ${inc ? `${f(inc.rescan_ms.p50, 0)} / ${f(inc.judge_ms.p50, 0)}` : '–'} | ${f(r.ingestion.documents_per_s)} |`,
    );
  }
  const processRuns = results.flatMap((r) => (r.worker_processes ?? []).map((p) => ({ ...p, size: r.size, database: r.database })));
  if (processRuns.length > 0) {
    lines.push('', '### Full rescan by worker processes (distributed mode, every claim removed first)', '');
    lines.push('| Database | Documents | Worker processes | Scan s (enqueue to COMPLETED) | docs/s | Findings | Peak RSS per worker MiB | Worker CPU s |');
    lines.push('|---|---:|---:|---:|---:|---:|---|---|');
    for (const p of processRuns) lines.push(`| ${p.database} | ${p.size} | ${p.worker_processes} | ${f(p.seconds)} | ${f(p.documents_per_s)} | ${p.findings} | ${p.workers.map((w) => w.peak_rss_mb).join(' / ')} | ${p.workers.map((w) => w.cpu_s).join(' / ')} |`);
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  const before = machineTicks();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = machineTicks();
  const busyBefore = before && after ? round(((after.busy - before.busy) / (after.total - before.total)) * cpus().length) : null;
  process.stderr.write(`bench: databases=${settings.databases.join(',')} sizes=${settings.sizes.join(',')} planted pairs=${settings.plantedPairs} cpus=${cpus().length} cores busy before=${busyBefore}\n`);
  const results = [];
  const t0 = performance.now();
  const report = () => ({
    benchmark: 'full-audit',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    total_s: round((performance.now() - t0) / 1000, 1),
    // BENCH_GIT_COMMIT: when run from an exported tree (git archive) of a commit, which has no .git.
    git_commit: gitCommit() ?? process.env.BENCH_GIT_COMMIT ?? null,
    settings: {
      ...settings,
      method:
        'in-process Nest application context (the workers app modules, no HTTP, no job workers); one worker: StartFullAuditScan, then ExtractClaims per chunk of FULL_AUDIT_CHUNK_DOCUMENTS document ids of ReadDocumentPassages.liveIds (the scan id and chunk numbers of the queued jobs), then JudgeFullAudit; a fresh database per size',
    },
    machine: machineInfo(busyBefore),
    results,
  });
  let file = null;
  for (const size of settings.sizes) {
    for (const db of settings.databases) {
      results.push(await benchRun(db, size));
      // Written after every run, so a long run that is stopped keeps what it measured.
      file = writeResults('full-audit', startedAt, report());
    }
  }
  console.log('');
  console.log(`## full-audit benchmark (sizes ${settings.sizes.join(', ')}, ${cpus().length} CPUs, node ${process.version}, ${round((performance.now() - t0) / 1000, 1)} s)`);
  console.log('');
  console.log(tables(results));
  for (const r of results) {
    const c = r.scan.extraction.cores;
    if (c.other_cores !== null && c.other_cores > 0.25) console.log(`\nWarning: ${r.database} ${r.size}: other work used ${c.other_cores} cores during the extraction (shared machine).`);
  }
  console.log('');
  console.log(`Results: ${relative(ROOT, file)}`);
  endRunSoon();
}

await main();
