import { describeErrorSafely, isDomainError } from '@svc/kernel';

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseMs: number;
  /** Longest delay between two attempts. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 5 * 60 * 1000 };

/** Longest `last_error` kept: enough for a message, never a dump. */
export const MAX_ERROR_LENGTH = 1000;

/**
 * Delay before the next attempt after `failedAttempts` failures (1 after the first): exponential
 * (`base * 2^(n-1)`, capped), with "equal jitter" (a uniform draw in the upper half) so jobs that
 * failed together (a dependency was down) do not all come back at the same instant.
 */
export function backoffDelayMs(
  failedAttempts: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.floor(failedAttempts) - 1);
  // 2^exponent overflows to Infinity for absurd attempt counts; the cap absorbs it.
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Errors that no retry can fix: the input is wrong or its subject is gone. Everything else
 * (`unavailable`, `conflict`, a crash in a dependency...) may succeed later.
 */
export function isPermanentFailure(error: unknown): boolean {
  return isDomainError(error) && (error.kind === 'invalid' || error.kind === 'not_found');
}

export type FailureDecision = { kind: 'retry'; delayMs: number } | { kind: 'fail' };

/** What to do with a job whose attempt number `attempt` (1-based) failed with `error`. */
export function decideAfterFailure(
  error: unknown,
  attempt: number,
  maxAttempts: number,
  backoff: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): FailureDecision {
  if (isPermanentFailure(error) || attempt >= maxAttempts) return { kind: 'fail' };
  return { kind: 'retry', delayMs: backoffDelayMs(attempt, backoff, random) };
}

/**
 * The text stored in `last_error`: the message (with the domain code when there is one), never a
 * stack, on one line and truncated, because job views reach API clients.
 */
export function describeFailure(error: unknown): string {
  let text: string;
  if (isDomainError(error)) text = `${error.code}: ${error.message}`;
  // Never a database error's message or parameters: they may quote the job's data.
  else if (error instanceof Error) text = describeErrorSafely(error);
  else text = String(error);
  text = text.replace(/\s+/g, ' ').trim() || 'Unknown error';
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
