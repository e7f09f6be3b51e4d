// Requests while background work runs (issue 28 item 5): the BUILT service in each runtime mode, 1,000 generated
// documents ingested through the instance API, then full scans started through the audit API; meanwhile a steady
// stream of `get-instance` reads and `/health/ready` probes, their latency and statuses, and the service's memory
// before, at the peak of and after each scan.
//
//   npm run bench:scan-load
//   BENCH_MODES=embedded BENCH_DOCUMENTS=300 node tools/bench/src/scan-load.bench.mjs
//
// For each mode (embedded = standalone process on PGlite; distributed = four app processes on PostgreSQL
// 127.0.0.1:5432 + Redis 127.0.0.1:6379), on a fresh database, started as tools/test-kit's startService does:
//   1. an admin key (BOOTSTRAP_ADMIN_API_KEY), one audit instance, its first (empty) full scan;
//   2. ingestion: BENCH_DOCUMENTS Markdown documents of the benchmarks' topical corpus (about 10 semantic nodes each,
//      BENCH_PLANTED_PAIRS pairs of them stating two figures for one review) upserted through `/api/documents/upsert`
//      by BENCH_UPLOADERS connections. Once a backlog awaits indexation, the instance's steps start again
//      (`/audit/instance/update-instance-step` to INIT): its indexation check waits while documents are pending, so
//      the documents are not rescanned one by one and the first full scan reads them all (as for an instance created
//      with its documents). Measured until every document is indexed and the first full scan has started;
//   3. the first full scan: claims read from every document, the repository judged. Measured until it completes;
//   4. BENCH_SCANS rescans: update-instance-step to INIT again, so the workers walk the steps (indexation check,
//      duplicate identification of the whole repository, RUNNING_PHASE: measured as "steps n", until the scan
//      starts), then the full scan reads every document (unchanged ones keep their claims: what the daily rescan
//      does) and judges the repository ("rescan n", until it completes).
// During each measured phase, an open-loop probe: `get-instance` (raw key) BENCH_RATE times a second whatever the
// answers (latency as a user sees it, not the saturated throughput of the instance-get bench), `/health/ready` of
// every app every BENCH_READY_EVERY_MS; the resident memory (VmRSS) of each app process every 250 ms, and once the
// service is idle again plus BENCH_SETTLE_S (what it gives back once the work is done: threads ended, garbage collected).
// Prints Markdown tables and writes JSON to tools/bench/results/scan-load-<timestamp>.json.
import { Buffer } from 'node:buffer';
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { envNumber, gitCommit, latencySummary, machineInfo, progressBar, requireBuilt, ROOT, round, startBenchService, stopOnSignal, writeResults } from './bench-kit.mjs';
import { Corpus, mulberry32 } from './corpus.mjs';
import { call, cpuBetween, sampleCpu, send, serviceRss, totalMb } from './load-kit.mjs';

const envInteger = (name, fallback, options = {}) => envNumber(name, fallback, { integer: true, ...options });

