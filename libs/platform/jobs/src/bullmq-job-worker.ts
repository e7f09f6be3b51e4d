import { ThrottledWarning } from '@svc/kernel';
import { Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError, Worker } from 'bullmq';
import { withTimeout } from './bullmq-connection';
import { MAX_MAX_ATTEMPTS } from './enqueue-options';
import type { JobExecutor } from './job-executor';
import type { JobHandlerRegistry } from './job-handler.registry';
import type { JobTable } from './job-table';
import { newLockToken } from './lock-token';
import { BackoffOptions, backoffDelayMs, DEFAULT_BACKOFF, describeFailure } from './retry-policy';

/** Delay before a delivery whose row could not be reached is tried again. */
const INFRASTRUCTURE_RETRY_MS = 5000;

/** The backoff type the relay sets on BullMQ jobs: "use the delay the row was given". */
export const ROW_BACKOFF_TYPE = 'jobs-row';

/** A failure to retry after the delay the executor already wrote into the row. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

export interface BullMqJobWorkerOptions {
  redisUrl: string;
  /** Redis key prefix of the queues (one queue per job name). */
  prefix: string;
  /** Jobs run at once per queue. */
  concurrency: number;
  /** BullMQ's lock duration: a job whose worker stops renewing it is redelivered after this. */
  leaseSeconds: number;
  backoff?: BackoffOptions;
}

/**
 * BullMQ workers, one per registered job name (the queue carries the name). Each delivery claims the
 * row first: a finished row means a redelivery after a crash, acknowledged without running the
 * handler. The JobExecutor then runs and records the attempt, and its outcome is translated for
 * BullMQ: retry after the row's delay, fail for good, or put back (shutdown). Rows, not BullMQ, count
 * attempts, so stalls (killed workers) count too and BullMQ never gives up before the row does.
 */
export class BullMqJobWorker {
  private readonly logger = new Logger('BullMqJobWorker');
  private readonly warning = new ThrottledWarning(this.logger);
  private readonly workers = new Map<string, Worker>();
  private readonly shutdown = new AbortController();
  private running = 0;
  private unlisten?: () => void;

  constructor(
    private readonly table: JobTable,
    private readonly executor: JobExecutor,
    private readonly registry: JobHandlerRegistry,
    private readonly options: BullMqJobWorkerOptions,
  ) {}

  /** Starts a worker for every registered job name, and for names registered later. */
  start(): void {
    if (this.unlisten || this.shutdown.signal.aborted) return;
    for (const { name } of this.registry.all()) this.startWorker(name);
    this.unlisten = this.registry.onRegister(({ name }) => this.startWorker(name));
  }

  /**
   * Aborts running handlers' signals and closes the workers, waiting up to `timeoutMs` for running
   * jobs. Jobs still running then are abandoned: BullMQ redelivers them once their lock expires.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.shutdown.abort(new Error('The process is shutting down'));
    this.unlisten?.();
    const workers = [...this.workers.values()];
    this.workers.clear();
    if (this.running === 0) {
      // Nothing to wait for. A forced close also returns when Redis was never reached, where a
      // graceful one would wait for the connection forever.
      await Promise.allSettled(workers.map((w) => w.close(true)));
      return;
    }
    try {
      await withTimeout(Promise.all(workers.map((w) => w.close())), timeoutMs, 'timeout');
    } catch {
      // BullMQ cannot turn a graceful close into a forced one; leave it to finish on its own.
      this.logger.warn(`Abandoned ${this.running} running job(s) at shutdown; BullMQ will redeliver them`);
    }
  }

  private startWorker(name: string): void {
    if (this.workers.has(name) || this.shutdown.signal.aborted) return;
    const { backoff = DEFAULT_BACKOFF } = this.options;
    const worker = new Worker(name, (job, token) => this.process(job, token), {
      connection: { url: this.options.redisUrl },
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
      lockDuration: this.options.leaseSeconds * 1000,
      stalledInterval: this.options.leaseSeconds * 1000,
      // Stalls are counted as attempts by the row, which fails the job itself when they run out.
      maxStalledCount: MAX_MAX_ATTEMPTS,
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) =>
          error instanceof RetryLaterError ? error.delayMs : backoffDelayMs(attemptsMade, backoff),
      },
    });
    worker.on('error', (error) => this.warning.warn(`BullMQ worker "${name}": ${error.message}`));
    this.workers.set(name, worker);
  }

  private async process(job: Job, token?: string): Promise<void> {
    try {
      await this.attempt(job, token);
    } catch (error) {
      if (error instanceof RetryLaterError || error instanceof UnrecoverableError || error instanceof DelayedError) throw error;
      // The row could not be claimed or the outcome not recorded (the database is unreachable). Come
      // back later without spending a BullMQ attempt: the row keeps the count and decides when to stop.
      this.warning.warn(`Job ${job.name} ${job.id ?? ''} postponed: ${describeFailure(error)}`);
      if (!token) throw error;
      await job.moveToDelayed(Date.now() + INFRASTRUCTURE_RETRY_MS, token);
      throw new DelayedError();
    }
  }

  private async attempt(job: Job, token?: string): Promise<void> {
    const id = job.id;
    if (!id) return;
    const lockToken = newLockToken();
    const row = await this.table.claimDelivery(id, lockToken);
    // Completed or failed already (a redelivery after a crash), or unknown: the effect must not repeat.
    if (!row) return;
    this.running += 1;
    const attempt = new AbortController();
    const onShutdown = () => attempt.abort(this.shutdown.signal.reason);
    this.shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    if (this.shutdown.signal.aborted) onShutdown();
    try {
      const outcome = await this.executor.execute(row, lockToken, {
        signal: attempt.signal,
        onProgress: (percent) => job.updateProgress(percent),
      });
      switch (outcome.kind) {
        case 'completed':
        case 'lost':
          return;
        case 'failed':
          throw new UnrecoverableError(outcome.error);
        case 'retry':
          throw new RetryLaterError(outcome.error, outcome.delayMs);
        case 'released':
          // Back to BullMQ without spending one of its attempts; the row is queued again already.
          if (token) {
            await job.moveToDelayed(Date.now() + 1000, token);
            throw new DelayedError();
          }
          throw new RetryLaterError('Interrupted by shutdown', 1000);
      }
    } finally {
      this.shutdown.signal.removeEventListener('abort', onShutdown);
      this.running -= 1;
    }
  }
}
