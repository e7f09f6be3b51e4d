// Helpers shared by the benchmarks: percentiles, rounding, CPU accounting from /proc, the commit, progress bars, starting
// and stopping the built service.
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
// load-kit imports this file too: fine, as neither uses the other's exports while the modules load.
import { call } from './load-kit.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const RESULTS_DIR = join(ROOT, 'tools', 'bench', 'results');

/** A path under dist/: the benchmarks run the built workspace, not the sources. */
export const distFile = (...parts) => join(ROOT, 'dist', ...parts);

/** Stops the run, with a hint, unless the workspace is built. */
export function requireBuilt(hint = 'run `npm run build` first') {
  if (!existsSync(distFile('tools', 'test-kit', 'src', 'index.js'))) {
    console.error(`dist/ is missing: ${hint}.`);
    process.exit(1);
  }
}

/** Stops the run unless every BENCH_DATABASES value is a known database. */
export function checkDatabases(databases) {
  for (const db of databases) {
    if (db !== 'embedded' && db !== 'postgres') throw new Error(`BENCH_DATABASES: unknown database "${db}" (embedded, postgres)`);
  }
}

/** What an in-process use case needs as its job context: one attempt, no progress reporting. */
export const STUB_ATTEMPT = { attempt: 1, maxAttempts: 1, progress: async () => undefined };

/**
 * The built workspace for in-process benchmarks (stops the run unless built): `require` for dist/ files, and
 * `workersModule(env)`, the Nest module of the contexts the workers app assembles, with no HTTP and no job workers.
 */
export function builtWorkspace() {
  requireBuilt();
  const require = createRequire(import.meta.url);
  require('reflect-metadata');
  const { Module } = require('@nestjs/common');
  const { PERSISTENCE, appContexts } = require(distFile('libs', 'composition', 'src', 'index.js'));
  const { loadConfig, PlatformCoreModule } = require(distFile('libs', 'platform', 'config', 'src', 'index.js'));
  const { DatabaseModule } = require(distFile('libs', 'platform', 'database', 'src', 'index.js'));
  class BenchRootModule {}
  Module({})(BenchRootModule);
  const workersModule = (env) => {
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', DEMO_DATA: 'false', JOBS_ENABLED: 'false' });
    return { config, module: { module: BenchRootModule, imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...appContexts(config, { auditApi: false, retrievalApi: false, runWorkers: false }).modules] } };
  };
  return { require, workersModule };
}

/**
 * Ingests and indexes documents in-process (Markdown unless a document gives its `mediaType`) (the repository's use cases, as the jobs run them), with a
 * progress bar; a document that is not indexed stops the run. Returns the seconds taken and each external id's document id.
 */
export async function ingestAndIndex(app, { IngestDocument, IndexDocument }, instanceId, docs, label) {
  const ingest = app.get(IngestDocument);
  const index = app.get(IndexDocument);
  const bar = progressBar(label, docs.length);
  const t0 = performance.now();
  const ids = new Map();
  for (const doc of docs) {
    const ingested = await ingest.execute(instanceId, { externalId: doc.externalId, name: doc.name, url: null, owner: null, mediaType: doc.mediaType ?? 'text/markdown', content: Buffer.from(doc.content, 'utf8') });
    const outcome = await index.execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, STUB_ATTEMPT);
    if (outcome !== 'indexed') throw new Error(`${doc.externalId} was not indexed (${outcome})`);
    ids.set(doc.externalId, ingested.id);
    bar.tick();
  }
  bar.end();
  return { seconds: (performance.now() - t0) / 1000, ids };
}

/**
 * Starts the BUILT service in `mode` (tools/test-kit's startService: a fresh PGlite directory, or a fresh PostgreSQL
 * database + Redis) with an admin key installed through BOOTSTRAP_ADMIN_API_KEY, the production job polling
 * (JOBS_POLL_INTERVAL_MS 500 rather than the test kit's fast polling) and LOG_LEVEL warn, `env` on top; hands the
 * service to `registerCleanup` at once (so a failure below still stops it), then creates the audit instance
 * `instanceName`. Returns the `service`, `startS` (seconds its start took), the `adminKey`, `audit(path, body)` (a call
 * to the audit app with that key), `expectOk(res, what)` (the response of a 200, else a throw naming the mode), the
 * `instanceId` and, unless `instanceKey` is false, the instance's service key `instanceKey` (for the instance API).
 */