const settings = {
  modes: (process.env.BENCH_MODES ?? 'embedded,distributed').split(',').map((m) => m.trim()).filter(Boolean),
  documents: envInteger('BENCH_DOCUMENTS', 1000, { min: 10, max: 100000 }),
  plantedPairs: envInteger('BENCH_PLANTED_PAIRS', 20, { min: 0 }),
  /** Connections upserting documents at once. */
  uploaders: envInteger('BENCH_UPLOADERS', 4, { min: 1, max: 64 }),
  /** Rescans after the first full scan. */
  scans: envInteger('BENCH_SCANS', 2, { min: 0, max: 10 }),
  /** get-instance requests per second, sent on schedule whatever the answers (open loop). */
  rate: envNumber('BENCH_RATE', 20, { min: 1, max: 1000 }),
  /** Every app's /health/ready, every this many ms. */
  readyEveryMs: envInteger('BENCH_READY_EVERY_MS', 500, { min: 50 }),
  /** A request slower than this is abandoned and counted as an error. */
  requestTimeoutMs: envInteger('BENCH_REQUEST_TIMEOUT_MS', 30000, { min: 100 }),
  /** The service counts as idle once its processes used less than BENCH_IDLE_CORES for BENCH_IDLE_S in a row. */
  idleCores: envNumber('BENCH_IDLE_CORES', 0.05, { min: 0.001, max: 2 }),
  idleS: envNumber('BENCH_IDLE_S', 5, { min: 1, max: 120 }),
  /** Once idle, the memory after a phase is read this many seconds later (what the service gives back once its work is done). */
  settleS: envNumber('BENCH_SETTLE_S', 20, { min: 0, max: 600 }),
  /** Give up on a phase after this many seconds. */
  phaseTimeoutS: envInteger('BENCH_PHASE_TIMEOUT_S', 1800, { min: 10 }),
  seed: envInteger('BENCH_SEED', 42),
  /** More environment for the service (JSON object), e.g. '{"FULL_AUDIT_CHUNK_DOCUMENTS":"5"}' to try a setting. */
  serviceEnv: JSON.parse(process.env.BENCH_SERVICE_ENV || '{}'),
};
for (const mode of settings.modes) {
  if (mode !== 'embedded' && mode !== 'distributed') throw new Error(`BENCH_MODES: unknown mode "${mode}" (embedded, distributed)`);
}
if (settings.documents < settings.plantedPairs * 2) throw new Error(`BENCH_DOCUMENTS must hold the ${settings.plantedPairs * 2} planted documents`);

requireBuilt('run `npm run build` first (or use `npm run bench:scan-load`, which builds)');

/** The goals of issue 28 item 5. */
const GOALS = { p99_ms: { embedded: 100, distributed: 50 }, ready_503: 0, rss_back_within: 0.1 };

// ---------------------------------------------------------------------------------------------
// The corpus: generated Markdown documents, some pairs stating two figures for one review
// ---------------------------------------------------------------------------------------------

/** A document of two generated bodies (about 10 semantic nodes), `extra` inserted after the first one's intro. */
function generatedDocument(corpus, extra = null) {
  const first = corpus.markdown();
  const second = corpus.markdown().content.split('\n').map((line) => (line.startsWith('# ') ? `## ${line.slice(2)}` : line)).join('\n');
  const parts = [first.content.trimEnd(), second.trimEnd()];
  if (extra) parts.splice(1, 0, extra);
  return { title: first.title, content: `${parts.join('\n\n')}\n` };
}

function corpusDocuments() {
  const corpus = new Corpus(settings.seed, 'topical');
  const random = mulberry32(settings.seed + 7);
  const planted = [];
  for (let k = 0; k < settings.plantedPairs; k++) {
    corpus.startDocument();
    const subject = `${corpus.topics[corpus.topic][k % 20]} ${corpus.vocabulary[500 + k]}`;
    const days = 5 + Math.floor(random() * 40);
    for (const [j, figure] of [days, days + 7].entries()) {
      const section = `## ${subject[0].toUpperCase()}${subject.slice(1)} review\n\n${corpus.paragraph(40).text} The ${subject} review is completed within ${figure} days. ${corpus.paragraph(40).text}`;
      const doc = generatedDocument(corpus, section);
      planted.push({ external_id: `planted-${k}-${j}.md`, name: `${doc.title} ${k}-${j}.md`, content_text: doc.content });
    }
  }
  const docs = [];
  const every = Math.max(1, Math.floor(settings.documents / Math.max(1, planted.length)));
  for (let i = 0; docs.length < settings.documents - planted.length; i++) {
    if (i % every === 0 && planted.length > 0) docs.push(planted.shift());
    const doc = generatedDocument(corpus);
    docs.push({ external_id: `doc-${i}.md`, name: `${doc.title} ${i}.md`, content_text: doc.content });
  }
  return [...docs, ...planted].slice(0, settings.documents);
}

// ---------------------------------------------------------------------------------------------
// Memory and CPU of the service's processes (Linux /proc)
// ---------------------------------------------------------------------------------------------

