// Requests while one large document is indexed (issue 28 item 5): the BUILT service, one Markdown document of about
// BENCH_DOCUMENT_MIB MiB (many short sections) upserted through `/api/documents/upsert`; meanwhile a steady stream of
// `get-instance` reads and `/health/ready` probes, their latency and statuses, and how long the indexation took.
//
//   npm run bench:big-upsert
//   BENCH_MODES=embedded,distributed BENCH_DOCUMENT_MIB=5 node tools/bench/src/big-upsert.bench.mjs
//
// For each mode (embedded by default = standalone process on PGlite; distributed = four app processes on PostgreSQL
// 127.0.0.1:5432 + Redis 127.0.0.1:6379), on a fresh database, started as tools/test-kit's startService does:
//   1. an admin key, one audit instance, its first (empty) full scan, then the service left to go idle;
//   2. "idle": BENCH_IDLE_PROBE_S seconds of the probe alone (the reference latency of this machine);
//   3. "big upsert": the document upserted (one request), then the probe runs until the document is INDEXED (or
//      fails): the upsert's own latency, the seconds until INDEXED, and the probe's figures over that time.
// The probe is open loop: `get-instance` (raw key) BENCH_RATE times a second whatever the answers, `/health/ready` of
// every app every BENCH_READY_EVERY_MS. Prints a Markdown table and writes JSON to
// tools/bench/results/big-upsert-<timestamp>.json. See tools/bench/README.md.
import { Buffer } from 'node:buffer';
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { envNumber, gitCommit, latencySummary, machineInfo, requireBuilt, ROOT, round, startBenchService, stopOnSignal, writeResults } from './bench-kit.mjs';
import { Corpus } from './corpus.mjs';
import { call, cpuBetween, sampleCpu, send, serviceRss, totalMb } from './load-kit.mjs';

const settings = {
  modes: (process.env.BENCH_MODES ?? 'embedded').split(',').map((m) => m.trim()).filter(Boolean),
  /** Size of the document, in MiB of UTF-8 (the instance API takes 10 MiB per file). */
  documentMiB: envNumber('BENCH_DOCUMENT_MIB', 9.5, { min: 0.01, max: 9.9 }),
  /** get-instance requests per second, sent on schedule whatever the answers (open loop). */
  rate: envNumber('BENCH_RATE', 20, { min: 1, max: 1000 }),
  /** Every app's /health/ready, every this many ms. */
  readyEveryMs: envNumber('BENCH_READY_EVERY_MS', 500, { min: 50, integer: true }),
  /** Seconds of the probe alone, before the upsert. */
  idleProbeS: envNumber('BENCH_IDLE_PROBE_S', 5, { min: 1, max: 120 }),
  /** A request slower than this is abandoned and counted as an error. */
  requestTimeoutMs: envNumber('BENCH_REQUEST_TIMEOUT_MS', 30000, { min: 100, integer: true }),
  /** Give up on the indexation after this many seconds. */
  timeoutS: envNumber('BENCH_TIMEOUT_S', 900, { min: 10, integer: true }),
  seed: envNumber('BENCH_SEED', 42, { integer: true }),
};
for (const mode of settings.modes) {
  if (mode !== 'embedded' && mode !== 'distributed') throw new Error(`BENCH_MODES: unknown mode "${mode}" (embedded, distributed)`);
}

requireBuilt('run `npm run build` first (or use `npm run bench:big-upsert`, which builds)');

/** The goal of issue 28 item 5 for the embedded mode (scan-load's): background work leaves reads fast. */
const GOALS = { p99_ms: { embedded: 100, distributed: 50 }, ready_503: 0 };

/** One Markdown document of about `bytes` bytes: a title, then short sections (a heading, one or two paragraphs). */
function bigDocument(bytes) {
  const corpus = new Corpus(settings.seed, 'topical');
  const parts = [`# ${corpus.title()}\n`];
  let size = parts[0].length;
  for (let s = 1; size < bytes; s++) {
    if (s % 40 === 1) corpus.startDocument();
    const section = `\n## ${corpus.title()} ${s}\n\n${corpus.paragraph(corpus.int(60, 160)).text}\n${corpus.int(0, 2) === 0 ? `\n${corpus.paragraph(80).text}\n` : ''}`;
    if (size + Buffer.byteLength(section) > bytes) break;
    parts.push(section);
    size += Buffer.byteLength(section);
  }
  return parts.join('');
}