export async function startBenchService(mode, env, instanceName, registerCleanup, { instanceKey: withInstanceKey = true } = {}) {
  const require = createRequire(import.meta.url);
  const { startService } = require(distFile('tools', 'test-kit', 'src', 'index.js'));
  const { generateApiKey } = require(distFile('libs', 'identity', 'core', 'src', 'index.js'));
  const adminKey = generateApiKey();
  process.stderr.write(`[${mode}] starting the built service on a fresh ${mode === 'embedded' ? 'PGlite directory' : 'PostgreSQL database + Redis'}...\n`);
  const t0 = performance.now();
  const service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, JOBS_POLL_INTERVAL_MS: '500', LOG_LEVEL: 'warn', ...env });
  registerCleanup(service);
  const startS = (performance.now() - t0) / 1000;
  const audit = (path, body) => call('POST', `${service.urls.audit}${path}`, body, adminKey);
  const expectOk = (res, what) => {
    if (res.status !== 200) throw new Error(`[${mode}] ${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.response;
  };
  const instanceId = expectOk(await audit('/audit/instance/create', { name: instanceName }), 'instance create').instance_id;
  const instanceKey = withInstanceKey ? expectOk(await audit('/audit/instance/get-svc-instances', { instance_id: instanceId }), 'get-svc-instances')[0].api_key : undefined;
  return { service, startS, adminKey, audit, expectOk, instanceId, instanceKey };
}

/**
 * On SIGINT or SIGTERM (the first only), destroys the service `current()` gives (if any) and ends the run with
 * exit code 130, so an interrupted service bench leaves no service or database behind.
 */
export function stopOnSignal(current) {
  let interrupted = false;
  const onSignal = async (signal) => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping the service...\n`);
    try {
      await current()?.destroy();
    } finally {
      process.exit(130);
    }
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/** Ends the run a second after the results are written, whatever handles (pools, timers) the app left open. */
export function endRunSoon() {
  const end = process.exit.bind(process, 0);
  setTimeout(end, 1000).unref();
}

/** A number from the environment, or `fallback`; a bad value stops the run naming the variable. */
export function envNumber(name, fallback, { min = 0, max = Number.MAX_SAFE_INTEGER, integer = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new Error(`${name}=${raw} is invalid: expected ${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`);
  }
  return value;
}

/** Nearest-rank percentile of an ascending array; null when empty. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Count, p50, p90, p95, p99, max and mean of a list of latencies (ms). */
export function latencySummary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { count: sorted.length, p50: round(percentile(sorted, 50)), p90: round(percentile(sorted, 90)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1)), mean: round(mean) };
}

export const round = (value, digits = 2) => (value === null || value === undefined || Number.isNaN(value) ? null : Math.round(value * 10 ** digits) / 10 ** digits);

