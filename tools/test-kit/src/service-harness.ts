import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase } from './test-databases';

export type ServiceMode = 'embedded' | 'distributed';

/**
 * The e2e mode matrix: `describe.each(BOTH_MODES)` for a spec that runs against both runtime modes.
 *
 * Rule: e2e in both modes only for what differs by mode. The modes share the use cases and the HTTP layer
 * (controllers, validation, guards, error envelopes, MCP). They differ in the database driver (PGlite or
 * PostgreSQL: connections, concurrency, pgvector), the job queues (the in-process database queue runs one job at a
 * time, BullMQ on Redis runs them concurrently: races between jobs; delayed, deduplicated and repeating jobs), the
 * process split (one process or four apps: cross-app auth, the HTTP repository client, memory per process), worker
 * crash recovery, migrations, Redis-backed state (rate limits) and readiness. A spec whose subject is one of those,
 * or which asserts what only the distributed mode shows (the activity log read from PostgreSQL), runs in both modes
 * (or only in the one it is about). A spec of the shared use cases and HTTP layer runs embedded only (the cheaper
 * mode): its distributed run would be a duplicate; so do the refusal matrices inside the specs that run in both.
 * The distributed mode still carries every use case end to end in the full walk (through BullMQ and the HTTP
 * repository client).
 */
export const BOTH_MODES: readonly ServiceMode[] = ['embedded', 'distributed'];

/** The repository root: the nearest folder with a package.json (from the sources or from dist/). */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}`);
  }
}
const ROOT = findRoot(__dirname);
const DIST_MAIN = (app: string) => join(ROOT, 'dist', 'apps', app, 'src', 'main.js');

/** Runs an app's built entry point to completion (for start-up failures); resolves with its exit code and output. */
export function runToExit(app: string, env: Record<string, string>, timeoutMs = 30000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DIST_MAIN(app)], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningService {
  mode: ServiceMode;
  urls: { auth: string; audit: string; retrieval: string; workers: string };
  env: Record<string, string>;
  database: TestDatabase;
  /** Output of every process so far, for failure messages. */
  output(): string;
  /** Exit codes of the processes stopped so far (SIGTERM should give 0). */
  exitCodes(): (number | null)[];
  /** Process id of each running app (benchmarks read their CPU and memory). */
  pids(): Record<string, number>;
  stop(): Promise<void>;
  /** Stops every process and starts them again on the same data. */
  restart(): Promise<void>;
  /** Drops the test database or data directory. */
  destroy(): Promise<void>;
}

/**
 * Runs the built service the way users do: `standalone` on the embedded database, or the four
 * apps as separate processes on PostgreSQL and Redis (the distributed mode). Requires `npm run build`.
 */
export async function startService(mode: ServiceMode, extraEnv: Record<string, string> = {}): Promise<RunningService> {
  if (!existsSync(DIST_MAIN('standalone'))) throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
  const database = await createTestDatabase(mode === 'embedded' ? 'embedded' : 'postgres');
  const env: Record<string, string> = {};
  const urls = { auth: '', audit: '', retrieval: '', workers: '' };
  /** Fresh free ports (a port found free may be taken again before the app binds it: see launch's retry). */
  const configure = async () => {
    const ports = { auth: await freePort(), audit: await freePort(), retrieval: await freePort(), workers: await freePort() };
    Object.assign(env, {
      ...database.env,
      HOST: '127.0.0.1',
      PLATFORM_AUTH_PORT: String(ports.auth),
      AUDIT_PORT: String(ports.audit),
      RETRIEVAL_PORT: String(ports.retrieval),
      WORKERS_HEALTH_PORT: String(ports.workers),
      PUBLIC_AUTH_URL: `http://127.0.0.1:${ports.auth}`,
      PUBLIC_AUDIT_URL: `http://127.0.0.1:${ports.audit}`,
      PUBLIC_RETRIEVAL_URL: `http://127.0.0.1:${ports.retrieval}`,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      JOBS_POLL_INTERVAL_MS: '100',
      ...(mode === 'distributed' ? { REDIS_URL: TEST_REDIS_URL, JOBS_QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}` } : {}),
      ...extraEnv,
    });
    Object.assign(urls, {
      auth: `http://127.0.0.1:${ports.auth}`,
      audit: `http://127.0.0.1:${ports.audit}`,
      retrieval: `http://127.0.0.1:${ports.retrieval}`,
      workers: `http://127.0.0.1:${ports.workers}`,
    });
  };
  let processes: ChildProcess[] = [];
  let names: string[] = [];
  let log = '';
  const exits: (number | null)[] = [];

  const launch = async () => {
    const apps = mode === 'embedded' ? ['standalone'] : ['platform-auth', 'audit', 'retrieval', 'workers'];
    names = apps;
    processes = apps.map((app) => {
      const child = spawn(process.execPath, [DIST_MAIN(app)], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout?.on('data', (d: Buffer) => (log += `[${app}] ${d.toString()}`));
      child.stderr?.on('data', (d: Buffer) => (log += `[${app}] ${d.toString()}`));
      return child;
    });
    await waitUntilReady(Object.values(urls), processes, () => log);
  };
  const stop = async () => {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
            child.once('exit', (code) => {
              clearTimeout(timer);
              exits.push(code);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    processes = [];
  };
  // Another process (an outgoing connection's ephemeral port, say) can take a port between freePort()
  // and the app's listen: start again on new ports, up to three times.
  for (let attempt = 1; ; attempt += 1) {
    await configure();
    const logStart = log.length;
    try {
      await launch();
      break;
    } catch (error) {
      await stop();
      exits.length = 0;
      if (attempt < 3 && log.slice(logStart).includes('EADDRINUSE')) continue;
      await database.drop();
      throw error;
    }
  }
  return {
    mode,
    urls,
    env,
    database,
    output: () => log,
    exitCodes: () => [...exits],
    pids: () => Object.fromEntries(processes.map((p, i) => [names[i], p.pid ?? 0])),
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
    destroy: async () => {
      await stop();
      await database.drop();
    },
  };
}

async function waitUntilReady(urls: string[], processes: ChildProcess[], output: () => string): Promise<void> {
  const deadline = Date.now() + 60000;
  for (const url of urls) {
    for (;;) {
      const dead = processes.find((p) => p.exitCode !== null);
      if (dead) throw new Error(`A service process exited with ${dead.exitCode} during start:\n${output()}`);
      try {
        const res = await fetch(`${url}/health/ready`);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${url} not ready within 60 s:\n${output()}`);
      // A refused connection costs little: poll often, every start of every e2e file waits here.
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