/** VmRSS of every app every 250 ms: the peak of their sum and of each. */
function rssSampler(service) {
  const peak = { total_mb: 0, by_app: {} };
  const sample = () => {
    const now = serviceRss(service);
    peak.total_mb = Math.max(peak.total_mb, totalMb(now));
    for (const [app, mb] of Object.entries(now)) peak.by_app[app] = Math.max(peak.by_app[app] ?? 0, mb ?? 0);
  };
  sample();
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

/** Waits until the service's processes use less than BENCH_IDLE_CORES for BENCH_IDLE_S in a row (background work done); seconds waited. */
async function untilIdle(service, label) {
  const t0 = performance.now();
  let quietSince = null;
  let before = sampleCpu(service);
  for (;;) {
    await sleep(1000);
    const after = sampleCpu(service);
    const used = Object.values(cpuBetween(before, after).service_cores).reduce((a, b) => a + (b ?? 0), 0);
    before = after;
    if (used < settings.idleCores) quietSince ??= performance.now() - 1000;
    else quietSince = null;
    if (quietSince !== null && performance.now() - quietSince >= settings.idleS * 1000) return round((quietSince - t0) / 1000, 1);
    if ((performance.now() - t0) / 1000 > settings.phaseTimeoutS) throw new Error(`${label}: still busy (${round(used)} cores) after ${settings.phaseTimeoutS} s`);
  }
}

// ---------------------------------------------------------------------------------------------
// The probe: get-instance on schedule (open loop), every app's readiness
// ---------------------------------------------------------------------------------------------

/** Starts the probe; `stop()` waits for the requests in flight and summarises them. */
function startProbe(service, instanceId, adminKey) {
  // A timeout lets the agent honour the server's Keep-Alive hint: an idle socket is dropped a second before the
  // server would close it, instead of being reused as it closes (ECONNRESET, a client artefact).
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: settings.requestTimeoutMs });
  const url = new URL(`${service.urls.audit}/audit/instance/get-instance`);
  const payload = Buffer.from(JSON.stringify({ instance_id: instanceId }));
  const latencies = [];
  /** Per second of the phase: the slowest get-instance answered in it. */
  const worstPerSecond = [];
  const statuses = {};
  const transportErrors = {};
  const ready = Object.fromEntries(Object.keys(service.urls).map((app) => [app, {}]));
  const readyBodies = {};
  const inFlight = new Set();
  const t0 = performance.now();
  let sent = 0;
  let stopped = false;
  const track = (promise) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const fire = () => {
    const started = performance.now();
    track(
      send(agent, url, 'POST', payload, adminKey, settings.requestTimeoutMs, false).then(
        (res) => {
          const ms = performance.now() - started;
          latencies.push(ms);
          const second = Math.floor((performance.now() - t0) / 1000);
          worstPerSecond[second] = Math.max(worstPerSecond[second] ?? 0, ms);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        },
        (error) => {
          const key = error?.code ?? error?.message ?? String(error);
          transportErrors[key] = (transportErrors[key] ?? 0) + 1;
        },
      ),
    );
  };
  // Open loop: request n leaves at t0 + n / rate, whether or not the ones before it were answered.
  const schedule = async () => {
    while (!stopped) {
      fire();
      sent++;
      const wait = t0 + (sent * 1000) / settings.rate - performance.now();
      if (wait > 0) await sleep(wait);
    }
  };
  const probeReady = async () => {
    while (!stopped) {
      for (const [app, base] of Object.entries(service.urls)) {
        track(
          call('GET', `${base}/health/ready`).then(
            (res) => {
              ready[app][res.status] = (ready[app][res.status] ?? 0) + 1;
              if (res.status !== 200) readyBodies[`${app} ${res.status} ${JSON.stringify(res.body)}`.slice(0, 300)] = (readyBodies[`${app} ${res.status} ${JSON.stringify(res.body)}`.slice(0, 300)] ?? 0) + 1;
            },
            (error) => (ready[app][error?.code ?? 'error'] = (ready[app][error?.code ?? 'error'] ?? 0) + 1),
          ),
        );
      }
      await sleep(settings.readyEveryMs);
    }
  };
  const loops = [schedule(), probeReady()];
  return async () => {
    stopped = true;
    await Promise.all(loops);
    await Promise.all([...inFlight]);
    agent.destroy();
    const non2xx = Object.entries(statuses).filter(([s]) => Number(s) < 200 || Number(s) >= 300).reduce((n, [, c]) => n + c, 0);
    const failed = Object.values(transportErrors).reduce((a, b) => a + b, 0);
    return {
      requests: sent,
      latency_ms: latencySummary(latencies),
      errors: non2xx + failed,
      statuses,
      transport_error_kinds: transportErrors,
      worst_ms_per_second: worstPerSecond.map((v) => round(v ?? 0, 0)),
      ready_statuses: ready,
      ready_not_200: readyBodies,
    };
  };
}

