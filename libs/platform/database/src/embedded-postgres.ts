import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface EmbeddedConnection {
  /** Directory holding the `.s.PGSQL.5432` socket, as `pg` expects in `host`. */
  host: string;
  port: number;
  username: string;
  database: string;
}

const SOCKET_PORT = 5432;

/**
 * PGlite under `dataDir/pgdata`, served on a Unix socket from a worker thread. One process at a
 * time may own a data directory: a lock file with the owner's pid guards it.
 */
export class EmbeddedPostgres {
  private worker?: Worker;
  private lockFile: string;
  private starting?: Promise<EmbeddedConnection>;
  readonly connection: EmbeddedConnection;

  /** Started by `startEarly`, not yet taken by `forDataDir`. */
  private static readonly early = new Map<string, EmbeddedPostgres>();

  constructor(private readonly dataDir: string) {
    this.lockFile = join(dataDir, 'pglite.lock');
    this.connection = { host: socketDirFor(dataDir), port: SOCKET_PORT, username: 'postgres', database: 'postgres' };
  }

  /**
   * Starts the database of `dataDir` now, on its thread, for `Database.open` to take over (`forDataDir`): the
   * standalone calls it before loading the rest of the service, so the database starts (and, on a first start,
   * is created: seconds) while that thread loads modules. A failure (the directory in use) is reported by the
   * start that takes it over.
   */
  static startEarly(dataDir: string): void {
    if (EmbeddedPostgres.early.has(dataDir)) return;
    const embedded = new EmbeddedPostgres(dataDir);
    embedded.start().catch(() => undefined);
    EmbeddedPostgres.early.set(dataDir, embedded);
  }

  /** The database started early for `dataDir` (taken once), else a new one. */
  static forDataDir(dataDir: string): EmbeddedPostgres {
    const embedded = EmbeddedPostgres.early.get(dataDir);
    EmbeddedPostgres.early.delete(dataDir);
    return embedded ?? new EmbeddedPostgres(dataDir);
  }

  /** Starts the database thread once; later calls wait for the same start. */
  start(): Promise<EmbeddedConnection> {
    this.starting ??= this.launch();
    return this.starting;
  }

  private async launch(): Promise<EmbeddedConnection> {
    mkdirSync(this.dataDir, { recursive: true });
    this.acquireLock();
    mkdirSync(this.connection.host, { recursive: true, mode: 0o700 });
    const socketPath = join(this.connection.host, `.s.PGSQL.${SOCKET_PORT}`);
    rmSync(socketPath, { force: true });
    const worker = new Worker(join(__dirname, 'pglite-server.worker.cjs'), {
      workerData: { pgDataDir: join(this.dataDir, 'pgdata'), socketPath },
    });
    this.worker = worker;
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type === 'ready') resolve();
        if (message.type === 'error') reject(new Error(`Embedded database failed to start: ${message.message}`));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`Embedded database thread exited with code ${code}`)));
    });
    return this.connection;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    if (worker) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        worker.on('message', (m: { type: string }) => {
          if (m.type === 'stopped') {
            clearTimeout(timer);
            resolve();
          }
        });
        worker.postMessage('stop');
      });
      await worker.terminate();
    }
    this.releaseLock();
  }

  private acquireLock(): void {
    if (existsSync(this.lockFile)) {
      const owner = parseLock(readFileSync(this.lockFile, 'utf8'));
      if (owner && owner.pid !== process.pid && isSameProcess(owner)) {
        throw new Error(
          `DATA_DIR ${this.dataDir} is in use by process ${owner.pid}; stop it first or choose another DATA_DIR`,
        );
      }
    }
    writeFileSync(this.lockFile, JSON.stringify({ pid: process.pid, startTime: startTimeOf(process.pid) }));
  }

  private releaseLock(): void {
    if (existsSync(this.lockFile) && parseLock(readFileSync(this.lockFile, 'utf8'))?.pid === process.pid) {
      rmSync(this.lockFile, { force: true });
    }
  }
}

interface LockOwner {
  pid: number;
  startTime: string | null;
}

function parseLock(text: string): LockOwner | null {
  // Older lock files hold the bare pid.
  const bare = Number(text.trim());
  if (Number.isInteger(bare) && bare > 0) return { pid: bare, startTime: null };
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    return typeof value.pid === 'number' ? { pid: value.pid, startTime: value.startTime ?? null } : null;
  } catch {
    return null;
  }
}

/**
 * The lock's owner still runs: its pid is alive and, where /proc tells, started when the lock was
 * written. A pid reused after a crash or a container restart (often pid 1) is not the owner.
 */
function isSameProcess(owner: LockOwner): boolean {
  if (!isAlive(owner.pid)) return false;
  const now = startTimeOf(owner.pid);
  return owner.startTime === null || now === null || now === owner.startTime;
}

/** Start time of a process in clock ticks since boot (Linux /proc), or null elsewhere. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Unix socket paths are limited to ~107 bytes: use a short, stable directory under the temp dir. */
function socketDirFor(dataDir: string): string {
  const hash = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return join(tmpdir(), `docaudit-pg-${hash}`);
}
