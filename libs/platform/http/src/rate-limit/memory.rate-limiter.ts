import { OnModuleDestroy } from '@nestjs/common';
import { assertRateRule, RateDecision, RateLimiter, RateRule, rateLimitStorageKey, retryAfterSeconds } from './rate-limiter';

export interface MemoryRateLimiterOptions {
  /** Milliseconds since the epoch; tests pass a fake. Default `Date.now`. */
  now?: () => number;
  /**
   * Most (bucket, key) pairs held at once; beyond it the least recently hit pair is forgotten. Bounds
   * memory under a flood of distinct keys, at the price of letting an evicted key start again. Default 100 000.
   */
  maxKeys?: number;
  /** How often expired pairs are dropped (ms); 0 disables the timer. The timer never keeps the process alive. Default 60 000. */
  sweepIntervalMs?: number;
}

interface Entry {
  /** Times (ms) of the allowed hits still inside the window, oldest first. */
  hits: number[];
  windowMs: number;
}

/**
 * RateLimiter in this process's memory: for a single process (standalone, tests). Several processes
 * each count on their own, so use RedisRateLimiter when an app runs more than one.
 */
export class MemoryRateLimiter extends RateLimiter implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxKeys: number;
  private readonly timer?: NodeJS.Timeout;

  constructor(options: MemoryRateLimiterOptions = {}) {
    super();
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
    if (!Number.isSafeInteger(this.maxKeys) || this.maxKeys < 1) throw new TypeError('maxKeys must be an integer ≥ 1');
    const interval = options.sweepIntervalMs ?? 60_000;
    if (interval > 0) {
      this.timer = setInterval(() => this.evictExpired(), interval);
      this.timer.unref();
    }
  }

  async hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    assertRateRule(rule);
    const id = rateLimitStorageKey(bucket, key);
    const now = this.now();
    const windowMs = rule.windowSeconds * 1000;
    // A hit leaves the window exactly windowMs after it happened (same boundary as the Redis script).
    const hits = (this.entries.get(id)?.hits ?? []).filter((at) => at > now - windowMs);
    if (hits.length < rule.limit) {
      hits.push(now);
      this.store(id, { hits, windowMs });
      return { allowed: true, remaining: rule.limit - hits.length, retryAfterSeconds: 0 };
    }
    this.store(id, { hits, windowMs });
    // With `limit` or more hits counted (more if the limit was lowered), room opens when the
    // (count - limit + 1)-th oldest leaves the window.
    const freeAt = hits[hits.length - rule.limit] + windowMs;
    return { allowed: false, remaining: 0, retryAfterSeconds: retryAfterSeconds(freeAt, now) };
  }

  async reset(bucket: string, key: string): Promise<void> {
    this.entries.delete(rateLimitStorageKey(bucket, key));
  }

  /** Drops every pair whose newest hit has left its window; returns how many. Run by the timer. */
  evictExpired(): number {
    const now = this.now();
    let evicted = 0;
    for (const [id, entry] of this.entries) {
      if (entry.hits[entry.hits.length - 1] <= now - entry.windowMs) {
        this.entries.delete(id);
        evicted += 1;
      }
    }
    return evicted;
  }

  /** Pairs currently held. */
  get size(): number {
    return this.entries.size;
  }

  /** Stops the sweep timer. The limiter still works; expired pairs are then dropped only when hit again. */
  close(): void {
    clearInterval(this.timer);
  }

  onModuleDestroy(): void {
    this.close();
  }

  /** Re-inserting keeps the Map in least-recently-hit order, so the first key is the one to evict. */
  private store(id: string, entry: Entry): void {
    this.entries.delete(id);
    while (this.entries.size >= this.maxKeys) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(id, entry);
  }
}
