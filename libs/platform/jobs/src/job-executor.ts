import { Logger } from '@nestjs/common';
import type { TypeOrmUnitOfWork } from '@svc/database';
import type { JobContext, JobHandlerRegistry, RegisteredJobHandler } from './job-handler.registry';
import type { JobRow, JobTable } from './job-table';
import { BackoffOptions, decideAfterFailure, DEFAULT_BACKOFF, describeFailure } from './retry-policy';

/** How one attempt ended, as recorded in `jobs.jobs`. */
export type JobOutcome =
  | { kind: 'completed' }
  /** Failed; the row is queued again, due after `delayMs`. */
  | { kind: 'retry'; delayMs: number; error: string }
  /** Failed for good (permanent error or last attempt). */
  | { kind: 'failed'; error: string }
  /** Stopped by shutdown; the row is queued again with its attempt given back. */
  | { kind: 'released' }
  /** Another worker owns the job now (lease expired, redelivery): nothing was recorded or committed. */
  | { kind: 'lost' };

export interface JobExecutorOptions {
  /** Write progress on its own connection so it shows at once (false: in the current transaction). */
  liveProgress: boolean;
  backoff?: BackoffOptions;
}

export interface AttemptHooks {
  signal: AbortSignal;
  /** Extra progress sink (BullMQ's job.updateProgress); best effort. */
  onProgress?: (percent: number, message: string | null) => Promise<void>;
}

/** Thrown inside the handler's transaction to roll back its work when the claim was lost. */
class ClaimLostError extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} is no longer owned by this worker`);
    this.name = 'ClaimLostError';
  }
}

/**
 * Runs one claimed attempt, whatever brought the job (the database runner or a BullMQ worker), and
 * records how it ended. A transactional handler runs in a unit of work together with the job's
 * completion, so its database effect and "completed" commit atomically; a failure rolls both back
 * and is recorded afterwards in a transaction of its own.
 */
export class JobExecutor {
  private readonly logger = new Logger('Jobs');
  private readonly backoff: BackoffOptions;

  constructor(
    private readonly table: JobTable,
    private readonly unitOfWork: TypeOrmUnitOfWork,
    private readonly registry: JobHandlerRegistry,
    private readonly options: JobExecutorOptions,
  ) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /**
   * Runs `row` (claimed with `lockToken`, its `attempts` already counting this attempt). Throws only
   * when the outcome could not be recorded (database unreachable): the claim then expires or the
   * delivery is retried, and the attempt runs again.
   */
  async execute(row: JobRow, lockToken: string, hooks: AttemptHooks): Promise<JobOutcome> {
    if (this.unitOfWork.inTransaction()) {
      // Joining an ambient transaction would commit the job's completion with someone else's work.
      throw new Error('JobExecutor.execute must not be called inside a unit of work');
    }
    const registered = this.registry.get(row.name);
    if (!registered) return this.fail(row, lockToken, `No handler is registered for job "${row.name}"`);
    if (row.attempts > row.max_attempts) {
      // Every attempt was claimed but the last ones never reported: the worker died running them.
      const last = row.last_error ? ` Last error: ${row.last_error}` : '';
      return this.fail(row, lockToken, `Gave up after ${row.max_attempts} attempts: the worker stopped during the last one.${last}`, registered);
    }

    const ctx: JobContext = {
      jobId: row.id,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      signal: hooks.signal,
      progress: (percent, message) => this.progress(row.id, lockToken, percent, message ?? null, hooks),
    };
    const started = Date.now();
    try {
      let outcome: string | void = undefined;
      if (registered.transactional) {
        await this.unitOfWork.run(async () => {
          outcome = await registered.handler(row.payload, ctx);
          if (!(await this.table.complete(row.id, lockToken))) throw new ClaimLostError(row.id);
        });
      } else {
        outcome = await registered.handler(row.payload, ctx);
        const completed = await this.unitOfWork.run(() => this.table.complete(row.id, lockToken));
        if (!completed) return { kind: 'lost' };
      }
      // One line per finished job: name, id, the handler's outcome, attempt and duration (never the payload).
      this.logger.log(`Job ${row.name} ${row.id} completed${outcome ? `: ${outcome}` : ''} (attempt ${row.attempts}/${row.max_attempts}, ${Date.now() - started} ms)`);
      return { kind: 'completed' };
    } catch (error) {
      return this.settleFailure(row, lockToken, error, hooks.signal, registered);
    }
  }

  private async settleFailure(row: JobRow, lockToken: string, error: unknown, signal: AbortSignal, registered: RegisteredJobHandler): Promise<JobOutcome> {
    if (error instanceof ClaimLostError) {
      this.logger.warn(`Job ${row.name} ${row.id}: claim lost while running; its work was rolled back`);
      return { kind: 'lost' };
    }
    if (signal.aborted) {
      // Shutdown (or a lost lease) interrupted the handler: not the job's fault, so no attempt is spent.
      return (await this.table.release(row.id, lockToken)) ? { kind: 'released' } : { kind: 'lost' };
    }
    const message = describeFailure(error);
    const decision = decideAfterFailure(error, row.attempts, row.max_attempts, this.backoff);
    if (decision.kind === 'fail') return this.fail(row, lockToken, message, registered, error);
    if (!(await this.table.scheduleRetry(row.id, lockToken, decision.delayMs, message))) return { kind: 'lost' };
    this.logger.warn(
      `Job ${row.name} ${row.id} attempt ${row.attempts}/${row.max_attempts} failed (${message}); retrying in ${decision.delayMs} ms`,
    );
    return { kind: 'retry', delayMs: decision.delayMs, error: message };
  }

  /** `error`: what the handler threw (absent when there is no handler or the worker stopped). */
  private async fail(row: JobRow, lockToken: string, message: string, registered?: RegisteredJobHandler, error?: unknown): Promise<JobOutcome> {
    if (!(await this.table.fail(row.id, lockToken, message))) return { kind: 'lost' };
    const stack = error instanceof Error ? error.stack : undefined;
    // The stack goes to the operator's log only; the row (seen by API clients) keeps the message.
    const text = `Job ${row.name} ${row.id} failed after ${row.attempts} attempt(s): ${message}`;
    if (stack) this.logger.error(text, stack);
    else this.logger.error(text);
    if (registered?.onFailed) {
      try {
        await registered.onFailed(row.payload, { message, attempts: row.attempts, ...(error !== undefined ? { error } : {}) });
      } catch (hookError) {
        this.logger.warn(`Job ${row.name} ${row.id}: its failure hook failed (${describeFailure(hookError)})`);
      }
    }
    return { kind: 'failed', error: message };
  }

  private async progress(jobId: string, lockToken: string, percent: number, message: string | null, hooks: AttemptHooks): Promise<void> {
    const value = Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.round(percent))) : 0;
    if (this.options.liveProgress) {
      // Its own connection and commit: a failure here must not break the handler's transaction.
      try {
        await this.table.progress(jobId, lockToken, value, message, true);
      } catch (error) {
        this.logger.warn(`Job ${jobId}: could not record progress (${describeFailure(error)})`);
      }
    } else {
      // In the current transaction: an error has already aborted it, so let the handler see it.
      await this.table.progress(jobId, lockToken, value, message, false);
    }
    if (hooks.onProgress) {
      try {
        await hooks.onProgress(value, message);
      } catch (error) {
        this.logger.warn(`Job ${jobId}: could not publish progress (${describeFailure(error)})`);
      }
    }
  }
}
