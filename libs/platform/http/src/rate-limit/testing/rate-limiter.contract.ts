import { randomUUID } from 'node:crypto';
import type { RateDecision, RateLimiter } from '../rate-limiter';

export interface RateLimiterFixture {
  limiter: RateLimiter;
  /** Lets `ms` pass for the limiter: a fake clock moves, a real store is waited for. */
  advance(ms: number): Promise<void>;
  close?(): Promise<void>;
}

/**
 * What every RateLimiter adapter promises (rate-limiter.ts): a sliding window counting allowed hits
 * only, Retry-After in whole seconds ≥ 1, independent (bucket, key) pairs, reset, atomic concurrent
 * hits and TypeErrors for malformed input. Windows are short so a real store's test stays quick.
 */
export function rateLimiterContract(name: string, setup: () => Promise<RateLimiterFixture>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let fixture: RateLimiterFixture;
    let limiter: RateLimiter;
    /** A fresh key per test, so tests never see each other's hits. */
    let key: string;

    beforeAll(async () => {
      fixture = await setup();
      limiter = fixture.limiter;
    });
    afterAll(async () => {
      await fixture?.close?.();
    });
    beforeEach(() => {
      key = `user-${randomUUID()}@example.com`;
    });

    it('allows `limit` hits counting `remaining` down, then refuses with a Retry-After within the window', async () => {
      const rule = { limit: 3, windowSeconds: 60 };
      const decisions: RateDecision[] = [];
      for (let i = 0; i < 4; i += 1) decisions.push(await limiter.hit('contract.basic', key, rule));
      expect(decisions.slice(0, 3)).toEqual([
        { allowed: true, remaining: 2, retryAfterSeconds: 0 },
        { allowed: true, remaining: 1, retryAfterSeconds: 0 },
        { allowed: true, remaining: 0, retryAfterSeconds: 0 },
      ]);
      expect(decisions[3]).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: expect.any(Number) });
      expect(Number.isInteger(decisions[3].retryAfterSeconds)).toBe(true);
      expect(decisions[3].retryAfterSeconds).toBeGreaterThanOrEqual(55);
      expect(decisions[3].retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    it('rounds the wait up to whole seconds', async () => {
      const rule = { limit: 1, windowSeconds: 3 };
      expect((await limiter.hit('contract.round', key, rule)).allowed).toBe(true);
      await fixture.advance(1050);
      // 1.95 s left: the client is told 2, never 1 (it would come back too early) nor 0. (A real store
      // may run up to 0.95 s late here and still owe 2.)
      expect(await limiter.hit('contract.round', key, rule)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 2 });
    });

    it('slides: a hit frees its place when it leaves the window, and refused hits are not counted', async () => {
      // A 3 s window so a real store, whose clock keeps running between calls, has about a second of slack.
      const rule = { limit: 2, windowSeconds: 3 };
      expect((await limiter.hit('contract.slide', key, rule)).allowed).toBe(true);
      await fixture.advance(1500);
      expect((await limiter.hit('contract.slide', key, rule)).allowed).toBe(true);
      for (let i = 0; i < 5; i += 1) {
        expect(await limiter.hit('contract.slide', key, rule)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 2 });
      }
      await fixture.advance(1800);
      // The first hit has left; the second (1.8 s old) has not, and the five refusals never counted.
      expect(await limiter.hit('contract.slide', key, rule)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
      expect((await limiter.hit('contract.slide', key, rule)).allowed).toBe(false);
      await fixture.advance(3100);
      expect(await limiter.hit('contract.slide', key, rule)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    });

    it('counts each bucket and each key on its own', async () => {
      const rule = { limit: 1, windowSeconds: 60 };
      expect((await limiter.hit('contract.apart-a', key, rule)).allowed).toBe(true);
      expect((await limiter.hit('contract.apart-a', key, rule)).allowed).toBe(false);
      expect((await limiter.hit('contract.apart-b', key, rule)).allowed).toBe(true);
      expect((await limiter.hit('contract.apart-a', `${key}.other`, rule)).allowed).toBe(true);
      // Keys are compared exactly: normalising (e.g. lower-casing an e-mail) is the caller's job.
      expect((await limiter.hit('contract.apart-a', key.toUpperCase(), rule)).allowed).toBe(true);
    });

    it('reset forgets the hits of that bucket and key only, and is idempotent', async () => {
      const rule = { limit: 1, windowSeconds: 60 };
      await limiter.hit('contract.reset', key, rule);
      await limiter.hit('contract.reset-other', key, rule);
      await limiter.reset('contract.reset', key);
      await limiter.reset('contract.reset', key);
      await limiter.reset('contract.reset', `${key}.never-hit`);
      expect(await limiter.hit('contract.reset', key, rule)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
      expect((await limiter.hit('contract.reset-other', key, rule)).allowed).toBe(false);
    });

    it('allows exactly `limit` of many concurrent hits', async () => {
      const rule = { limit: 10, windowSeconds: 60 };
      const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('contract.concurrent', key, rule)));
      const allowed = decisions.filter((decision) => decision.allowed);
      expect(allowed).toHaveLength(10);
      expect(allowed.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const refused of decisions.filter((decision) => !decision.allowed)) {
        expect(refused.remaining).toBe(0);
        expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      }
    });

    it('takes any key text, however long or odd, without mixing keys up', async () => {
      const rule = { limit: 1, windowSeconds: 60 };
      const odd = [`${key}:*?[]{}\n\u0000é😀`, 'x'.repeat(10_000), ' ', '*'];
      for (const k of odd) expect((await limiter.hit('contract.odd', `${key}${k}`, rule)).allowed).toBe(true);
      for (const k of odd) expect((await limiter.hit('contract.odd', `${key}${k}`, rule)).allowed).toBe(false);
    });

    it('rejects a malformed bucket, key or rule with a TypeError', async () => {
      const rule = { limit: 1, windowSeconds: 60 };
      await expect(limiter.hit('has space', key, rule)).rejects.toThrow(TypeError);
      await expect(limiter.hit('', key, rule)).rejects.toThrow(TypeError);
      await expect(limiter.hit('b'.repeat(65), key, rule)).rejects.toThrow(TypeError);
      await expect(limiter.hit('contract.bad', '', rule)).rejects.toThrow(TypeError);
      await expect(limiter.hit('contract.bad', key, { limit: 0, windowSeconds: 60 })).rejects.toThrow(TypeError);
      await expect(limiter.hit('contract.bad', key, { limit: 1.5, windowSeconds: 60 })).rejects.toThrow(TypeError);
      await expect(limiter.hit('contract.bad', key, { limit: 1, windowSeconds: 0.5 })).rejects.toThrow(TypeError);
      await expect(limiter.hit('contract.bad', key, { limit: Number.NaN, windowSeconds: 60 })).rejects.toThrow(TypeError);
      await expect(limiter.reset('has space', key)).rejects.toThrow(TypeError);
    });
  });
}