// ---------------------------------------------------------------------------------------------
// One mode
// ---------------------------------------------------------------------------------------------

async function benchMode(mode, registerCleanup) {
  const { service, adminKey, audit, expectOk, instanceId, instanceKey } = await startBenchService(
    mode,
    {
      // No settle judgement queued a minute after the ingestion: it would land in a measured phase.
      FULL_AUDIT_SETTLE_SECONDS: '0',
      ...settings.serviceEnv,
    },
    'Scan load',
    registerCleanup,
  );
  const panel = async () => expectOk(await audit('/audit/full-audit/have-to-show', { instance_id: instanceId }), 'have-to-show');
  for (let t = 0; !(await panel()).show; t++) {
    if (t > 600) throw new Error(`[${mode}] the first (empty) full scan did not complete`);
    await sleep(100);
  }
  await untilIdle(service, `[${mode}] start`);
  const rssIdle = serviceRss(service);
  process.stderr.write(`[${mode}] idle at ${totalMb(rssIdle)} MB resident (${JSON.stringify(rssIdle)})\n`);

  const phases = [];
  /**
   * Runs `work` under the probe and the memory sampler; then, unless `idle` is false (the next phase follows on),
   * waits for the service to be idle again and BENCH_SETTLE_S more before reading its memory "after".
   */
  const measure = async (name, work, { idle = true } = {}) => {
    const rssBefore = serviceRss(service);
    const cpuBefore = sampleCpu(service);
    const stopRss = rssSampler(service);
    const stopProbe = startProbe(service, instanceId, adminKey);
    const t0 = performance.now();
    const detail = await work();
    const workS = (performance.now() - t0) / 1000;
    const probe = await stopProbe();
    const cpu = cpuBetween(cpuBefore, sampleCpu(service));
    const idleAfterS = idle ? await untilIdle(service, `[${mode}] ${name}`) : null;
    const rssIdle = serviceRss(service);
    if (idle) await sleep(settings.settleS * 1000);
    const peak = stopRss();
    const rssAfter = serviceRss(service);
    const rss = { before: rssBefore, before_total: totalMb(rssBefore), peak, when_idle: rssIdle, when_idle_total: totalMb(rssIdle), after: rssAfter, after_total: totalMb(rssAfter) };
    const phase = { mode, phase: name, seconds: round(workS, 1), ...detail, probe, cpu, rss_mb: rss, idle_after_s: idleAfterS, settled: idle };
    phases.push(phase);
    const l = probe.latency_ms;
    process.stderr.write(`[${mode}] ${name}: ${round(workS, 1)} s, get-instance p50 ${l.p50} p99 ${l.p99} max ${l.max} ms, ${probe.errors} errors, ready ${JSON.stringify(probe.ready_statuses)}, RSS ${phase.rss_mb.before_total} -> peak ${peak.total_mb} -> ${phase.rss_mb.after_total} MB\n`);
    return phase;
  };

  /** Follows the full scan started after `before` (have-to-show's scan then) until `until` says so; the scan last seen. */
  const followScan = async (label, before, until) => {
    const bar = progressBar(label, documents.length);
    let shown = 0;
    const t0 = performance.now();
    for (;;) {
      const p = await panel();
      const current = p.scan && p.scan.started_at !== before?.started_at ? p.scan : null;
      if (current) {
        const read = current.state === 'COMPLETED' ? documents.length : Math.min(documents.length, Math.round((current.chunks_done / Math.max(1, current.chunks)) * current.documents));
        bar.tick(read - shown);
        shown = read;
        if (until(current)) {
          bar.end();
          return current;
        }
      }
      if ((performance.now() - t0) / 1000 > settings.phaseTimeoutS) throw new Error(`${label}: not done in ${settings.phaseTimeoutS} s`);
      await sleep(250);
    }
  };
  const scanFacts = (scan) => ({ scan: { documents: scan.documents, chunks: scan.chunks, findings: scan.findings, started_at: scan.started_at, finished_at: scan.finished_at } });

  // Ingestion, the instance held before RUNNING_PHASE: once a backlog of documents awaits indexation, its steps
  // start again (update-instance-step to INIT), and the indexation check waits while documents are pending. The
  // documents upserted after that are not rescanned one by one: the first full scan, once all are indexed, reads
  // every one of them (as on an instance created with its documents).
  const documents = corpusDocuments();
  const firstScanBefore = (await panel()).scan;
  await measure('ingestion', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: settings.uploaders, timeout: settings.requestTimeoutMs });
    const url = new URL(`${service.urls.retrieval}/api/documents/upsert`);
    const bar = progressBar(`[${mode}] upsert`, documents.length);
    let next = 0;
    let uploaded = 0;
    let held = null;
    const hold = async () => {
      held = 'pending';
      for (;;) {
        const indexedNow = expectOk(await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' }), 'document count');
        if (uploaded - indexedNow >= settings.uploaders * 5 || uploaded >= documents.length) break;
        await sleep(100);
      }
      expectOk(await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'INIT' }), 'update-instance-step');
      held = uploaded;
    };
    let holding;
    const upload = async () => {
      while (next < documents.length) {
        const doc = documents[next++];
        const res = await send(agent, url, 'POST', Buffer.from(JSON.stringify(doc)), null, settings.requestTimeoutMs, true, { 'instance-id': instanceId, 'api-key': instanceKey });
        if (res.status !== 200) throw new Error(`[${mode}] upsert ${doc.external_id} answered ${res.status}: ${res.body}`);
        uploaded++;
        if (held === null) holding = hold();
        bar.tick();
      }
    };
    await Promise.all(Array.from({ length: settings.uploaders }, upload));
    await holding;
    bar.end();
    agent.destroy();
    const uploadS = performance.now();
    const indexed = progressBar(`[${mode}] indexed`, documents.length);
    let shown = 0;
    for (;;) {
      const count = expectOk(await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' }), 'document count');
      indexed.tick(count - shown);
      shown = count;
      if (count >= documents.length) break;
      await sleep(500);
    }
    indexed.end();
    const indexedS = (performance.now() - uploadS) / 1000;
    // Then the indexation check passes (within its 10 s), the repository's duplicates are identified, and the first full scan starts.
    await followScan(`[${mode}] steps`, firstScanBefore, () => true);
    return { documents: documents.length, uploaded_before_the_hold: held, indexed_after_upload_s: round(indexedS, 1) };
  }, { idle: false });
  await measure('first full scan', async () => {
    const scan = await followScan(`[${mode}] first full scan`, firstScanBefore, (current) => current.state === 'COMPLETED');
    if (scan.documents !== documents.length) process.stderr.write(`[${mode}] warning: the first full scan read ${scan.documents} documents, not ${documents.length} (the instance reached RUNNING_PHASE during the ingestion)\n`);
    return scanFacts(scan);
  });

  // Rescans: the steps walked again (the duplicates of the whole repository identified on the way), then the full
  // scan reading every document (unchanged ones are not extracted again) and judging the repository.
  for (let scan = 1; scan <= settings.scans; scan++) {
    const before = (await panel()).scan;
    await measure(`steps ${scan}`, async () => {
      expectOk(await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'INIT' }), 'update-instance-step');
      await followScan(`[${mode}] steps ${scan}`, before, () => true);
      return {};
    }, { idle: false });
    await measure(`rescan ${scan}`, async () => scanFacts(await followScan(`[${mode}] rescan ${scan}`, before, (current) => current.state === 'COMPLETED')));
  }

  process.stderr.write(`[${mode}] stopping the service...\n`);
  await service.destroy();
  registerCleanup(undefined);
  return { mode, instance_id: instanceId, rss_mb_idle_at_start: rssIdle, phases };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function verdicts(phase) {
  const p99Goal = GOALS.p99_ms[phase.mode];
  const ready503 = Object.values(phase.probe.ready_statuses).reduce((n, s) => n + (s[503] ?? 0), 0);
  // Only for a phase the service was left to finish (the ingestion runs on into the first scan).
  const back = phase.settled ? phase.rss_mb.after_total <= phase.rss_mb.before_total * (1 + GOALS.rss_back_within) : null;
  return { p99: phase.probe.latency_ms.p99 <= p99Goal, p99_goal_ms: p99Goal, ready_503: ready503, no_503: ready503 === 0, errors: phase.probe.errors, memory_back: back };
}