/** Starts the probe; `stop()` waits for the requests in flight and summarises them. */
function startProbe(service, instanceId, adminKey) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: settings.requestTimeoutMs });
  const url = new URL(`${service.urls.audit}/audit/instance/get-instance`);
  const payload = Buffer.from(JSON.stringify({ instance_id: instanceId }));
  const latencies = [];
  const statuses = {};
  const transportErrors = {};
  const ready = Object.fromEntries(Object.keys(service.urls).map((app) => [app, {}]));
  const inFlight = new Set();
  const t0 = performance.now();
  let sent = 0;
  let stopped = false;
  const track = (promise) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const count = (table, key) => (table[key] = (table[key] ?? 0) + 1);
  const schedule = async () => {
    while (!stopped) {
      const started = performance.now();
      track(
        send(agent, url, 'POST', payload, adminKey, settings.requestTimeoutMs, false).then(
          (res) => {
            latencies.push(performance.now() - started);
            count(statuses, res.status);
          },
          (error) => count(transportErrors, error?.code ?? error?.message ?? String(error)),
        ),
      );
      sent++;
      const wait = t0 + (sent * 1000) / settings.rate - performance.now();
      if (wait > 0) await sleep(wait);
    }
  };
  const probeReady = async () => {
    while (!stopped) {
      for (const [app, base] of Object.entries(service.urls)) {
        track(call('GET', `${base}/health/ready`).then((res) => count(ready[app], res.status), (error) => count(ready[app], error?.code ?? 'error')));
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
    return { requests: sent, latency_ms: latencySummary(latencies), errors: non2xx + failed, statuses, transport_error_kinds: transportErrors, ready_statuses: ready };
  };
}

/** Waits until the service's processes use less than 0.05 cores for 5 s in a row (its start-up jobs done). */
async function untilIdle(service) {
  const t0 = performance.now();
  let quietSince = null;
  let before = sampleCpu(service);
  for (;;) {
    await sleep(1000);
    const after = sampleCpu(service);
    const used = Object.values(cpuBetween(before, after).service_cores).reduce((a, b) => a + (b ?? 0), 0);
    before = after;
    if (used < 0.05) quietSince ??= performance.now() - 1000;
    else quietSince = null;
    if (quietSince !== null && performance.now() - quietSince >= 5000) return;
    if (performance.now() - t0 > 120000) throw new Error('the service is still busy two minutes after its start');
  }
}

async function benchMode(mode, registerCleanup) {
  const { service, adminKey, audit, expectOk, instanceId, instanceKey } = await startBenchService(mode, { FULL_AUDIT_SETTLE_SECONDS: '0' }, 'Big upsert', registerCleanup);
  for (let t = 0; !expectOk(await audit('/audit/full-audit/have-to-show', { instance_id: instanceId }), 'have-to-show').show; t++) {
    if (t > 600) throw new Error(`[${mode}] the first (empty) full scan did not complete`);
    await sleep(100);
  }
  await untilIdle(service);

  const phases = [];
  const measure = async (name, work) => {
    const cpuBefore = sampleCpu(service);
    const stop = startProbe(service, instanceId, adminKey);
    const t0 = performance.now();
    const detail = await work();
    const seconds = (performance.now() - t0) / 1000;
    const probe = await stop();
    const phase = { mode, phase: name, seconds: round(seconds, 1), ...detail, probe, cpu: cpuBetween(cpuBefore, sampleCpu(service)), rss_mb_after: totalMb(serviceRss(service)) };
    phases.push(phase);
    const l = probe.latency_ms;
    process.stderr.write(`[${mode}] ${name}: ${round(seconds, 1)} s, get-instance p50 ${l.p50} p99 ${l.p99} max ${l.max} ms, ${probe.errors} errors, ready ${JSON.stringify(probe.ready_statuses)}\n`);
  };

  await measure('idle', async () => {
    await sleep(settings.idleProbeS * 1000);
    return {};
  });

  const content = bigDocument(Math.round(settings.documentMiB * 1024 * 1024));
  const body = Buffer.from(JSON.stringify({ external_id: 'big.md', name: 'Big handbook.md', content_text: content }));
  process.stderr.write(`[${mode}] upserting one document of ${round(Buffer.byteLength(content) / 1024 / 1024, 2)} MiB...\n`);
  await measure('big upsert', async () => {
    const agent = new Agent({ keepAlive: false });
    const t0 = performance.now();
    const res = await send(agent, new URL(`${service.urls.retrieval}/api/documents/upsert`), 'POST', body, null, settings.timeoutS * 1000, true, { 'instance-id': instanceId, 'api-key': instanceKey });
    const upsertMs = performance.now() - t0;
    agent.destroy();
    let pollFailures = 0;
    if (res.status !== 200) throw new Error(`[${mode}] upsert answered ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
    for (;;) {
      // While the database is held, these calls time out or fail like the probe's: try again.
      const count = async (state) => expectOk(await audit('/audit/document/count', { instance_id: instanceId, state }), 'document count');
      let indexed, failed;
      try {
        indexed = await count('INDEXED');
        failed = (await count('PARSING_ERROR')) + (await count('EMBEDDING_ERROR'));
      } catch {
        pollFailures++;
        indexed = failed = 0;
      }
      if (indexed + failed >= 1) {
        if (failed) throw new Error(`[${mode}] the document was not indexed (PARSING_ERROR or EMBEDDING_ERROR)`);
        return { document_bytes: Buffer.byteLength(content), upsert_ms: round(upsertMs, 0), state_poll_failures: pollFailures, indexed_after_s: round((performance.now() - t0) / 1000, 1) };
      }
      if ((performance.now() - t0) / 1000 > settings.timeoutS) throw new Error(`[${mode}] not indexed after ${settings.timeoutS} s`);
      await sleep(250);
    }
  });

  process.stderr.write(`[${mode}] stopping the service...\n`);
  await service.destroy();
  registerCleanup(undefined);
  return { mode, instance_id: instanceId, phases };
}

function markdownTable(phases) {
  const f = (v, d = 1) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const lines = [
    '| Mode | Phase | s | indexed after (s) | get-instance p50 / p99 / max (ms) | errors | /health/ready not 200 | service cores |',
    '|---|---|---:|---:|---|---:|---|---:|',
  ];
  for (const p of phases) {
    const l = p.probe.latency_ms;
    const notReady = Object.entries(p.probe.ready_statuses).flatMap(([app, s]) => Object.entries(s).filter(([status]) => status !== '200').map(([status, n]) => `${app} ${status}×${n}`));
    const cores = Object.values(p.cpu.service_cores).reduce((a, b) => a + (b ?? 0), 0);
    lines.push(`| ${p.mode} | ${p.phase} | ${f(p.seconds)} | ${f(p.indexed_after_s)} | ${f(l.p50)} / ${f(l.p99)} / ${f(l.max, 0)} | ${p.probe.errors} | ${notReady.join(', ') || 'none'} | ${f(cores, 2)} |`);
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
  process.stderr.write(`bench: modes=${settings.modes.join(',')} document=${settings.documentMiB} MiB rate=${settings.rate}/s cpus=${cpus().length} cores busy before=${busyBefore} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
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
    benchmark: 'big-upsert',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    git_commit: gitCommit(),
    settings: { ...settings, load: 'open loop, node:http keep-alive Agent, same machine (loopback)' },
    goals: GOALS,
    machine: machineInfo(busyBefore),
    modes,
  };
  const file = writeResults('big-upsert', startedAt, report);
  console.log('');
  console.log(`## big-upsert benchmark (one ${settings.documentMiB} MiB Markdown document, get-instance at ${settings.rate}/s, ${cpus().length} CPUs, node ${process.version})`);
  console.log('');
  console.log(markdownTable(phases));
  console.log('');
  console.log(`Goals: get-instance p99 ≤ ${GOALS.p99_ms.embedded} ms embedded, ${GOALS.p99_ms.distributed} ms distributed; no 503 from /health/ready.`);
  const noisy = phases.filter((p) => (p.cpu.other_cores ?? 0) > 0.25);
  if (noisy.length) console.log(`- warning: other processes used CPU during ${noisy.map((p) => `${p.mode} / ${p.phase} (${p.cpu.other_cores} cores)`).join(', ')}; those figures are noisy`);
  console.log(`Results: ${relative(ROOT, file)}`);
  setTimeout(() => process.exit(0), 1000).unref();
}

await main();
