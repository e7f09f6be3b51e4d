import { DomainError } from '@svc/kernel';
import { errorBody } from '../error-body';
import { enforceRateLimits, RATE_LIMITED_CODE } from './enforce-rate-limits';
import { MemoryRateLimiter } from './memory.rate-limiter';
import { RateDecision, RateLimiter, RateRule } from './rate-limiter';

/** Answers what each bucket was scripted to, and records the hits. */
class ScriptedLimiter extends RateLimiter {
  readonly hits: string[] = [];
  constructor(private readonly answers: Record<string, RateDecision | Error>) {
    super();
  }
  async hit(bucket: string, key: string, _rule: RateRule): Promise<RateDecision> {
    this.hits.push(`${bucket}/${key}`);
    const answer = this.answers[bucket];
    if (answer instanceof Error) throw answer;
    return answer;
  }
  async reset(): Promise<void> {}
}

const ok = (remaining: number): RateDecision => ({ allowed: true, remaining, retryAfterSeconds: 0 });
const no = (retryAfterSeconds: number): RateDecision => ({ allowed: false, remaining: 0, retryAfterSeconds });
const rule = { limit: 5, windowSeconds: 60 };

async function caught(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected a rejection');
}

describe('enforceRateLimits', () => {
  it('returns the decisions when every check allows', async () => {
    const limiter = new ScriptedLimiter({ 'a.ip': ok(4), 'a.key': ok(1) });
    const decisions = await enforceRateLimits(limiter, [
      { bucket: 'a.ip', key: '198.51.100.2', rule },
      { bucket: 'a.key', key: 'key_01', rule },
    ]);
    expect(decisions).toEqual([ok(4), ok(1)]);
  });

  it('hits every check even when one refuses, and throws rate_limited with the longest wait', async () => {
    const limiter = new ScriptedLimiter({ 'a.ip': no(7), 'a.key': ok(0), 'a.account': no(42) });
    const error = await caught(
      enforceRateLimits(limiter, [
        { bucket: 'a.ip', key: '198.51.100.2', rule },
        { bucket: 'a.key', key: 'key_01', rule },
        { bucket: 'a.account', key: 'ada@example.com', rule },
      ]),
    );
    expect(limiter.hits).toEqual(['a.ip/198.51.100.2', 'a.key/key_01', 'a.account/ada@example.com']);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'rate_limited', code: RATE_LIMITED_CODE, retryAfterSeconds: 42 });
    // The HTTP mapping: 429, and (exception.filter.ts) Retry-After from retryAfterSeconds.
    expect(errorBody(error, 'req_1').status).toBe(429);
  });

  it('never asks for less than one whole second', async () => {
    const error = await caught(enforceRateLimits(new ScriptedLimiter({ b: no(0.2) }), [{ bucket: 'b', key: 'k', rule }]));
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('skips checks without a key', async () => {
    const limiter = new ScriptedLimiter({ b: ok(3) });
    const decisions = await enforceRateLimits(limiter, [
      { bucket: 'b', key: undefined, rule },
      { bucket: 'b', key: '', rule },
      { bucket: 'b', key: null, rule },
      { bucket: 'b', key: 'k', rule },
    ]);
    expect(limiter.hits).toEqual(['b/k']);
    expect(decisions).toEqual([ok(3)]);
  });

  it("passes a limiter's own failure through (503 of a fail-closed store)", async () => {
    const down = DomainError.unavailable('RATE_LIMIT.UNAVAILABLE', 'down');
    const error = await caught(enforceRateLimits(new ScriptedLimiter({ b: down, c: no(5) }), [{ bucket: 'b', key: 'k', rule }, { bucket: 'c', key: 'k', rule }]));
    expect(error).toBe(down);
  });

  it('with a real limiter: refuses the request once either count is exhausted', async () => {
    const limiter = new MemoryRateLimiter({ now: () => 0, sweepIntervalMs: 0 });
    const checks = (ip: string, email: string) => [
      { bucket: 'login.ip', key: ip, rule: { limit: 10, windowSeconds: 60 } },
      { bucket: 'login.account', key: email, rule: { limit: 2, windowSeconds: 900 } },
    ];
    await enforceRateLimits(limiter, checks('203.0.113.1', 'ada@example.com'));
    await enforceRateLimits(limiter, checks('203.0.113.2', 'ada@example.com'));
    const error = await caught(enforceRateLimits(limiter, checks('203.0.113.3', 'ada@example.com')));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 900 });
    await enforceRateLimits(limiter, checks('203.0.113.3', 'bob@example.com'));
  });
});
