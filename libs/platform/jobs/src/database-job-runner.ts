import { Logger } from '@nestjs/common';
import type { EnqueueSignal } from './enqueue-signal';
import type { JobExecutor } from './job-executor';
import type { JobHandlerRegistry } from './job-handler.registry';
import type { JobRow, JobTable } from './job-table';
import { newLockToken } from './lock-token';
import { describeFailure } from './retry-policy';

export interface DatabaseJobRunnerOptions {
  /** Claim loops; each runs one job at a time. */
  concurrency: number;
  pollIntervalMs: number;
  leaseSeconds: number;
  /**
   * Renew a running job's lease on a pooled connection. Off for the embedded database: its single
   * connection is held by the handler's transaction (a renewal would wait for it), and its one
   * process and one loop mean nobody else can claim the job anyway.
   */
  renewLeases: boolean;
  /** Requeue jobs left running by a dead process before the first claim (embedded database only). */
  releaseOrphansOnStart: boolean;
}

/**
 * Processes jobs straight from `jobs.jobs`: each loop claims one due job (SKIP LOCKED, with a lease),
 * runs it through the JobExecutor, and claims the next; when nothing is due it sleeps for the poll
 * interval or until this process enqueues something. A job whose worker died is claimed again once
 * its lease has expired.
 */
export class DatabaseJobRunner {
  private readonly logger = new Logger('DatabaseJobRunner');
  private readonly shutdown = new AbortController();
  private readonly wakers = new Set<() => void>();
  private loops: Promise<void>[] = [];
  private started = false;
  private running = 0;
  private unlisten?: () => void;

  constructor(
    private readonly table: JobTable,
    private readonly executor: JobExecutor,
    private readonly registry: JobHandlerRegistry,
    private readonly signal: EnqueueSignal,
    private readonly options: DatabaseJobRunnerOptions,
  ) {}

  /** Starts the claim loops (once). Resolves when they run, not when they end. */
  async start(): Promise<void> {
    if (this.started || this.shutdown.signal.aborted) return;
    this.started = true;
    if (this.options.releaseOrphansOnStart) {
      const released = await this.table.releaseOrphans();
      if (released > 0) this.logger.warn(`Requeued ${released} job(s) left running by a stopped process`);
    }
    this.unlisten = this.signal.listen(() => this.wake());
    for (let i = 0; i < this.options.concurrency; i += 1) this.loops.push(this.loop());
  }

  /** Ends a sleeping loop's wait at once (a job was just enqueued here). */
  wake(): void {
    for (const waker of [...this.wakers]) waker();
  }

  /**
   * Stops claiming, aborts running handlers' signals and waits up to `timeoutMs` for them. A handler
   * still running then is abandoned: its transaction never commits, and the job runs again once its
   * lease expires (at the next start, for the embedded database).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.shutdown.abort(new Error('The process is shutting down'));
    this.unlisten?.();
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.all(this.loops).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!finished) this.logger.warn(`Abandoned ${this.running} running job(s) at shutdown; they will run again`);
  }

  private async loop(): Promise<void> {
    while (!this.shutdown.signal.aborted) {
      const names = this.registry.names();
      const lockToken = newLockToken();
      let row: JobRow | undefined;
      try {
        row = names.length > 0 ? await this.table.claimNext(names, lockToken, this.options.leaseSeconds) : undefined;
      } catch (error) {
        if (this.shutdown.signal.aborted) return;
        this.logger.error(`Could not claim a job: ${describeFailure(error)}`);
      }
      if (row) await this.run(row, lockToken);
      else await this.sleep();
    }
  }

  private async run(row: JobRow, lockToken: string): Promise<void> {
    this.running += 1;
    const attempt = new AbortController();
    const onShutdown = () => attempt.abort(this.shutdown.signal.reason);
    this.shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    const renewal = this.options.renewLeases
      ? setInterval(() => void this.renew(row, lockToken, attempt), (this.options.leaseSeconds * 1000) / 3)
      : undefined;
    try {
      await this.executor.execute(row, lockToken, { signal: attempt.signal });
    } catch (error) {
      this.logger.error(
        `Job ${row.name} ${row.id}: outcome not recorded (${describeFailure(error)}); it will run again after its lease`,
      );
    } finally {
      clearInterval(renewal);
      this.shutdown.signal.removeEventListener('abort', onShutdown);
      this.running -= 1;
    }
  }

  private async renew(row: JobRow, lockToken: string, attempt: AbortController): Promise<void> {
    try {
      if (!(await this.table.renewLease(row.id, lockToken, this.options.leaseSeconds))) {
        attempt.abort(new Error('The job lease was lost'));
      }
    } catch (error) {
      // Transient: the next renewal may succeed before the lease runs out.
      this.logger.warn(`Job ${row.id}: could not renew its lease (${describeFailure(error)})`);
    }
  }

  private sleep(): Promise<void> {
    if (this.shutdown.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollIntervalMs);
      this.wakers.add(done);
    });
  }
}
