import { createHash } from 'node:crypto';

/** How many hits a (bucket, key) may make within any sliding window of `windowSeconds`. */
export interface RateRule {
  /** Hits allowed per window: an integer ≥ 1. */
  limit: number;
  /** Length of the sliding window: an integer number of seconds ≥ 1. */
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Hits still allowed in the window after this one; 0 when refused. */
  remaining: number;
  /** 0 when allowed; when refused, whole seconds (≥ 1) until a hit would be allowed again: the `Retry-After` value. */
  retryAfterSeconds: number;
}

/**
 * Counts hits per (bucket, key) over a sliding window, to slow brute force and floods down.
 *
 * - `bucket` names what is counted (`login.ip`, `key-exchange.key`): letters, digits, `.`, `_`, `-`,
 *   at most 64 characters, a constant of the calling code. `key` is who is counted: an IP, a key id, an
 *   e-mail (normalise it first, e.g. lower-case, or each spelling gets its own count). The key may be
 *   sensitive: adapters store only its SHA-256, never the raw value.
 * - A hit is allowed when fewer than `rule.limit` allowed hits happened in the last `rule.windowSeconds`.
 *   Only allowed hits are recorded: a client that keeps hammering is refused until its oldest counted
 *   hit leaves the window, not for ever, and a key never holds more than `limit` entries.
 * - Atomic: concurrent hits on one (bucket, key) never allow more than `limit` (across processes for a
 *   shared store). Call one (bucket, key) with one rule; a changed rule applies to the hits already counted.
 * - Errors: a malformed bucket, key or rule is a programming error (TypeError). A store that cannot be
 *   reached is the adapter's documented choice (RedisRateLimiter `onError`), never a silent hang.
 */
export abstract class RateLimiter {
  abstract hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision>;

  /**
   * Forgets every hit of (bucket, key), e.g. the failure count of an account after a successful login.
   * Idempotent, and best-effort: it resolves even when the store cannot be reached (the hits then
   * simply expire with their window).
   */
  abstract reset(bucket: string, key: string): Promise<void>;
}

const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `bucket:sha256(key)` (first 128 bits, hex): what adapters store, so no raw e-mail or secret becomes a key. */
export function rateLimitStorageKey(bucket: string, key: string): string {
  if (typeof bucket !== 'string' || !BUCKET.test(bucket)) {
    throw new TypeError(`Rate-limit bucket must match ${BUCKET}, got ${JSON.stringify(bucket)}`);
  }
  if (typeof key !== 'string' || key.length === 0) throw new TypeError(`Rate-limit key of bucket ${bucket} must be a non-empty string`);
  return `${bucket}:${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32)}`;
}

export function assertRateRule(rule: RateRule): void {
  const ok =
    rule !== null &&
    typeof rule === 'object' &&
    Number.isSafeInteger(rule.limit) &&
    rule.limit >= 1 &&
    Number.isSafeInteger(rule.windowSeconds) &&
    rule.windowSeconds >= 1;
  if (!ok) throw new TypeError(`Rate rule needs an integer limit ≥ 1 and an integer windowSeconds ≥ 1, got ${JSON.stringify(rule)}`);
}

/** Whole seconds until `freeAtMs`, at least 1: a refusal always asks the client to wait. */
export function retryAfterSeconds(freeAtMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((freeAtMs - nowMs) / 1000));
}
