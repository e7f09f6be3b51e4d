// The HTTP side of the service benches (instance-get, stats, scan-load, soak): one-off JSON calls, a closed-loop load
// generator with a progress line, who used the CPU during a measurement and the service's memory (Linux /proc).
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { commandCpuSeconds, latencySummary, machineTicks, processCpuSeconds, round } from './bench-kit.mjs';

/** Sends one request (`extraHeaders`: the instance API's `instance-id` and `api-key`, say); resolves with status and body, rejects on transport errors and timeouts. */
export function send(agent, url, method, payload, credential, timeoutMs, keepBody = true, extraHeaders = {}) {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'application/json', ...extraHeaders };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    if (credential) headers.authorization = `Bearer ${credential}`;
    const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => keepBody && chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks) : Buffer.alloc(0) }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** One-off JSON call for set-up steps and checks (not measured). */
export async function call(method, url, body, credential) {
  const agent = new Agent({ keepAlive: false });
  try {
    const res = await send(agent, new URL(url), method, body === undefined ? undefined : Buffer.from(JSON.stringify(body)), credential, 30000);
    let parsed;
    try {
      parsed = res.body.length ? JSON.parse(res.body.toString('utf8')) : undefined;
    } catch {
      parsed = res.body.toString('utf8');
    }
    return { status: res.status, body: parsed };
  } finally {
    agent.destroy();
  }
}

/** One progress line on stderr per load phase (rewritten in place on a terminal, every 2 s otherwise). */
function loadProgress(label, phase, seconds) {
  const started = performance.now();
  const state = { count: 0, errors: 0 };
  let lastPlain = 0;
  const render = (final) => {
    const elapsed = (performance.now() - started) / 1000;
    const shown = Math.min(elapsed, seconds);
    const filled = Math.round((shown / seconds) * 20) || 0;
    const line = `${label} ${phase.padEnd(7)} [${'#'.repeat(filled)}${'.'.repeat(Math.max(0, 20 - filled))}] ${shown.toFixed(1)}/${seconds}s ${state.count} req ${(elapsed > 0 ? state.count / elapsed : 0).toFixed(0)} req/s ${state.errors} err`;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
    else if (final || (elapsed - lastPlain >= 2 && elapsed < seconds)) {
      // Not a terminal (CI log, file): a line every 2 s instead of rewriting one.
      lastPlain = elapsed;
      process.stderr.write(`${line}\n`);
    }
  };
  const timer = setInterval(() => render(false), 250);
  return Object.assign(state, {
    stop() {
      clearInterval(timer);
      render(true);
    },
  });
}

/**
 * Runs `concurrency` loops for `seconds`, each sending `target` and waiting for the answer before the
 * next one (closed loop: the offered load adapts to the server), and summarises them: rate, latency
 * percentiles of every completed request (when `record`), errors, statuses, completions per second.
 * Requests in flight at the deadline finish and count; the rate runs until the last of them.
 */
export async function runLoad(target, { seconds, concurrency, maxRequests = 0, record, label, phase, requestTimeoutMs }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const url = new URL(target.url);
  const payload = target.body === undefined ? undefined : Buffer.from(JSON.stringify(target.body));
  const latencies = [];
  /** Completed requests per elapsed second, to see ramp-ups and slowdowns within a run. */
  const perSecond = [];
  const statuses = {};
  const transportErrors = {};
  let sent = 0;
  let completed = 0;
  let non2xx = 0;
  let failed = 0;
  const progress = loadProgress(label, phase, seconds);
  const startedAt = performance.now();
  const deadline = startedAt + seconds * 1000;
  let lastDone = startedAt;
  const loop = async () => {
    while (performance.now() < deadline && (!maxRequests || sent < maxRequests)) {
      sent++;
      const t0 = performance.now();
      try {
        const res = await send(agent, url, target.method, payload, target.credential, requestTimeoutMs, false);
        const t1 = performance.now();
        lastDone = t1;
        completed++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status < 200 || res.status >= 300) {
          non2xx++;
          progress.errors++;
        }
        if (record) {
          latencies.push(t1 - t0);
          const second = Math.floor((t1 - startedAt) / 1000);
          perSecond[second] = (perSecond[second] ?? 0) + 1;
        }
      } catch (error) {
        failed++;
        progress.errors++;
        const key = error?.code ?? error?.message ?? String(error);
        transportErrors[key] = (transportErrors[key] ?? 0) + 1;
        lastDone = performance.now();
        // Do not spin on a refused connection.
        await sleep(10);
      }
      progress.count++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  progress.stop();
  agent.destroy();
  const elapsedS = (lastDone - startedAt) / 1000;
  return {
    requests: completed,
    elapsed_s: round(elapsedS, 3),
    rps: round(elapsedS > 0 ? completed / elapsedS : 0, 1),
    latency_ms: latencySummary(latencies),
    // Errors = answers outside 2xx + requests that got no answer (connection error, timeout).
    errors: non2xx + failed,
    non_2xx: non2xx,
    transport_errors: failed,
    transport_error_kinds: transportErrors,
    statuses,
    // The last entry covers only the requests in flight at the deadline.
    timeline_rps: Array.from(perSecond, (n) => n ?? 0),
  };
}

/** CPU seconds so far of the service's apps, this process, PostgreSQL + Redis, and the machine. */
export function sampleCpu(service) {
  const self = process.cpuUsage();
  return {
    at: performance.now(),
    apps: Object.fromEntries(Object.entries(service?.pids() ?? {}).map(([app, pid]) => [app, processCpuSeconds(pid)])),
    self: (self.user + self.system) / 1e6,
    databases: commandCpuSeconds(['postgres', 'redis-server']),
    machine: machineTicks(),
  };
}

/** Cores used on average between two samples (1.0 = one core busy): each app, the load generator, PostgreSQL + Redis, the rest. */
export function cpuBetween(before, after) {
  const wall = (after.at - before.at) / 1000;
  const cores = (a, b) => (a === null || a === undefined || b === null || b === undefined ? null : round((b - a) / wall, 2));
  const apps = Object.fromEntries(Object.keys(before.apps).map((app) => [app, cores(before.apps[app], after.apps[app])]));
  const machine = before.machine && after.machine && after.machine.total > before.machine.total ? round(((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * cpus().length, 2) : null;
  const generator = cores(before.self, after.self);
  // A backend that exits during the interval takes its CPU seconds with it: never below 0.
  const databases = before.databases === null || after.databases === null ? null : Math.max(0, cores(before.databases, after.databases));
  const service = Object.values(apps).reduce((a, b) => a + (b ?? 0), 0);
  // Whatever else ran on the machine meanwhile (other jobs, the OS): should be close to 0.
  const other = machine === null ? null : round(Math.max(0, machine - service - (generator ?? 0) - (databases ?? 0)), 2);
  return { machine_cores_busy: machine, service_cores: apps, load_generator_cores: generator, postgres_redis_cores: databases, other_cores: other };
}

/** Resident memory (VmRSS) of one process in MiB; null once it has ended or off Linux. */
export function rssMb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? round(Number(match[1]) / 1024, 0) : null;
  } catch {
    return null;
  }
}

/** VmRSS (MiB) of each of the service's app processes. */
export const serviceRss = (service) => Object.fromEntries(Object.entries(service.pids()).map(([app, pid]) => [app, rssMb(pid)]));

/** The sum of a `serviceRss` record. */
export const totalMb = (byApp) => Object.values(byApp).reduce((a, b) => a + (b ?? 0), 0);
