import { dateRange } from './search-answers';

describe('dateRange', () => {
  it('makes a date cover its whole UTC day, both ends inclusive', () => {
    const { from, to } = dateRange('2026-11-01', '2026-11-02');
    expect(from.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-03T00:00:00.000Z');
  });

  it('takes date-times as given, the end inclusive', () => {
    const { from, to } = dateRange('2026-11-01T10:00:00Z', '2026-11-01T11:00:00Z');
    expect(to.getTime() - from.getTime()).toBe(3600_000 + 1);
  });

  it('names a bad or reversed range', () => {
    expect(() => dateRange('yesterday', '2026-11-01')).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'begin_date' })] }));
    expect(() => dateRange('2026-11-02', '2026-11-01')).toThrow(expect.objectContaining({ code: 'REQUEST.EMPTY_RANGE' }));
  });
});
