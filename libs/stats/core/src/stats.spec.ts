import { domainErrorOf } from '@svc/kernel/testing';
import { DAILY_COUNTERS, dayRange, fillDays, MAX_RANGE_DAYS, sumDays, zeroCounters } from './stats';

const errorOf = async (f: () => unknown) => domainErrorOf(Promise.resolve().then(f));

describe('dayRange', () => {
  it('covers whole UTC days, both ends included', () => {
    const r = dayRange('2026-02-27', '2026-03-01');
    expect(r.days).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(r.from.toISOString()).toBe('2026-02-27T00:00:00.000Z');
    expect(r.toExclusive.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(dayRange('2024-02-28', '2024-03-01').days).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(dayRange('2026-11-26', '2026-11-26').days).toEqual(['2026-11-26']);
  });

  it.each([
    ['2026-02-30', '2026-03-01', 'REQUEST.INVALID_DATE', 'begin_date'],
    ['2026-1-05', '2026-01-06', 'REQUEST.INVALID_DATE', 'begin_date'],
    ['2026-01-05', '2026-01-05T10:00:00Z', 'REQUEST.INVALID_DATE', 'end_date'],
    ['2025-02-29', '2025-03-01', 'REQUEST.INVALID_DATE', 'begin_date'],
    ['2026-03-02', '2026-03-01', 'REQUEST.EMPTY_RANGE', 'end_date'],
  ])('%s .. %s is a 400 %s naming %s', async (begin, end, code, field) => {
    const error = await errorOf(() => dayRange(begin, end));
    expect(error).toMatchObject({ kind: 'invalid', code });
    expect(JSON.stringify(error.errors)).toContain(field);
  });

  it(`counts at most ${MAX_RANGE_DAYS} days: a leap year fits, one more day does not`, async () => {
    expect(dayRange('2024-01-01', '2024-12-31').days).toHaveLength(366);
    expect(await errorOf(() => dayRange('2024-01-01', '2025-01-01'))).toMatchObject({ code: 'STATS.RANGE_TOO_LONG' });
  });
});

describe('fillDays and sumDays', () => {
  it('gives every day of the range, oldest first, the days without activity at zero', () => {
    const range = dayRange('2026-11-24', '2026-11-26');
    const rows = fillDays(range, new Map([['2026-11-25', { ...zeroCounters(), conflicts_managed: 2, questions_created: 1 }]]));
    expect(rows.map((r) => r.date)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(rows[0]).toEqual({ date: '2026-11-24', ...zeroCounters() });
    expect(rows[1]).toMatchObject({ conflicts_managed: 2, questions_created: 1, conflicts_ignored: 0 });
    expect(Object.keys(rows[2])).toEqual(['date', ...DAILY_COUNTERS]);
  });

  it('sums each counter over the days', () => {
    const a = { ...zeroCounters(), conflicts_detected: 3, duplicates_managed: 1 };
    const b = { ...zeroCounters(), conflicts_detected: 2, full_audit_ignored: 4 };
    expect(sumDays([a, b])).toEqual({ ...zeroCounters(), conflicts_detected: 5, duplicates_managed: 1, full_audit_ignored: 4 });
    expect(sumDays([])).toEqual(zeroCounters());
  });
});
