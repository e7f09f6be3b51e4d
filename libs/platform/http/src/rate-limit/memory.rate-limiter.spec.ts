import { MemoryRateLimiter } from './memory.rate-limiter';

class FakeClock {
  ms = Date.UTC(2026, 0, 1);
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

describe('MemoryRateLimiter', () => {
  let clock: FakeClock;
  let limiter: MemoryRateLimiter;
  const perMinute = { limit: 3, windowSeconds: 60 };

  beforeEach(() => {
    clock = new FakeClock();
    limiter = new MemoryRateLimiter({ now: clock.now, sweepIntervalMs: 0 });
  });
  afterEach(() => limiter.close());

  it('allows `limit` hits in the window, counting down what remains', async () => {
    expect(await limiter.hit('login.ip', '203.0.113.7', perMinute)).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
    expect(await limiter.hit('login.ip', '203.0.113.7', perMinute)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect(await limiter.hit('login.ip', '203.0.113.7', perMinute)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    expect(await limiter.hit('login.ip', '203.0.113.7', perMinute)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 60 });
  });

  it('answers Retry-After as the whole seconds until the oldest counted hit leaves the window', async () => {
    await limiter.hit('login.ip', 'k', perMinute);
    clock.advance(10_000);
    await limiter.hit('login.ip', 'k', perMinute);
    clock.advance(10_000);
    await limiter.hit('login.ip', 'k', perMinute);
    clock.advance(15_500);
    // The first hit leaves at 60 s; 35.5 s have passed: 24.5 s rounded up.
    expect((await limiter.hit('login.ip', 'k', perMinute)).retryAfterSeconds).toBe(25);
    clock.advance(24_499);
    expect(await limiter.hit('login.ip', 'k', perMinute)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    clock.advance(1);
    // Exactly windowSeconds after it, the first hit no longer counts.
    expect(await limiter.hit('login.ip', 'k', perMinute)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    expect((await limiter.hit('login.ip', 'k', perMinute)).retryAfterSeconds).toBe(10);
  });

  it('does not count refused hits: hammering does not extend the wait', async () => {
    const rule = { limit: 1, windowSeconds: 60 };
    await limiter.hit('token.ip', 'k', rule);
    for (let s = 1; s < 60; s += 1) {
      clock.advance(1000);
      expect((await limiter.hit('token.ip', 'k', rule)).retryAfterSeconds).toBe(60 - s);
    }
    clock.advance(1000);
    expect((await limiter.hit('token.ip', 'k', rule)).allowed).toBe(true);
  });

  it('waits for enough hits to leave when the limit was lowered', async () => {
    for (let i = 0; i < 5; i += 1) {
      await limiter.hit('b', 'k', { limit: 5, windowSeconds: 60 });
      clock.advance(1000);
    }
    // Hits at 0..4 s, now 5 s; with a limit of 2, the hits at 0, 1, 2 and 3 s must leave: the 4th leaves at 63 s.
    expect(await limiter.hit('b', 'k', { limit: 2, windowSeconds: 60 })).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 58 });
  });

  it('reset clears one (bucket, key) and no other', async () => {
    const rule = { limit: 1, windowSeconds: 60 };
    await limiter.hit('login.account', 'ada@example.com', rule);
    await limiter.hit('login.account', 'bob@example.com', rule);
    await limiter.hit('login.ip', 'ada@example.com', rule);
    await limiter.reset('login.account', 'ada@example.com');
    expect((await limiter.hit('login.account', 'ada@example.com', rule)).allowed).toBe(true);
    expect((await limiter.hit('login.account', 'bob@example.com', rule)).allowed).toBe(false);
    expect((await limiter.hit('login.ip', 'ada@example.com', rule)).allowed).toBe(false);
  });

  it('evicts pairs whose hits have all left their window, and keeps the others', async () => {
    await limiter.hit('short', 'a', { limit: 5, windowSeconds: 10 });
    await limiter.hit('long', 'a', { limit: 5, windowSeconds: 60 });
    clock.advance(9_999);
    await limiter.hit('short', 'b', { limit: 5, windowSeconds: 10 });
    expect(limiter.evictExpired()).toBe(0);
    clock.advance(1);
    expect(limiter.evictExpired()).toBe(1);
    expect(limiter.size).toBe(2);
    clock.advance(60_000);
    expect(limiter.evictExpired()).toBe(2);
    expect(limiter.size).toBe(0);
  });

  it('sweeps on its timer, which does not keep the process alive', async () => {
    jest.useFakeTimers();
    try {
      const swept = new MemoryRateLimiter({ now: clock.now, sweepIntervalMs: 1000 });
      await swept.hit('b', 'k', { limit: 1, windowSeconds: 1 });
      clock.advance(1000);
      expect(swept.size).toBe(1);
      jest.advanceTimersByTime(1000);
      expect(swept.size).toBe(0);
      swept.close();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('holds at most maxKeys pairs, forgetting the least recently hit', async () => {
    const small = new MemoryRateLimiter({ now: clock.now, sweepIntervalMs: 0, maxKeys: 3 });
    const rule = { limit: 1, windowSeconds: 60 };
    for (const key of ['a', 'b', 'c']) await small.hit('b', key, rule);
    await small.hit('b', 'a', rule); // refused, but 'a' is now the most recently hit
    await small.hit('b', 'd', rule);
    expect(small.size).toBe(3);
    // 'b' was forgotten and starts again; 'a', 'c' and 'd' are still counted.
    expect((await small.hit('b', 'a', rule)).allowed).toBe(false);
    expect((await small.hit('b', 'b', rule)).allowed).toBe(true);
    expect(small.size).toBe(3);
    expect((await small.hit('b', 'd', rule)).allowed).toBe(false);
    small.close();
  });

  it('never holds the raw key', async () => {
    const entries = (limiter as unknown as { entries: Map<string, unknown> }).entries;
    await limiter.hit('key-exchange.key', 'svc_org_SECRETSECRET', perMinute);
    expect([...entries.keys()]).toEqual([expect.stringMatching(/^key-exchange\.key:[0-9a-f]{32}$/)]);
    expect(JSON.stringify([...entries])).not.toContain('SECRET');
  });

  it('rejects a malformed rule or bucket', async () => {
    await expect(limiter.hit('b', 'k', { limit: 0, windowSeconds: 1 })).rejects.toThrow(TypeError);
    await expect(limiter.hit('b', 'k', { limit: 1, windowSeconds: -1 })).rejects.toThrow(TypeError);
    await expect(limiter.hit('b/c', 'k', perMinute)).rejects.toThrow(TypeError);
    expect(() => new MemoryRateLimiter({ maxKeys: 0 })).toThrow(TypeError);
  });
});
