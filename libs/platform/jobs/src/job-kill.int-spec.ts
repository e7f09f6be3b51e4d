import { ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { loadConfig } from '@svc/config';
import { Database } from '@svc/database';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { deleteRedisPrefix, startJobsApp, TEST_PARTS } from '../test-fixtures/jobs-test-app';

const FIXTURES = join(__dirname, '..', 'test-fixtures');
const WORKSPACE_ROOT = join(__dirname, '..', '..', '..', '..');

/** A worker process running test-fixtures/kill-test-child.ts, with its output collected by line. */
class ChildWorker {
  readonly exited: Promise<number | null>;
  private readonly lines: string[] = [];
  private output = '';
  private readonly waiters: (() => void)[] = [];

  constructor(readonly process: ChildProcessByStdio<null, Readable, Readable>) {
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
      const parts = this.output.split('\n');
      this.output = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const wake of this.waiters.splice(0)) wake();
    };
    process.stdout.on('data', collect);
    process.stderr.on('data', collect);
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
  }

  static start(env: NodeJS.ProcessEnv): ChildWorker {
    const child = spawn(process.execPath, ['-r', join(FIXTURES, 'swc-register.cjs'), join(FIXTURES, 'kill-test-child.ts')], {
      cwd: WORKSPACE_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ChildWorker(child);
  }

  /** The first output line starting with `prefix`; rejects if the child exits or time runs out first. */
  async line(prefix: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => {
      exited = true;
      for (const wake of this.waiters.splice(0)) wake();
    });
    for (;;) {
      const found = this.lines.find((l) => l.startsWith(prefix));
      if (found) return found;
      if (exited) throw new Error(`Child exited before printing "${prefix}":\n${this.lines.join('\n')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for "${prefix}":\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  kill(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
  }
}

interface KillSetup {
  label: string;
  db: TestDatabaseMode;
  bullmq: boolean;
}

const KILL_SETUPS: KillSetup[] = [
  { label: 'embedded database, database jobs', db: 'embedded', bullmq: false },
  { label: 'PostgreSQL, BullMQ jobs', db: 'postgres', bullmq: true },
  { label: 'PostgreSQL, database jobs', db: 'postgres', bullmq: false },
];

describe.each(KILL_SETUPS)('A worker killed in the middle of a job ($label)', ({ db, bullmq }) => {
  let testDb: TestDatabase;
  const children: ChildWorker[] = [];
  const prefix = `jobs-kill-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    testDb = await createTestDatabase(db);
  });

  afterAll(async () => {
    for (const child of children) {
      child.kill();
      await child.exited;
    }
    await testDb?.drop();
    if (bullmq) await deleteRedisPrefix(TEST_REDIS_URL, prefix);
  });

  it('leaves no trace of the killed attempt: the job completes and its effect exists once', async () => {
    const env: NodeJS.ProcessEnv = {
      ...withoutAppSettings(process.env),
      ...testDb.env,
      JOBS_LEASE_SECONDS: '5',
      JOBS_POLL_INTERVAL_MS: '100',
      KILL_TEST_QUEUE_PREFIX: prefix,
      ...(bullmq ? { REDIS_URL: TEST_REDIS_URL } : {}),
    };

    // Enqueue from this process, then let go: the embedded database has one owning process at a time.
    const producer = await startJobsApp({ ...env, JOBS_ENABLED: 'false' }, { runWorkers: false, queuePrefix: prefix });
    const jobId = await producer.unitOfWork.run(() => producer.queue.enqueueUntyped('killtest.effect', {}));
    await producer.close();

    const doomed = ChildWorker.start({ ...env, KILL_TEST_BEHAVIOUR: 'hang' });
    children.push(doomed);
    await doomed.line(`started ${jobId}`, 60000);
    doomed.kill();
    expect(await doomed.exited).toBeNull();

    const survivor = ChildWorker.start({ ...env, KILL_TEST_BEHAVIOUR: 'finish', KILL_TEST_JOB_ID: jobId });
    children.push(survivor);
    expect(await survivor.line('finished', 60000)).toBe('finished completed');
    expect(await survivor.exited).toBe(0);

    const database = await Database.open(loadConfig(testDb.env), TEST_PARTS);
    try {
      const jobs = await database.dataSource.query('SELECT state, attempts FROM jobs.jobs WHERE id = $1', [jobId]);
      expect(jobs).toEqual([{ state: 'completed', attempts: 2 }]);
      const effects = await database.dataSource.query('SELECT attempt, pid FROM jobs_test.effects WHERE job_id = $1', [jobId]);
      expect(effects).toEqual([{ attempt: 2, pid: survivor.process.pid }]);
    } finally {
      await database.close();
    }
  }, 120000);
});

/** The parent's environment without settings that would point a child at another database or Redis. */
function withoutAppSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const key of ['DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'AUTH_SECRET', 'JOBS_ENABLED']) delete copy[key];
  return copy;
}
