export interface EnqueueOptions {
  /** A job with the same dedupe key that is still waiting or running is not enqueued twice. */
  dedupeKey?: string;
  /** Earliest start, relative to now. */
  delayMs?: number;
  /** Attempts before the job is marked failed (default 5), with exponential backoff between them. */
  maxAttempts?: number;
}

/**
 * Background work. `enqueue` joins the caller's open transaction (outbox): the job exists if and only
 * if the state change that asked for it was committed. Handlers may run more than once (at-least-once
 * delivery) and must make their effect idempotent; the jobs platform helps by committing a handler's
 * database work together with the job's completion.
 */
export abstract class JobQueue {
  abstract enqueue<P extends object>(name: string, payload: P, options?: EnqueueOptions): Promise<string>;
}
