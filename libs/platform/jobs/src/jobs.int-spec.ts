import { randomBytes } from 'node:crypto';
import { Database } from '@svc/database';
import { DomainError } from '@svc/kernel';
import { queueOf } from '@svc/contracts';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { Queue } from 'bullmq';
import { loadConfig } from '@svc/config';
import { deleteRedisPrefix, HandlerDeps, JobsTestApp, startJobsApp, TEST_PARTS, waitFor } from '../test-fixtures/jobs-test-app';
import type { JobFailure } from './job-handler.registry';
import type { JobView } from './job-store';
import { JobTable, type JobState } from './job-table';

interface Setup {
  label: string;
  db: TestDatabaseMode;
  bullmq: boolean;
}

const SETUPS: Setup[] = [
  { label: 'embedded database, database jobs', db: 'embedded', bullmq: false },
  { label: 'PostgreSQL, database jobs', db: 'postgres', bullmq: false },
  { label: 'PostgreSQL, BullMQ jobs', db: 'postgres', bullmq: true },
  { label: 'embedded database, BullMQ jobs', db: 'embedded', bullmq: true },
];

interface EffectPayload {
  /** Attempts (1-based) that insert their effect and then throw. */
  failOn?: number[];
  progress?: [number, string];
}

/** Handlers shared by every setup, with what they saw recorded in memory. */
class TestHandlers {
  readonly attemptStarts = new Map<string, number[]>();
  readonly gates = new Map<string, () => void>();
  readonly started = new Set<string>();
  /** `test.ordered` jobs' tags, in the order they started. */
  readonly startOrder: string[] = [];
  /** Failure hook calls: payload tag → the errors it was given. */
  readonly gaveUp = new Map<string, string[]>();
  private readonly recordGiveUp = async (payload: { tag?: string }, failure: JobFailure) => {
    this.gaveUp.set(payload.tag ?? '', [...(this.gaveUp.get(payload.tag ?? '') ?? []), failure.message]);
  };

  register({ registry, unitOfWork }: HandlerDeps): void {
    registry.register<EffectPayload>('test.effect', async (payload, ctx) => {
      await unitOfWork.manager().query('INSERT INTO jobs_test.effects (job_id, attempt, pid) VALUES ($1, $2, $3)', [
        ctx.jobId,
        ctx.attempt,
        process.pid,
      ]);
      if (payload.progress) await ctx.progress(payload.progress[0], payload.progress[1]);
      if (payload.failOn?.includes(ctx.attempt)) throw new Error(`planned failure of attempt ${ctx.attempt}`);
    });
    registry.register<{ tag?: string }>(
      'test.always-fails',
      async (_payload, ctx) => {
        this.attemptStarts.set(ctx.jobId, [...(this.attemptStarts.get(ctx.jobId) ?? []), Date.now()]);
        throw new Error(`boom ${ctx.attempt}\nwith a second line`);
      },
      { onFailed: this.recordGiveUp },
    );
    registry.register<{ tag?: string }>(
      'test.invalid',
      async () => {
        throw DomainError.invalid('TEST.BAD_INPUT', 'The payload makes no sense.');
      },
      { onFailed: this.recordGiveUp },
    );
    registry.register<{ tag: string }>('test.ordered', async (payload) => {
      this.startOrder.push(payload.tag);
      await new Promise((r) => setTimeout(r, 40));
    });
    registry.register('test.gated', async (_payload, ctx) => {
      await ctx.progress(40, 'halfway');
      await new Promise<void>((resolve) => this.gates.set(ctx.jobId, resolve));
    });
    registry.register('test.abortable', async (_payload, ctx) => {
      this.started.add(ctx.jobId);
      await new Promise<void>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted by shutdown')), { once: true });
      });
    });
  }
}

async function settled(app: JobsTestApp, id: string, timeoutMs = 20000): Promise<JobView> {
  return waitFor(
    async () => {
      const view = await app.store.get(id);
      return view && (view.state === 'completed' || view.state === 'failed') ? view : undefined;
    },
    timeoutMs,
    `job ${id} to finish`,
  );
}

async function effects(app: JobsTestApp, id: string): Promise<{ attempt: number }[]> {
  return app.unitOfWork.manager().query('SELECT attempt FROM jobs_test.effects WHERE job_id = $1 ORDER BY attempt', [id]);
}