export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of one process (all its threads, PGlite's worker thread included), in seconds. */
export function processCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Busy and total jiffies of the whole machine. */
export function machineTicks() {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const n = values.map(Number);
    const idle = n[3] + (n[4] ?? 0);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

export function gitCommit() {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return null;
  }
}

/** One progress line on stderr: rewritten in place on a terminal, one line every 5 s otherwise. */
export function progressBar(label, total) {
  const started = performance.now();
  let last = 0;
  let done = 0;
  const render = (final) => {
    const elapsed = (performance.now() - started) / 1000;
    if (!final && !process.stderr.isTTY && elapsed - last < 5) return;
    if (!final && process.stderr.isTTY && elapsed - last < 0.2) return;
    last = elapsed;
    const width = 24;
    const filled = Math.round((Math.min(done, total) / total) * width) || 0;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const eta = rate > 0 ? (total - done) / rate : 0;
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${rate.toFixed(1)}/s ${elapsed.toFixed(0)}s${final ? '' : ` eta ${eta.toFixed(0)}s`}`;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
    else process.stderr.write(`${line}\n`);
  };
  return {
    tick(n = 1) {
      done += n;
      render(false);
    },
    end() {
      render(true);
    },
  };
}

/** The machine a run was measured on, for its JSON report. */
export function machineInfo(coresBusyBeforeRun) {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: `${platform()} ${release()} ${arch()}`,
    cpus: cpuList.length,
    cpu_model: cpuList[0]?.model ?? null,
    memory_gb: round(totalmem() / 1024 ** 3, 1),
    cores_busy_before_run: coresBusyBeforeRun,
    load_average_at_end: loadavg().map((l) => round(l, 2)),
  };
}

/** Writes a run's JSON report as tools/bench/results/<name>-<UTC start>.json; returns the path. */
export function writeResults(name, startedAt, report) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const file = join(RESULTS_DIR, `${name}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** Peak RSS of this process since the last {@link resetPeakRss} (the kernel's VmHWM, kB → MiB); null off Linux. */
export function peakRssMiB() {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    return Number.isFinite(kb) ? round(kb / 1024, 0) : null;
  } catch {
    return null;
  }
}

/** Resets the kernel's peak RSS (VmHWM) of this process to its current RSS; false when it cannot. */
export function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** process.memoryUsage() every `everyMs`: `stop()` gives the maxima in MiB and the samples' count. */
export function memorySampler(everyMs = 250) {
  const peak = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
  let samples = 0;
  const sample = () => {
    const m = process.memoryUsage();
    for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], m[key]);
    samples++;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return { samples, ...Object.fromEntries(Object.entries(peak).map(([k, v]) => [`${k}_mb`, Math.round(v / 1024 ** 2)])) };
    },
  };
}

/** CPU seconds (utime + stime) of every process of the machine whose command is one of `commands` (Linux /proc); null off Linux. */
export function commandCpuSeconds(commands) {
  const wanted = new Set(commands);
  let total = 0;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (wanted.has(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) total += processCpuSeconds(entry) ?? 0;
      } catch {
        // the process ended meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}

/**
 * Cores used since the call (Linux /proc): `stop()` gives this process's cores, those of the machine's
 * PostgreSQL server processes (every database's, other users' included), the machine's busy cores, and the
 * rest (`other_cores`: other work on the machine) over the elapsed time.
 */
export function coresMeter() {
  const startTicks = machineTicks();
  const startCpu = process.cpuUsage();
  const startPostgres = commandCpuSeconds(['postgres']);
  const t0 = performance.now();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(startCpu);
    const end = machineTicks();
    const endPostgres = commandCpuSeconds(['postgres']);
    const machineBusy = startTicks && end && end.total > startTicks.total ? ((end.busy - startTicks.busy) / (end.total - startTicks.total)) * cpus().length : null;
    const benchCores = seconds > 0 ? (cpu.user + cpu.system) / 1e6 / seconds : 0;
    const postgresCores = startPostgres !== null && endPostgres !== null && seconds > 0 ? (endPostgres - startPostgres) / seconds : null;
    return {
      bench_cores: round(benchCores),
      postgres_cores: round(postgresCores),
      machine_cores_busy: round(machineBusy),
      other_cores: machineBusy === null ? null : round(Math.max(0, machineBusy - benchCores - (postgresCores ?? 0))),
    };
  };
}

/**
 * Wraps the async method `object[method]` (an own property shadowing the prototype's, so whoever holds the
 * object calls the wrapper) to add each call's milliseconds to `timer[key]` and count it in `timer[key + '_calls']`;
 * `after(result, args, ms)` sees every call. Returns the function that restores the method.
 */
export function timeMethod(object, method, timer, key, after = null) {
  const own = Object.prototype.hasOwnProperty.call(object, method);
  const original = object[method];
  const bound = original.bind(object);
  timer[key] ??= 0;
  timer[`${key}_calls`] ??= 0;
  object[method] = async (...args) => {
    const t = performance.now();
    let result;
    try {
      result = await bound(...args);
      return result;
    } finally {
      const ms = performance.now() - t;
      timer[key] += ms;
      timer[`${key}_calls`] += 1;
      after?.(result, args, ms);
    }
  };
  return () => {
    if (own) object[method] = original;
    else delete object[method];
  };
}
