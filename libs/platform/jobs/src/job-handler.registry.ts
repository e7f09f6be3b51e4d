import { assertJobName } from './enqueue-options';

/** What a handler knows about the attempt it runs in. */
export interface JobContext {
  readonly jobId: string;
  /** 1 on the first attempt; counts attempts cut short by a crash too. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /**
   * Aborted when the process shuts down (or, in the database mode, when the job's lease was lost).
   * A long handler should stop at a safe point and throw: the job is then put back, unharmed.
   */
  readonly signal: AbortSignal;
  /**
   * Records progress (0-100, rounded and clamped) and an optional short message. In the embedded
   * database the write belongs to the handler's transaction and shows at commit; on PostgreSQL it is
   * committed at once on its own connection, and in the BullMQ mode it also goes to the BullMQ job.
   */
  progress(percent: number, message?: string): Promise<void>;
}

/**
 * A job's work. It may run more than once (at-least-once delivery): see JobHandlerOptions. It may
 * return a short outcome (`indexed`, `stale`...), which the executor logs with the job's completion.
 */
export type JobHandler<P extends object = object> = (payload: P, ctx: JobContext) => Promise<string | void>;

export interface JobHandlerOptions<P extends object = object> {
  /**
   * true (default): the handler runs inside a unit of work that also marks the job completed, so its
   * database writes and the completion commit together (a retry after a failure or a crash starts
   * from a clean slate: the database effect happens once).
   *
   * false: the handler runs outside any transaction and must be idempotent itself. Use it for long
   * work that is mostly not database work (calling a model for minutes): in the embedded mode a
   * transaction holds the single connection, and every request would wait for the handler.
   */
  transactional?: boolean;
  /**
   * Called once the job has failed for good (a permanent error, its last attempt, or a worker that
   * died during its last attempt), after the failure is recorded, outside any transaction. Lets the
   * owner of the work mark what the job was doing as failed. Best effort: an error here is logged.
   */
  onFailed?: JobFailureHook<P>;
}

/** How a job failed for good. */
export interface JobFailure {
  /** The text recorded as the job's last error (job views show it). */
  message: string;
  attempts: number;
  /** What the handler threw on its last attempt; absent when the worker stopped during it. */
  error?: unknown;
}

/** Called once a job has failed for good (see JobHandlerOptions.onFailed). */
export type JobFailureHook<P extends object = object> = (payload: P, failure: JobFailure) => Promise<void>;

export interface RegisteredJobHandler {
  name: string;
  handler: JobHandler<object>;
  transactional: boolean;
  onFailed?: JobFailureHook;
}

/**
 * The handlers this process can run, by job name. Apps register them at module init; runners only
 * take jobs whose name is registered here, so a process that registers nothing processes nothing.
 */
export class JobHandlerRegistry {
  private readonly handlers = new Map<string, RegisteredJobHandler>();

  /** Registers the handler of one job name. Registering a name twice is a programming error and throws. */
  register<P extends object>(name: string, handler: JobHandler<P>, options: JobHandlerOptions<P> = {}): void {
    assertJobName(name);
    if (this.handlers.has(name)) throw new Error(`A handler for job "${name}" is already registered`);
    // The payload was validated by the enqueuer's types and is re-checked by the handler if it must be.
    const registered: RegisteredJobHandler = {
      name,
      handler: (payload, ctx) => handler(payload as P, ctx),
      transactional: options.transactional ?? true,
      onFailed: options.onFailed ? (payload, failure) => options.onFailed!(payload as P, failure) : undefined,
    };
    this.handlers.set(name, registered);
  }

  get(name: string): RegisteredJobHandler | undefined {
    return this.handlers.get(name);
  }

  names(): string[] {
    return [...this.handlers.keys()];
  }

  all(): RegisteredJobHandler[] {
    return [...this.handlers.values()];
  }
}
