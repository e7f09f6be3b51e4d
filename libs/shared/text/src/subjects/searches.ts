import { foldText } from '../fold';
import { SUBJECTS } from './constants';

/** One search of the instance API that found no answer. */
export interface SearchLogEntry {
  query: string;
  userId: string;
  /** When it was asked: a Date, or milliseconds since the epoch. */
  at: Date | number;
}

export interface SearchNoiseOptions {
  /** Kept when at least this many distinct users asked it... */
  minUsers: number;
  /** ...or when it was asked at least this many times, a user's retries counting once. */
  minRepeats: number;
  /** Only searches in the `windowMs` milliseconds up to `now` count. */
  windowMs: number;
  /** A user asking the same query again within this many milliseconds is retrying: one search. */
  retryMs: number;
  /** End of the window; by default the latest entry's time. */
  now?: Date | number;
}

export const DEFAULT_SEARCH_NOISE_OPTIONS: SearchNoiseOptions = {
  minUsers: SUBJECTS.searches.minUsers,
  minRepeats: SUBJECTS.searches.minRepeats,
  windowMs: SUBJECTS.searches.windowMs,
  retryMs: SUBJECTS.searches.retryMs,
};

/** An unanswered search worth a question of a missing subject. */
export interface RecurringSearch {
  /** The spelling asked most often (the earliest on a tie), trimmed. */
  query: string;
  /** What the variants share ({@link normalizeSearch}). */
  normalized: string;
  users: number;
  /** Searches counted (retries apart). */
  count: number;
  firstAt: number;
  lastAt: number;
}

/**
 * The query as variants share it: folded (case, accents), punctuation as spaces, spaces collapsed:
 * "Parental leave?", "parental  leave" and "PARENTAL LEAVE" are one query.
 */
export function normalizeSearch(query: string): string {
  return foldText(query)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Queries people type to see whether the search works, folded. */
const TEST_QUERIES = new Set(['test', 'tests', 'testing', 'essai', 'asdf', 'qwerty', 'azerty', 'foo', 'bar', 'foobar', 'lorem ipsum', 'hello', 'hello world', 'ping', 'xxx', 'toto', 'abc']);

/**
 * True for test traffic and slips rather than a need: no letters, fewer than `SUBJECTS.searches.minLetters`
 * letters, a known test query ("test", "asdf", "lorem ipsum"), or one letter repeated ("aaaa").
 */
export function searchIsNoise(query: string): boolean {
  const normalized = normalizeSearch(query);
  const letters = normalized.match(/\p{L}/gu) ?? [];
  if (letters.length < SUBJECTS.searches.minLetters) return true;
  if (TEST_QUERIES.has(normalized) || /^(?:test|essai)\s*\d*$/u.test(normalized)) return true;
  return new Set(letters).size === 1;
}

/**
 * The unanswered searches worth a subject: noise dropped ({@link searchIsNoise}), variants grouped by
 * {@link normalizeSearch}, and only those asked in the window by at least `minUsers` distinct users or at
 * least `minRepeats` times, a user's retries within `retryMs` counting once. Sorted by users, then count,
 * then normalized query.
 */
export function denoiseSearches(entries: readonly SearchLogEntry[], options: SearchNoiseOptions = DEFAULT_SEARCH_NOISE_OPTIONS): RecurringSearch[] {
  const times = entries.map((e) => +e.at);
  const now = options.now === undefined ? times.reduce((max, t) => (t > max ? t : max), -Infinity) : +options.now;
  const since = now - options.windowMs;
  const ordered = entries.map((e, i) => ({ ...e, time: times[i], order: i })).sort((x, y) => x.time - y.time || x.order - y.order);
  const groups = new Map<string, { spellings: Map<string, number>; users: Set<string>; lastByUser: Map<string, number>; count: number; firstAt: number; lastAt: number }>();
  for (const e of ordered) {
    if (e.time < since || e.time > now || searchIsNoise(e.query)) continue;
    const key = normalizeSearch(e.query);
    let group = groups.get(key);
    if (!group) {
      group = { spellings: new Map(), users: new Set(), lastByUser: new Map(), count: 0, firstAt: e.time, lastAt: e.time };
      groups.set(key, group);
    }
    const spelling = e.query.trim().replace(/\s+/gu, ' ');
    group.spellings.set(spelling, (group.spellings.get(spelling) ?? 0) + 1);
    group.users.add(e.userId);
    const previous = group.lastByUser.get(e.userId);
    if (previous === undefined || e.time - previous > options.retryMs) group.count++;
    group.lastByUser.set(e.userId, e.time);
    group.lastAt = e.time;
  }
  const kept: RecurringSearch[] = [];
  for (const [normalized, g] of groups) {
    if (g.users.size < options.minUsers && g.count < options.minRepeats) continue;
    let query = '';
    let best = 0;
    for (const [spelling, n] of g.spellings) if (n > best) [query, best] = [spelling, n];
    kept.push({ query, normalized, users: g.users.size, count: g.count, firstAt: g.firstAt, lastAt: g.lastAt });
  }
  return kept.sort((x, y) => y.users - x.users || y.count - x.count || (x.normalized < y.normalized ? -1 : x.normalized > y.normalized ? 1 : 0));
}