describe.each(SETUPS)('Jobs platform ($label)', ({ db, bullmq }) => {
  let testDb: TestDatabase;
  let app: JobsTestApp;
  const handlers = new TestHandlers();
  const prefix = `jobs-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    testDb = await createTestDatabase(db);
    const env = { ...testDb.env, JOBS_POLL_INTERVAL_MS: '50', JOBS_LEASE_SECONDS: '5', ...(bullmq ? { REDIS_URL: TEST_REDIS_URL } : {}) };
    app = await startJobsApp(env, { runWorkers: true, queuePrefix: prefix }, (deps) => handlers.register(deps));
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
    if (bullmq) await deleteRedisPrefix(TEST_REDIS_URL, prefix);
  });

  it('leaves no job behind an enqueue whose transaction rolled back', async () => {
    let rolledBack = '';
    await expect(
      app.unitOfWork.run(async () => {
        rolledBack = await app.queue.enqueueUntyped('test.effect', {});
        throw new Error('the use case failed after enqueueing');
      }),
    ).rejects.toThrow('the use case failed');
    expect(rolledBack).toMatch(/^job_/);
    expect(await app.store.get(rolledBack)).toBeNull();
    // A job enqueued afterwards runs; by then the runner would have seen the first one too.
    const later = await app.queue.enqueueUntyped('test.effect', {});
    expect((await settled(app, later)).state).toBe('completed');
    expect(await effects(app, rolledBack)).toEqual([]);
  });

  it('runs a committed job once, its effect committed together with its completion', async () => {
    const id = await app.unitOfWork.run(async () => {
      await app.unitOfWork.manager().query(`INSERT INTO jobs_test.things VALUES ('thing-1')`);
      return app.queue.enqueueUntyped('test.effect', {});
    });
    const view = await settled(app, id);
    expect(view).toMatchObject({ id, name: 'test.effect', state: 'completed', attempts: 1, progress: 100, lastError: null });
    expect(view.completedAt).toBeInstanceOf(Date);
    expect(view.createdAt.getTime()).toBeLessThanOrEqual(view.completedAt!.getTime());
    expect(await effects(app, id)).toEqual([{ attempt: 1 }]);
  });

  it("rolls back a failed attempt's effect, so the retry's effect is the only one", async () => {
    const id = await app.queue.enqueueUntyped('test.effect', { failOn: [1] });
    const view = await settled(app, id);
    expect(view).toMatchObject({ state: 'completed', attempts: 2, lastError: null });
    expect(await effects(app, id)).toEqual([{ attempt: 2 }]);
  });

  it('retries a failing job with growing delays, then fails it after its last attempt', async () => {
    const tag = randomBytes(6).toString('hex');
    const id = await app.queue.enqueueUntyped('test.always-fails', { tag }, { maxAttempts: 3 });
    const view = await settled(app, id);
    expect(view).toMatchObject({ state: 'failed', attempts: 3, lastError: 'boom 3 with a second line', completedAt: null });
    // The owner of the work hears of the give-up once, after the last attempt only.
    await waitFor(async () => handlers.gaveUp.get(tag), 5000, 'the failure hook');
    await new Promise((r) => setTimeout(r, 300)); // room for a second call, which must not come
    expect(handlers.gaveUp.get(tag)).toEqual(['boom 3 with a second line']);
    const starts = handlers.attemptStarts.get(id)!;
    expect(starts).toHaveLength(3);
    // Equal jitter: the first retry waits 0.5-1 s, the second 1-2 s (minus timer granularity).
    expect(starts[1] - starts[0]).toBeGreaterThanOrEqual(450);
    expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(950);
  });

  it('fails a job at once when its input is invalid', async () => {
    const tag = randomBytes(6).toString('hex');
    const id = await app.queue.enqueueUntyped('test.invalid', { tag });
    expect(await settled(app, id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'TEST.BAD_INPUT: The payload makes no sense.',
    });
    await waitFor(async () => handlers.gaveUp.get(tag), 5000, 'the failure hook');
    await new Promise((r) => setTimeout(r, 300)); // room for a second call, which must not come
    expect(handlers.gaveUp.get(tag)).toEqual(['TEST.BAD_INPUT: The payload makes no sense.']);
  });

  it('records progress, readable through the JobStore', async () => {
    const id = await app.queue.enqueueUntyped('test.effect', { progress: [40, 'halfway there'] });
    expect(await settled(app, id)).toMatchObject({ state: 'completed', progress: 100, progressMessage: 'halfway there' });
  });

  if (db === 'postgres') {
    it('shows progress while the job runs (on its own connection)', async () => {
      const id = await app.queue.enqueueUntyped('test.gated', {});
      const running = await waitFor(async () => {
        const view = await app.store.get(id);
        return view?.progress === 40 ? view : undefined;
      });
      expect(running).toMatchObject({ state: 'running', progress: 40, progressMessage: 'halfway', attempts: 1 });
      if (bullmq) {
        const queue = new Queue(queueOf('test.gated'), { connection: { url: TEST_REDIS_URL }, prefix });
        try {
          expect((await queue.getJob(id))?.progress).toBe(40);
        } finally {
          await queue.close();
        }
      }
      handlers.gates.get(id)!();
      expect(await settled(app, id)).toMatchObject({ state: 'completed', progress: 100 });
    });
  }

  it('enqueues a job once per live dedupe key', async () => {
    const first = await app.queue.enqueueUntyped('test.unhandled', { n: 1 }, { dedupeKey: 'report-1', delayMs: 60000 });
    const second = await app.queue.enqueueUntyped('test.unhandled', { n: 2 }, { dedupeKey: 'report-1' });
    const inTransaction = await app.unitOfWork.run(() => app.queue.enqueueUntyped('test.unhandled', {}, { dedupeKey: 'report-1' }));
    const other = await app.queue.enqueueUntyped('test.unhandled', {}, { dedupeKey: 'report-2', delayMs: 60000 });
    expect(second).toBe(first);
    expect(inTransaction).toBe(first);
    expect(other).not.toBe(first);
    expect((await app.store.list({ name: 'test.unhandled' })).map((j) => j.id).sort()).toEqual([first, other].sort());
  });

  it('accepts a dedupe key again once its job has finished', async () => {
    const first = await app.queue.enqueueUntyped('test.effect', {}, { dedupeKey: 'nightly' });
    await settled(app, first);
    const second = await app.queue.enqueueUntyped('test.effect', {}, { dedupeKey: 'nightly' });
    expect(second).not.toBe(first);
    expect((await settled(app, second)).state).toBe('completed');
  });

  it('lists jobs newest first, by name and state', async () => {
    const failed = await app.store.list({ state: 'failed' });
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed.every((j) => j.state === 'failed')).toBe(true);
    const effectJobs = await app.store.list({ name: 'test.effect', limit: 3 });
    expect(effectJobs).toHaveLength(3);
    const times = effectJobs.map((j) => j.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await app.store.list({ name: 'test.effect', state: 'queued' as JobState })).toEqual([]);
  });

  it('runs an interactive job before the background jobs queued before it', async () => {
    handlers.startOrder.length = 0;
    // One commit, background first: what a person's question meets after a large ingestion.
    const ids = await app.unitOfWork.run(async () => {
      const out: string[] = [];
      for (let i = 0; i < 8; i++) out.push(await app.queue.enqueueUntyped('test.ordered', { tag: `background-${i}` }));
      out.push(await app.queue.enqueueUntyped('test.ordered', { tag: 'interactive' }, { priority: 'interactive' }));
      return out;
    });
    for (const id of ids) expect((await settled(app, id)).state).toBe('completed');
    // The relay hands interactive rows to BullMQ first, and BullMQ runs them first; the database runner claims by rank
    // (two workers start at once: the other may begin a moment before).
    expect(handlers.startOrder.indexOf('interactive')).toBeLessThanOrEqual(1);
    expect(handlers.startOrder).toHaveLength(9);
  });

  it('refuses malformed enqueues with an invalid DomainError', async () => {
    await expect(app.queue.enqueueUntyped('Not A Name', {})).rejects.toMatchObject({ kind: 'invalid', code: 'JOBS.INVALID_NAME' });
    await expect(app.queue.enqueueUntyped('test.effect', {}, { maxAttempts: 0 })).rejects.toMatchObject({ code: 'JOBS.INVALID_OPTIONS' });
  });

  // Last: it shuts the app down.
  it('hands a running job back at shutdown without spending an attempt', async () => {
    const id = await app.queue.enqueueUntyped('test.abortable', {});
    await waitFor(async () => (handlers.started.has(id) ? true : undefined));
    await app.close();
    const reopened = await Database.open(loadConfig(testDb.env), TEST_PARTS);
    try {
      const [row] = await reopened.dataSource.query('SELECT state, attempts, locked_by FROM jobs.jobs WHERE id = $1', [id]);
      expect(row).toEqual({ state: 'queued', attempts: 0, locked_by: null });
    } finally {
      await reopened.close();
    }
  });
});

describe.each<TestDatabaseMode>(['embedded', 'postgres'])('Claim order (%s database)', (mode) => {
  let testDb: TestDatabase;
  let app: JobsTestApp;

  beforeAll(async () => {
    testDb = await createTestDatabase(mode);
    // No workers: the test claims itself.
    app = await startJobsApp(testDb.env, { runWorkers: false, queuePrefix: 'unused' });
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it('claims interactive jobs ahead of recent background jobs, never ahead of background jobs waiting longer than the lead', async () => {
    const table = new JobTable(app.unitOfWork, app.database.dataSource);
    const enqueue = (tag: string, priority?: 'interactive' | 'background') => app.unitOfWork.run(() => app.queue.enqueueUntyped('test.claim-order', { tag }, priority ? { priority } : {}));
    const old = await enqueue('waited 11 minutes');
    // As if it had been enqueued 11 minutes ago (its rank is its due time: a background job).
    await app.unitOfWork.run(() => app.unitOfWork.manager().query(`UPDATE jobs.jobs SET run_at = now() - interval '11 minutes', rank_at = now() - interval '11 minutes' WHERE id = $1`, [old]));
    await enqueue('background');
    await enqueue('interactive', 'interactive');
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const row = await app.unitOfWork.run(() => table.claimNext(['test.claim-order'], `lock-${i}`, 30));
      order.push((row?.payload as { tag: string }).tag);
    }
    expect(order).toEqual(['waited 11 minutes', 'interactive', 'background']);
    await expect(app.queue.enqueueUntyped('test.claim-order', {}, { priority: 'urgent' as 'interactive' })).rejects.toMatchObject({ code: 'JOBS.INVALID_OPTIONS' });
  });
});

describe('BullMQ jobs while Redis is unreachable', () => {
  let testDb: TestDatabase;
  const apps: JobsTestApp[] = [];
  const prefix = `jobs-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await testDb?.drop();
    await deleteRedisPrefix(TEST_REDIS_URL, prefix);
  });

  it('keeps the job in the outbox, and runs it once Redis is reachable', async () => {
    const common = { ...testDb.env, JOBS_POLL_INTERVAL_MS: '50' };
    const ran: string[] = [];
    const register = ({ registry }: HandlerDeps) =>
      registry.register('test.effect', async (_payload, ctx) => {
        ran.push(ctx.jobId);
      });
    // Nothing listens on port 1: every Redis call of this app fails.
    const offline = await startJobsApp({ ...common, REDIS_URL: 'redis://127.0.0.1:1' }, { runWorkers: true, queuePrefix: prefix }, register);
    apps.push(offline);
    const id = await offline.unitOfWork.run(() => offline.queue.enqueueUntyped('test.effect', {}));
    await new Promise((r) => setTimeout(r, 2500));
    const [row] = await offline.database.dataSource.query('SELECT state, relayed_at FROM jobs.jobs WHERE id = $1', [id]);
    expect(row).toEqual({ state: 'queued', relayed_at: null });

    // Redis "comes back": a relay and worker that can reach it pick the row up.
    const online = await startJobsApp({ ...common, REDIS_URL: TEST_REDIS_URL }, { runWorkers: true, queuePrefix: prefix }, register);
    apps.push(online);
    expect(await settled(online, id)).toMatchObject({ state: 'completed', attempts: 1 });
    expect(ran).toEqual([id]);
    await offline.close();
  });
});

