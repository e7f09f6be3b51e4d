import type { JobName, JobPayloads } from '@svc/contracts';

export interface EnqueueOptions {
  /** A job with the same dedupe key that is still waiting or running is not enqueued twice. */
  dedupeKey?: string;
  /** Earliest start, relative to now. */
  delayMs?: number;
  /** Attempts before the job is marked failed (default 5), with exponential backoff between them. */
  maxAttempts?: number;
  /**
   * `interactive`: a person waits for it (a question created or forced, an expert's action, and the jobs
   * those start); it runs before background work queued up to `INTERACTIVE_LEAD_SECONDS` earlier.
   * Default `background`.
   */
  priority?: JobPriority;
}

export type JobPriority = 'interactive' | 'background';

/**
 * How far ahead of background work an interactive job is claimed: it runs before background jobs due up to
 * this long before it, never before older ones, so a stream of interactive work cannot starve the background.
 */
export const INTERACTIVE_LEAD_SECONDS = 600;

/**
 * Background work. `enqueue` joins the caller's open transaction (outbox): the job exists if and only
 * if the state change that asked for it was committed. Handlers may run more than once (at-least-once
 * delivery) and must make their effect idempotent; the jobs platform helps by committing a handler's
 * database work together with the job's completion.
 */
export abstract class JobQueue {
  /** Enqueues a job of the contracts' map: the payload must be the one `JobPayloads` declares for `name`. */
  enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options?: EnqueueOptions): Promise<string> {
    return this.enqueueUntyped(name, payload, options);
  }

  /** Any well-formed name and object payload: for the jobs platform itself and its tests. Contexts use `enqueue`. */
  abstract enqueueUntyped(name: string, payload: object, options?: EnqueueOptions): Promise<string>;
}
