import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap, OnModuleDestroy, Type } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { ThrottledWarning } from '@svc/kernel';
import { withTimeout } from './bullmq-connection';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { MAX_MAX_ATTEMPTS } from './enqueue-options';
import type { JobExecutor } from './job-executor';
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

export interface BullMqWorkerSettings {
  /** Jobs run at once per queue. */
  concurrency: number;
  /** BullMQ's lock duration: a job whose worker stops renewing it is redelivered after this. */
  leaseSeconds: number;
  backoff?: BackoffOptions;
}

/**
 * What a BullMQ delivery does, whatever its queue. Each delivery claims the row first: a finished row
 * means a redelivery after a crash, acknowledged without running the handler. The JobExecutor then
 * runs and records the attempt (the handler is found by the job's name), and its outcome is
 * translated for BullMQ: retry after the row's delay, fail for good, or put back (shutdown). Rows, not
 * BullMQ, count attempts, so stalls (killed workers) count too and BullMQ never gives up before the row
 * does. At shutdown (module destroy, before `@nestjs/bullmq` closes the workers) running handlers'
 * signals are aborted, so their jobs are put back instead of being waited for.
 */
export class BullMqDelivery implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('BullMqDelivery');
  readonly warning = new ThrottledWarning(this.logger);
  private readonly shutdown = new AbortController();
  private running = 0;
  private readonly hosts: WorkerHost[] = [];
  private bootstrapped!: () => void;
  /** Deliveries wait for the application's bootstrap: every handler is registered by then. */
  private readonly ready = new Promise<void>((resolve) => (this.bootstrapped = resolve));

  constructor(
    private readonly table: JobTable,
    private readonly executor: JobExecutor,
    private readonly timeoutMs: number,
  ) {}

  /** Called by each queue's processor, so shutdown can close its worker. */
  attach(host: WorkerHost): void {
    this.hosts.push(host);
  }

  onApplicationBootstrap(): void {
    this.bootstrapped();
  }

  onModuleDestroy(): void {
    this.shutdown.abort(new Error('The process is shutting down'));
    if (this.running > 0) this.logger.warn(`Stopping with ${this.running} running job(s): they are put back for another worker`);
  }

  /**
   * Closes the workers before `@nestjs/bullmq` does (it closes them gracefully, which waits for ever
   * when Redis was never reached). With nothing running, a forced close returns at once; otherwise
   * the aborted handlers get the shutdown timeout to hand their jobs back.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const workers = this.hosts.flatMap((host) => {
      try {
        return [host.worker];
      } catch {
        return []; // not started (the explorer never reached it)
      }
    });
    if (this.running === 0) {
      await Promise.allSettled(workers.map((worker) => worker.close(true)));
      return;
    }
    try {
      await withTimeout(Promise.all(workers.map((worker) => worker.close())), this.timeoutMs, 'timeout');
    } catch {
      // BullMQ cannot turn a graceful close into a forced one: force it, BullMQ redelivers the jobs.
      this.logger.warn(`Abandoned ${this.running} running job(s) at shutdown; BullMQ will redeliver them`);
      await Promise.allSettled(workers.map((worker) => worker.close(true)));
    }
  }

  async process(job: Job, token?: string): Promise<void> {
    await this.ready;
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

/**
 * The `@nestjs/bullmq` processor of one queue (a context's jobs), with the worker options the rows'
 * retry policy needs: BullMQ's lock is the lease, its stall count never gives up before the row, and
 * its backoff is the delay the executor wrote into the row.
 */
export function jobProcessor(queue: string, settings: BullMqWorkerSettings): Type<WorkerHost> {
  const backoff = settings.backoff ?? DEFAULT_BACKOFF;
  @Processor(queue, {
    concurrency: settings.concurrency,
    lockDuration: settings.leaseSeconds * 1000,
    stalledInterval: settings.leaseSeconds * 1000,
    // Stalls are counted as attempts by the row, which fails the job itself when they run out.
    maxStalledCount: MAX_MAX_ATTEMPTS,
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) =>
        error instanceof RetryLaterError ? error.delayMs : backoffDelayMs(attemptsMade, backoff),
    },
  })
  class QueueProcessor extends WorkerHost {
    constructor(private readonly delivery: BullMqDelivery) {
      super();
      delivery.attach(this);
    }

    process(job: Job, token?: string): Promise<void> {
      return this.delivery.process(job, token);
    }

    @OnWorkerEvent('error')
    onError(error: Error): void {
      this.delivery.warning.warn(`BullMQ worker "${queue}": ${error.message}`);
    }
  }
  Object.defineProperty(QueueProcessor, 'name', { value: `JobProcessor_${queue.replace(/[^A-Za-z0-9]/g, '_')}` });
  return QueueProcessor;
}
