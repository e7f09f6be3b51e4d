import { SUBJECTS } from './constants';
import { DEFAULT_SEARCH_NOISE_OPTIONS, denoiseSearches, normalizeSearch, SearchLogEntry, searchIsNoise } from './searches';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const NOW = Date.UTC(2026, 10, 26);
const at = (daysAgo: number, minutes = 0) => NOW - daysAgo * DAY + minutes * MINUTE;

describe('unanswered searches', () => {
  it('normalises trivial variants together', () => {
    expect(normalizeSearch('  Parental   LEAVE?? ')).toBe('parental leave');
    expect(normalizeSearch('congé-parental')).toBe(normalizeSearch('Conge parental'));
  });

  it('tells test traffic and slips', () => {
    for (const q of ['', '42', '??', 'ok', 'test', 'Test 2', 'asdf', 'aaaa', 'lorem ipsum']) expect(searchIsNoise(q)).toBe(true);
    for (const q of ['parental leave', 'GDPR', 'car', 'test environment access']) expect(searchIsNoise(q)).toBe(false);
  });

  it('keeps a query several users asked, or one asked again and again; drops the rest', () => {
    const log: SearchLogEntry[] = [
      { query: 'parental leave', userId: 'u1', at: at(3) },
      { query: 'Parental Leave?', userId: 'u2', at: at(2) },
      { query: 'bike scheme', userId: 'u3', at: at(20) },
      { query: 'bike scheme', userId: 'u3', at: at(10) },
      { query: 'bike scheme', userId: 'u3', at: at(1) },
      { query: 'dress code', userId: 'u4', at: at(1) },
      { query: 'dress code', userId: 'u4', at: at(1, 30) },
      { query: 'test', userId: 'u5', at: at(1) },
      { query: 'test', userId: 'u6', at: at(1) },
    ];
    const kept = denoiseSearches(log, { ...DEFAULT_SEARCH_NOISE_OPTIONS, now: NOW });
    expect(kept).toEqual([
      { query: 'parental leave', normalized: 'parental leave', users: 2, count: 2, firstAt: at(3), lastAt: at(2) },
      { query: 'bike scheme', normalized: 'bike scheme', users: 1, count: 3, firstAt: at(20), lastAt: at(1) },
    ]);
  });

  it('counts a user retrying within minutes once', () => {
    const log = [0, 2, 4, 6, 8].map((m) => ({ query: 'whistleblowing', userId: 'u1', at: at(1, m) }));
    expect(denoiseSearches(log, { ...DEFAULT_SEARCH_NOISE_OPTIONS, now: NOW })).toEqual([]);
    const apart = [0, 20, 40].map((m) => ({ query: 'whistleblowing', userId: 'u1', at: at(1, m) }));
    expect(denoiseSearches(apart, { ...DEFAULT_SEARCH_NOISE_OPTIONS, now: NOW })[0]?.count).toBe(3);
  });

  it('counts only the window up to now, by default the latest search', () => {
    const log = [
      { query: 'pension plan', userId: 'u1', at: new Date(at(200)) },
      { query: 'pension plan', userId: 'u2', at: new Date(at(1)) },
    ];
    expect(denoiseSearches(log)).toEqual([]);
    expect(denoiseSearches(log, { ...DEFAULT_SEARCH_NOISE_OPTIONS, windowMs: 365 * DAY })).toHaveLength(1);
    expect(DEFAULT_SEARCH_NOISE_OPTIONS.windowMs).toBe(SUBJECTS.searches.windowMs);
  });

  it('shows the spelling asked most often, and sorts by users then count', () => {
    const log: SearchLogEntry[] = [
      { query: 'Data retention', userId: 'u1', at: at(5) },
      { query: 'data retention', userId: 'u2', at: at(4) },
      { query: 'data retention', userId: 'u3', at: at(3) },
      { query: 'car policy', userId: 'u1', at: at(3) },
      { query: 'car policy', userId: 'u2', at: at(2) },
    ];
    const kept = denoiseSearches(log, { ...DEFAULT_SEARCH_NOISE_OPTIONS, now: NOW });
    expect(kept.map((k) => [k.query, k.users])).toEqual([
      ['data retention', 3],
      ['car policy', 2],
    ]);
    expect(denoiseSearches([...log].reverse(), { ...DEFAULT_SEARCH_NOISE_OPTIONS, now: NOW })).toEqual(kept);
  });
});
