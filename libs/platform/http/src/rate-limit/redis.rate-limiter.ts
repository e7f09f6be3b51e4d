import { createHash, randomBytes } from 'node:crypto';
import { Logger, LoggerService } from '@nestjs/common';
import { DomainError, ThrottledWarning } from '@svc/kernel';
import type { Redis } from 'ioredis';
import { assertRateRule, RateDecision, RateLimiter, RateRule, rateLimitStorageKey, retryAfterSeconds } from './rate-limiter';

export interface RedisRateLimiterOptions {
  /** Prepended to every key (`<prefix>:<bucket>:<sha256>`); apps sharing limits must agree. Default `rate-limit`. */
  prefix?: string;
  /**
   * What a hit does when Redis fails or does not answer within `timeoutMs`:
   * - `open` (default): the hit is allowed (`remaining` = limit − 1) and a warning is logged. Availability
   *   wins: an outage of Redis does not lock everyone out of login, and it suspends brute-force
   *   protection only for as long as it lasts.
   * - `closed`: the hit rejects with DomainError `unavailable` (503 + `Retry-After`, BEHAVIOUR.md: a
   *   dependency is down), not a 429, since the client did nothing wrong. For endpoints where an
   *   unthrottled guess is worse than a refusal.
   * `reset` is best-effort in both modes (logged, never thrown).
   */
  onError?: 'open' | 'closed';
  /** A command Redis has not answered within this delay counts as failed. Default 1000 ms. */
  timeoutMs?: number;
  /** `Retry-After` of the 503 in `closed` mode. Default 5 s. */
  unavailableRetryAfterSeconds?: number;
  /** Where outage warnings go, at most one per 30 s. Default Nest's Logger (`RateLimiter`). */
  logger?: Pick<LoggerService, 'warn'>;
}

/**
 * One sliding-window log per key: a sorted set of the allowed hits' times. The script runs atomically
 * and reads Redis's own clock, so every process counts the same way whatever its clock says.
 * KEYS[1] the set; ARGV limit, window (ms), a member unique to this hit. Returns {allowed, remaining, wait ms}.
 * Needs Redis ≥ 5 (scripts replicated by effects, so TIME may precede writes).
 */
const SLIDING_WINDOW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, limit - count - 1, 0}
end
local nth = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return {0, 0, tonumber(nth[2]) + window - now}
`;
const SCRIPT_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
const PREFIX = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * RateLimiter over Redis, shared by every process of a deployment. The client is the caller's (not
 * closed here); give it `enableOfflineQueue: false` and `maxRetriesPerRequest: 1` so an outage fails
 * fast instead of queueing, and an `error` listener so ioredis does not print each reconnect failure.
 */
export class RedisRateLimiter extends RateLimiter {
  private readonly prefix: string;
  private readonly onError: 'open' | 'closed';
  private readonly timeoutMs: number;
  private readonly unavailableRetryAfter: number;
  private readonly warning: ThrottledWarning;
  /** Members must be unique across processes: a random id per limiter, then a counter. */
  private readonly memberPrefix = randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(
    private readonly redis: Redis,
    options: RedisRateLimiterOptions = {},
  ) {
    super();
    this.prefix = options.prefix ?? 'rate-limit';
    if (!PREFIX.test(this.prefix)) throw new TypeError(`Rate-limit prefix must match ${PREFIX}`);
    this.onError = options.onError ?? 'open';
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.unavailableRetryAfter = options.unavailableRetryAfterSeconds ?? 5;
    this.warning = new ThrottledWarning(options.logger ?? new Logger('RateLimiter'));
  }

  async hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    assertRateRule(rule);
    const redisKey = `${this.prefix}:${rateLimitStorageKey(bucket, key)}`;
    const windowMs = rule.windowSeconds * 1000;
    const member = `${this.memberPrefix}:${(this.sequence += 1)}`;
    let reply: unknown;
    try {
      reply = await this.withTimeout(this.runScript(redisKey, rule.limit, windowMs, member));
    } catch (error) {
      this.warning.warn(`Rate limiter: Redis failed on bucket ${bucket} (${describe(error)}); failing ${this.onError}`);
      if (this.onError === 'open') return { allowed: true, remaining: rule.limit - 1, retryAfterSeconds: 0 };
      throw DomainError.unavailable('RATE_LIMIT.UNAVAILABLE', 'The rate limiter is unreachable; retry shortly.', {
        retryAfterSeconds: this.unavailableRetryAfter,
        cause: error,
      });
    }
    const [allowed, remaining, waitMs] = reply as [number, number, number];
    if (allowed === 1) return { allowed: true, remaining, retryAfterSeconds: 0 };
    return { allowed: false, remaining: 0, retryAfterSeconds: retryAfterSeconds(waitMs, 0) };
  }

  async reset(bucket: string, key: string): Promise<void> {
    const redisKey = `${this.prefix}:${rateLimitStorageKey(bucket, key)}`;
    try {
      await this.withTimeout(this.redis.del(redisKey));
    } catch (error) {
      this.warning.warn(`Rate limiter: Redis failed to reset bucket ${bucket} (${describe(error)}); its hits will expire with the window`);
    }
  }

  private async runScript(redisKey: string, limit: number, windowMs: number, member: string): Promise<unknown> {
    try {
      return await this.redis.evalsha(SCRIPT_SHA, 1, redisKey, limit, windowMs, member);
    } catch (error) {
      // First call on this server (or after SCRIPT FLUSH): send the script itself, which caches it.
      if (!/NOSCRIPT/.test(describe(error))) throw error;
      return this.redis.eval(SLIDING_WINDOW_SCRIPT, 1, redisKey, limit, windowMs, member);
    }
  }

  /** A connected but silent Redis must not hold a login request: give up after timeoutMs. */
  private async withTimeout<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        promise,
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
          timer.unref();
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