function markdownTable(phases) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = [
    '| Mode | Phase | s | get-instance p50 / p95 / p99 / max (ms) | errors | /health/ready not 200 | RSS before / peak / after (MB) | service cores | other cores |',
    '|---|---|---:|---|---:|---|---|---:|---:|',
  ];
  for (const p of phases) {
    const l = p.probe.latency_ms;
    const v = verdicts(p);
    const notReady = Object.entries(p.probe.ready_statuses).flatMap(([app, s]) => Object.entries(s).filter(([status]) => status !== '200').map(([status, n]) => `${app} ${status}×${n}`));
    const serviceCores = Object.values(p.cpu.service_cores).reduce((a, b) => a + (b ?? 0), 0);
    lines.push(
      `| ${p.mode} | ${p.phase} | ${f(p.seconds)} | ${f(l.p50)} / ${f(l.p95)} / ${v.p99 ? '' : '**'}${f(l.p99)}${v.p99 ? '' : '**'} / ${f(l.max, 0)} | ${p.probe.errors} | ${notReady.join(', ') || 'none'} | ${p.rss_mb.before_total} / ${p.rss_mb.peak.total_mb} / ${v.memory_back === false ? '**' : ''}${p.rss_mb.after_total}${v.memory_back === false ? '**' : ''} | ${f(serviceCores, 2)} | ${f(p.cpu.other_cores, 2)} |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  let current;
  stopOnSignal(() => current);
  const idleBefore = sampleCpu(undefined);
  await sleep(1000);
  const busyBefore = cpuBetween(idleBefore, sampleCpu(undefined)).machine_cores_busy;
  process.stderr.write(
    `bench: modes=${settings.modes.join(',')} documents=${settings.documents} scans=${settings.scans} rate=${settings.rate}/s cpus=${cpus().length} cores busy before=${busyBefore} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`,
  );
  const modes = [];
  try {
    for (const mode of settings.modes) modes.push(await benchMode(mode, (service) => (current = service)));
  } catch (error) {
    process.stderr.write(`\nbench failed: ${error?.stack ?? error}\n`);
    if (current) {
      process.stderr.write(`service output:\n${current.output().slice(-4000)}\n`);
      await current.destroy().catch((e) => process.stderr.write(`cleanup failed: ${e}\n`));
    }
    process.exit(1);
  }
  const phases = modes.flatMap((m) => m.phases);
  const report = {
    benchmark: 'scan-load',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    git_commit: gitCommit(),
    settings: { ...settings, load: 'open loop, node:http keep-alive Agent, same machine (loopback)' },
    goals: GOALS,
    machine: machineInfo(busyBefore),
    verdicts: phases.map((p) => ({ mode: p.mode, phase: p.phase, ...verdicts(p) })),
    modes,
  };
  const file = writeResults('scan-load', startedAt, report);
  console.log('');
  console.log(`## scan-load benchmark (${settings.documents} documents, get-instance at ${settings.rate}/s, ${cpus().length} CPUs, node ${process.version})`);
  console.log('');
  console.log(markdownTable(phases));
  console.log('');
  console.log(`Goals (bold when missed): get-instance p99 ≤ ${GOALS.p99_ms.embedded} ms embedded, ${GOALS.p99_ms.distributed} ms distributed; no 503 from /health/ready; RSS after within ${GOALS.rss_back_within * 100} % of before.`);
  const noisy = phases.filter((p) => (p.cpu.other_cores ?? 0) > 0.25);
  if (noisy.length) console.log(`- warning: other processes used CPU during ${noisy.map((p) => `${p.mode} / ${p.phase} (${p.cpu.other_cores} cores)`).join(', ')}; those figures are noisy`);
  console.log(`Results: ${relative(ROOT, file)}`);
  setTimeout(() => process.exit(0), 1000).unref();
}

await main();
