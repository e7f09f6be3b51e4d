import { DomainError } from '@svc/kernel';
import { assertJobName, DEFAULT_MAX_ATTEMPTS, normalizeEnqueue } from './enqueue-options';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}:${error.code}` : 'other';
  }
  return undefined;
}

describe('normalizeEnqueue', () => {
  it('fills the defaults', () => {
    expect(normalizeEnqueue('conflicts.analyze', { instanceId: 'ki_1' })).toEqual({
      name: 'conflicts.analyze',
      payloadJson: '{"instanceId":"ki_1"}',
      dedupeKey: null,
      delayMs: 0,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      interactive: false,
    });
    expect(normalizeEnqueue('a.b', {}, { priority: 'interactive' }).interactive).toBe(true);
  });

  it('keeps valid options and rounds the delay', () => {
    const job = normalizeEnqueue('a.b', {}, { dedupeKey: 'k', delayMs: 10.6, maxAttempts: 1 });
    expect(job).toMatchObject({ dedupeKey: 'k', delayMs: 11, maxAttempts: 1 });
  });

  it.each([
    ['maxAttempts 0', { maxAttempts: 0 }],
    ['maxAttempts 1.5', { maxAttempts: 1.5 }],
    ['maxAttempts 101', { maxAttempts: 101 }],
    ['negative delay', { delayMs: -1 }],
    ['infinite delay', { delayMs: Infinity }],
    ['empty dedupe key', { dedupeKey: '' }],
    ['huge dedupe key', { dedupeKey: 'k'.repeat(501) }],
    ['unknown priority', { priority: 'urgent' as 'interactive' }],
  ])('refuses %s', (_label, options) => {
    expect(codeOf(() => normalizeEnqueue('a.b', {}, options))).toBe('invalid:JOBS.INVALID_OPTIONS');
  });

  it('refuses a payload that is not an object', () => {
    expect(codeOf(() => normalizeEnqueue('a.b', null as unknown as object))).toBe('invalid:JOBS.INVALID_PAYLOAD');
  });
});

describe('assertJobName', () => {
  it.each(['conflicts.analyze', 'full-audit.run', 'a', 'stats.refresh_daily', 'x.y.z2'])('accepts %s', (name) => {
    expect(codeOf(() => assertJobName(name))).toBeUndefined();
  });

  it.each(['', 'Conflicts.analyze', 'a:b', 'a b', '.a', 'a.', 'a..b', '1a', 'a'.repeat(201)])('refuses "%s"', (name) => {
    expect(codeOf(() => assertJobName(name))).toBe('invalid:JOBS.INVALID_NAME');
  });
});
