import { DomainError, EnqueueOptions } from '@svc/kernel';

export const DEFAULT_MAX_ATTEMPTS = 5;
export const MAX_MAX_ATTEMPTS = 100;
export const MAX_DEDUPE_KEY_LENGTH = 500;

/**
 * Job names double as BullMQ queue names and Redis key parts: dotted lower-case words
 * (`conflicts.analyze`), no `:` (BullMQ's key separator), no spaces.
 */
export const JOB_NAME_PATTERN = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/;

export interface NormalizedEnqueue {
  name: string;
  payloadJson: string;
  dedupeKey: string | null;
  delayMs: number;
  maxAttempts: number;
  interactive: boolean;
}

export function assertJobName(name: string): void {
  if (typeof name !== 'string' || name.length > 200 || !JOB_NAME_PATTERN.test(name)) {
    throw DomainError.invalid('JOBS.INVALID_NAME', `Job name "${String(name)}" must be dotted lower-case words.`);
  }
}

/** Validates an enqueue request and fills the defaults. Throws DomainError `invalid`. */
export function normalizeEnqueue(name: string, payload: object, options: EnqueueOptions = {}): NormalizedEnqueue {
  assertJobName(name);
  if (payload === null || typeof payload !== 'object') {
    throw DomainError.invalid('JOBS.INVALID_PAYLOAD', 'A job payload must be a JSON object.');
  }
  const payloadJson = JSON.stringify(payload);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_MAX_ATTEMPTS) {
    throw DomainError.invalid('JOBS.INVALID_OPTIONS', `maxAttempts must be an integer from 1 to ${MAX_MAX_ATTEMPTS}.`);
  }
  const delayMs = options.delayMs ?? 0;
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw DomainError.invalid('JOBS.INVALID_OPTIONS', 'delayMs must be a non-negative number.');
  }
  const dedupeKey = options.dedupeKey ?? null;
  if (dedupeKey !== null && (dedupeKey.length === 0 || dedupeKey.length > MAX_DEDUPE_KEY_LENGTH)) {
    throw DomainError.invalid('JOBS.INVALID_OPTIONS', `dedupeKey must have 1 to ${MAX_DEDUPE_KEY_LENGTH} characters.`);
  }
  const priority = options.priority ?? 'background';
  if (priority !== 'interactive' && priority !== 'background') {
    throw DomainError.invalid('JOBS.INVALID_OPTIONS', 'priority must be "interactive" or "background".');
  }
  return { name, payloadJson, dedupeKey, delayMs: Math.round(delayMs), maxAttempts, interactive: priority === 'interactive' };
}