describe('JOBS_ENABLED=false', () => {
  it('enqueues without processing', async () => {
    const testDb = await createTestDatabase('postgres');
    let ran = false;
    const app = await startJobsApp({ ...testDb.env, JOBS_ENABLED: 'false', JOBS_POLL_INTERVAL_MS: '20' }, {}, ({ registry }) =>
      registry.register('test.effect', async () => {
        ran = true;
      }),
    );
    try {
      const id = await app.queue.enqueueUntyped('test.effect', {});
      await new Promise((r) => setTimeout(r, 300));
      expect((await app.store.get(id))?.state).toBe('queued');
      expect(ran).toBe(false);
    } finally {
      await app.close();
      await testDb.drop();
    }
  });
});

describe.each(SETUPS.slice(0, 3))('Wake-up after a local enqueue commits ($label)', ({ db, bullmq }) => {
  it('starts the job long before the next poll', async () => {
    const testDb = await createTestDatabase(db);
    const prefix = `jobs-test-${randomBytes(4).toString('hex')}`;
    // A minute between polls: only the commit signal can start the job within the test.
    const env = { ...testDb.env, JOBS_POLL_INTERVAL_MS: '60000', ...(bullmq ? { REDIS_URL: TEST_REDIS_URL } : {}) };
    const app = await startJobsApp(env, { queuePrefix: prefix }, ({ registry }) => registry.register('test.effect', async () => undefined));
    try {
      const id = await app.unitOfWork.run(() => app.queue.enqueueUntyped('test.effect', {}));
      // Ten seconds to finish, against a minute to the next poll.
      expect((await settled(app, id, 10000)).state).toBe('completed');
    } finally {
      await app.close();
      await testDb.drop();
      if (bullmq) await deleteRedisPrefix(TEST_REDIS_URL, prefix);
    }
  });
});
