// Throughput and latency of one audit read (`POST /audit/instance/get-instance`) against the BUILT
// service, in both runtime modes, compared with the trivial `GET /health/live` of the same audit app.
//
//   npm run bench                       (builds first, then runs this file)
//   BENCH_DURATION_S=20 BENCH_CONCURRENCY=32 npm run bench
//
// For each mode (embedded = standalone process on PGlite; distributed = separate app processes on
// PostgreSQL 127.0.0.1:5432 + Redis 127.0.0.1:6379): start the service on a fresh database, bootstrap
// an admin key, create one instance, wait for its lifecycle to settle, then for each route run a
// closed-loop load (N keep-alive connections, each sending its next request as soon as the previous
// answer arrives) for a warm-up and a measured period. Prints a Markdown table and writes JSON to
// tools/bench/results/instance-get-<timestamp>.json. See tools/bench/README.md.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { envNumber, gitCommit, machineInfo, requireBuilt, ROOT, round, startBenchService, stopOnSignal, writeResults } from './bench-kit.mjs';
import { call, cpuBetween, runLoad, sampleCpu } from './load-kit.mjs';
import { URL } from 'node:url';


// ---------------------------------------------------------------------------------------------
// Settings (environment)
// ---------------------------------------------------------------------------------------------


const settings = {
  /** Measured seconds per mode and route. */
  durationS: envNumber('BENCH_DURATION_S', 8, { min: 0.5, max: 600 }),
  /**
   * Unrecorded seconds of load per route before any measurement of a mode (JIT, caches, pools),
   * then again (at most 1 s) just before each route's measurement.
   */
  warmupS: envNumber('BENCH_WARMUP_S', 2, { min: 0, max: 120 }),
  /** Concurrent keep-alive connections, each with one request in flight. */
  concurrency: envNumber('BENCH_CONCURRENCY', 16, { min: 1, max: 1024, integer: true }),
  /** Hard cap on requests per measurement (0 = only the duration bounds it). */
  maxRequests: envNumber('BENCH_MAX_REQUESTS', 0, { min: 0, integer: true }),
  /** A request taking longer than this is abandoned and counted as an error. */
  requestTimeoutMs: envNumber('BENCH_REQUEST_TIMEOUT_MS', 10000, { min: 100, max: 120000, integer: true }),
  /** Comma-separated modes to run. */
  modes: (process.env.BENCH_MODES ?? 'embedded,distributed').split(',').map((m) => m.trim()).filter(Boolean),
  /** Also measure get-instance with an exchanged token (ES256 JWT) instead of the raw key. */
  withToken: process.env.BENCH_TOKEN !== '0',
};
for (const mode of settings.modes) {
  if (mode !== 'embedded' && mode !== 'distributed') throw new Error(`BENCH_MODES: unknown mode "${mode}" (embedded, distributed)`);
}

// The built workspace is CommonJS; the test kit launches dist/apps/*/src/main.js the way users do.
requireBuilt('run `npm run build` first (or use `npm run bench`, which builds)');

// ---------------------------------------------------------------------------------------------
// CPU accounting (Linux /proc; null elsewhere): who used the 2 cores during a measurement
// ---------------------------------------------------------------------------------------------

