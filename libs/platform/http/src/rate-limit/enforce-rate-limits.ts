import { DomainError } from '@svc/kernel';
import { RateDecision, RateLimiter, RateRule } from './rate-limiter';

export interface RateLimitCheck {
  bucket: string;
  /** Who is counted (IP, key id, e-mail…). Empty, null or undefined: the check is skipped (nothing to count against). */
  key: string | null | undefined;
  rule: RateRule;
}

export const RATE_LIMITED_CODE = 'RATE_LIMIT.EXCEEDED';

/**
 * Hits every check (all of them, concurrently, so each count stays right whatever the others say) and
 * throws DomainError `rate_limited` when any refuses: HTTP 429 with `Retry-After` set to the longest
 * wait among the refusals. Returns the decisions, in the order of `checks` (skipped ones omitted),
 * when all allow. A limiter that cannot reach its store may reject with its own error (503 in the
 * Redis `closed` mode), which passes through unchanged.
 */
export async function enforceRateLimits(limiter: RateLimiter, checks: readonly RateLimitCheck[]): Promise<RateDecision[]> {
  const decisions = await Promise.all(
    checks.filter((check) => typeof check.key === 'string' && check.key.length > 0).map((check) => limiter.hit(check.bucket, check.key as string, check.rule)),
  );
  const refused = decisions.filter((decision) => !decision.allowed);
  if (refused.length > 0) {
    throw new DomainError('rate_limited', RATE_LIMITED_CODE, 'Too many requests; wait for the delay given in Retry-After, then retry.', {
      retryAfterSeconds: Math.max(1, ...refused.map((decision) => Math.ceil(decision.retryAfterSeconds))),
    });
  }
  return decisions;
}
