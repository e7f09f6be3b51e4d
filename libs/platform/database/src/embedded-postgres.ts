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
  readonly connection: EmbeddedConnection;

  constructor(private readonly dataDir: string) {
    this.lockFile = join(dataDir, 'pglite.lock');
    this.connection = { host: socketDirFor(dataDir), port: SOCKET_PORT, username: 'postgres', database: 'postgres' };
  }

  async start(): Promise<EmbeddedConnection> {
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
      const pid = Number(readFileSync(this.lockFile, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `DATA_DIR ${this.dataDir} is in use by process ${pid}; stop it first or choose another DATA_DIR`,
        );
      }
    }
    writeFileSync(this.lockFile, String(process.pid));
  }

  private releaseLock(): void {
    if (existsSync(this.lockFile) && Number(readFileSync(this.lockFile, 'utf8')) === process.pid) {
      rmSync(this.lockFile, { force: true });
    }
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