/** Resident memory of one process, in MB. */
function processRssMb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? round(Number(match[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

function serviceRss(service) {
  return Object.fromEntries(Object.entries(service.pids()).map(([app, pid]) => [app, processRssMb(pid)]));
}

// ---------------------------------------------------------------------------------------------
// One mode
// ---------------------------------------------------------------------------------------------

const SETTLED_STEP = 'RUNNING_PHASE';

async function benchMode(mode, registerCleanup) {
  const { service, startS, adminKey, instanceId } = await startBenchService(mode, {}, 'Bench', registerCleanup, { instanceKey: false });
  process.stderr.write(`[${mode}] ready in ${startS.toFixed(1)} s (audit ${service.urls.audit}, auth ${service.urls.auth})\n`);

  // The workers carry a new instance through its automated lifecycle; measure once it has settled
  // so the background jobs do not compete with the load.
  let step = '';
  const settleDeadline = Date.now() + 30000;
  for (; Date.now() < settleDeadline; await sleep(200)) {
    const got = await call('POST', `${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey);
    if (got.status !== 200) throw new Error(`[${mode}] get-instance answered ${got.status}: ${JSON.stringify(got.body)}`);
    step = got.body.response.step;
    if (step === SETTLED_STEP) break;
  }
  if (step !== SETTLED_STEP) process.stderr.write(`[${mode}] warning: instance still at step ${step} after 30 s; measuring anyway\n`);
  process.stderr.write(`[${mode}] instance ${instanceId} at step ${step}\n`);

  const targets = [
    {
      route: 'get-instance (raw key)',
      method: 'POST',
      url: `${service.urls.audit}/audit/instance/get-instance`,
      body: { instance_id: instanceId },
      credential: adminKey,
    },
  ];
  if (settings.withToken) {
    const exchanged = await call('POST', `${service.urls.auth}/core/api-key/token`, { api_key: adminKey });
    if (exchanged.status !== 200) throw new Error(`[${mode}] token exchange answered ${exchanged.status}: ${JSON.stringify(exchanged.body)}`);
    const { access_token: token, expires_in: expiresIn } = exchanged.body.response;
    const needed = targets.length * 2 * (settings.warmupS + settings.durationS) + 30;
    if (typeof expiresIn === 'number' && expiresIn < needed) process.stderr.write(`[${mode}] warning: token lives ${expiresIn} s, the run needs ~${needed} s\n`);
    targets.push({
      route: 'get-instance (token)',
      method: 'POST',
      url: `${service.urls.audit}/audit/instance/get-instance`,
      body: { instance_id: instanceId },
      credential: token,
    });
  }
  targets.push({ route: 'GET /health/live', method: 'GET', url: `${service.urls.audit}/health/live` });

  const label = (target) => `[${mode}] ${target.route}`.padEnd(38);
  const common = { concurrency: settings.concurrency, maxRequests: settings.maxRequests, requestTimeoutMs: settings.requestTimeoutMs };
  // Sanity check (every route answers 2xx), then one warm-up round over every route: the code paths
  // they share (HTTP stack, authentication, database pool) are warm before the first measurement.
  for (const target of targets) {
    const probe = await call(target.method, target.url, target.body, target.credential);
    if (probe.status < 200 || probe.status >= 300) throw new Error(`[${mode}] ${target.route} answered ${probe.status}: ${JSON.stringify(probe.body)}`);
    if (settings.warmupS > 0) await runLoad(target, { ...common, label: label(target), seconds: settings.warmupS, record: false, phase: 'warm-up' });
  }
  const rssBefore = serviceRss(service);

  const results = [];
  for (const target of targets) {
    const rewarm = Math.min(1, settings.warmupS);
    if (rewarm > 0) await runLoad(target, { ...common, label: label(target), seconds: rewarm, record: false, phase: 'warm-up' });
    const before = sampleCpu(service);
    const run = await runLoad(target, { ...common, label: label(target), seconds: settings.durationS, record: true, phase: 'measure' });
    const cpu = cpuBetween(before, sampleCpu(service));
    results.push({ mode, route: target.route, method: target.method, path: new URL(target.url).pathname, ...run, cpu, service_rss_mb: serviceRss(service) });
  }

  process.stderr.write(`[${mode}] stopping the service...\n`);
  await service.destroy();
  registerCleanup(undefined);
  return { mode, startup_s: round(startS, 2), instance_id: instanceId, instance_step: step, service_rss_mb_after_warmup: rssBefore, results };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function markdownTable(rows) {
  const fmt = (v, digits = 2) => (v === null || v === undefined ? '–' : v.toFixed(digits));
  const lines = [
    '| Mode | Route | req/s | p50 (ms) | p99 (ms) | Errors (non-2xx + failed) | Requests |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.mode} | ${r.route} | ${fmt(r.rps, 0)} | ${fmt(r.latency_ms.p50)} | ${fmt(r.latency_ms.p99)} | ${r.errors} | ${r.requests} |`);
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  let current;
  stopOnSignal(() => current);

  const cpuList = cpus();
  process.stderr.write(
    `bench: modes=${settings.modes.join(',')} duration=${settings.durationS}s warmup=${settings.warmupS}s concurrency=${settings.concurrency}` +
      `${settings.maxRequests ? ` max=${settings.maxRequests}` : ''} token=${settings.withToken ? 'yes' : 'no'} cpus=${cpuList.length}\n`,
  );

  // Is the machine quiet? Other work on the same cores makes every figure below noisy.
  const idleBefore = sampleCpu(undefined);
  await sleep(1000);
  const idle = cpuBetween(idleBefore, sampleCpu(undefined));
  const busyBefore = idle.machine_cores_busy;
  if (busyBefore !== null && busyBefore > 0.25) {
    process.stderr.write(`bench: warning: ${busyBefore} of ${cpuList.length} cores already busy before the run (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}); figures will be noisy\n`);
  }

  const modes = [];
  try {
    for (const mode of settings.modes) {
      modes.push(await benchMode(mode, (service) => (current = service)));
    }
  } catch (error) {
    process.stderr.write(`\nbench failed: ${error?.stack ?? error}\n`);
    if (current) {
      process.stderr.write(`service output:\n${current.output().slice(-4000)}\n`);
      await current.destroy().catch((e) => process.stderr.write(`cleanup failed: ${e}\n`));
    }
    process.exit(1);
  }

  const rows = modes.flatMap((m) => m.results);
  const report = {
    benchmark: 'instance-get',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    git_commit: gitCommit(),
    settings: {
      duration_s: settings.durationS,
      warmup_s: settings.warmupS,
      concurrency: settings.concurrency,
      max_requests: settings.maxRequests || null,
      request_timeout_ms: settings.requestTimeoutMs,
      modes: settings.modes,
      with_token: settings.withToken,
      load_generator: 'closed loop, node:http keep-alive Agent, same machine (loopback)',
    },
    machine: machineInfo(busyBefore),
    modes,
  };

  const file = writeResults('instance-get', startedAt, report);

  console.log('');
  console.log(`## instance-get benchmark (${settings.durationS} s per route, ${settings.concurrency} connections, ${cpuList.length} CPUs, node ${process.version})`);
  console.log('');
  console.log(markdownTable(rows));
  console.log('');
  for (const r of rows.filter((x) => x.errors > 0)) {
    console.log(`- ${r.mode} / ${r.route}: statuses ${JSON.stringify(r.statuses)}, transport errors ${JSON.stringify(r.transport_error_kinds)}`);
  }
  const noisy = rows.filter((r) => (r.cpu?.other_cores ?? 0) > 0.25);
  if (noisy.length) {
    console.log(
      `- warning: other processes used CPU during ${noisy.map((r) => `${r.mode} / ${r.route} (${r.cpu.other_cores} cores)`).join(', ')}; those figures are noisy, run again on a quiet machine`,
    );
  }
  console.log(`Results: ${relative(ROOT, file)}`);
  // Nothing should be left running; make sure a stray handle cannot keep the process alive.
  setTimeout(() => process.exit(0), 1000).unref();
}

await main();
