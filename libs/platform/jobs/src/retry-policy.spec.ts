import { DomainError } from '@svc/kernel';
import { backoffDelayMs, decideAfterFailure, DEFAULT_BACKOFF, describeFailure, isPermanentFailure, MAX_ERROR_LENGTH } from './retry-policy';

const lowest = () => 0;
const highest = () => 0.999999;

describe('backoffDelayMs', () => {
  it('doubles from one second, jittered within the upper half of each step', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, DEFAULT_BACKOFF, lowest))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, DEFAULT_BACKOFF, highest))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits longer than five minutes, however many attempts failed', () => {
    for (const attempts of [9, 10, 20, 100, 5000]) {
      const delay = backoffDelayMs(attempts, DEFAULT_BACKOFF, highest);
      expect(delay).toBeLessThanOrEqual(300_000);
      expect(delay).toBeGreaterThanOrEqual(150_000);
    }
  });

  it('spreads jobs that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelayMs(5)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(8000);
  });

  it('treats a zero or negative count like the first failure', () => {
    expect(backoffDelayMs(0, DEFAULT_BACKOFF, highest)).toBe(1000);
    expect(backoffDelayMs(-3, DEFAULT_BACKOFF, highest)).toBe(1000);
  });

  it('honours custom options', () => {
    expect(backoffDelayMs(3, { baseMs: 100, capMs: 300 }, highest)).toBe(300);
  });
});

describe('decideAfterFailure', () => {
  it('retries an ordinary error with the backoff of its attempt', () => {
    expect(decideAfterFailure(new Error('down'), 2, 5, DEFAULT_BACKOFF, highest)).toEqual({ kind: 'retry', delayMs: 2000 });
  });

  it('fails on the last attempt', () => {
    expect(decideAfterFailure(new Error('down'), 5, 5)).toEqual({ kind: 'fail' });
    expect(decideAfterFailure(new Error('down'), 6, 5)).toEqual({ kind: 'fail' });
  });

  it('fails at once on invalid input or a missing subject, and retries other domain errors', () => {
    expect(decideAfterFailure(DomainError.invalid('X.BAD', 'bad'), 1, 5)).toEqual({ kind: 'fail' });
    expect(decideAfterFailure(DomainError.notFound('X.GONE', 'gone'), 1, 5)).toEqual({ kind: 'fail' });
    expect(decideAfterFailure(DomainError.unavailable('X.DOWN', 'down'), 1, 5).kind).toBe('retry');
    expect(decideAfterFailure(DomainError.conflict('X.RACE', 'race'), 1, 5).kind).toBe('retry');
  });
});

describe('isPermanentFailure', () => {
  it('is false for anything that is not a DomainError', () => {
    expect(isPermanentFailure(new TypeError('x'))).toBe(false);
    expect(isPermanentFailure({ kind: 'invalid' })).toBe(false);
    expect(isPermanentFailure(undefined)).toBe(false);
  });
});

describe('describeFailure', () => {
  it('keeps the message, never the stack', () => {
    const error = new Error('database said no');
    expect(error.stack).toContain('\n');
    expect(describeFailure(error)).toBe('database said no');
  });

  it('prefixes a domain error with its code', () => {
    expect(describeFailure(DomainError.notFound('CONFLICTS.NOT_FOUND', 'No such conflict.'))).toBe(
      'CONFLICTS.NOT_FOUND: No such conflict.',
    );
  });

  it('puts multi-line messages on one line and truncates long ones', () => {
    expect(describeFailure(new Error('a\n  b\tc'))).toBe('a b c');
    const long = describeFailure(new Error('x'.repeat(5000)));
    expect(long).toHaveLength(MAX_ERROR_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });

  it('describes thrown non-errors', () => {
    expect(describeFailure('plain string')).toBe('plain string');
    expect(describeFailure(42)).toBe('42');
    expect(describeFailure(new Error(''))).toBe('Error');
    expect(describeFailure('   ')).toBe('Unknown error');
  });
});
