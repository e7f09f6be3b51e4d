import { contentStems } from './stem';

/** Days of the week (1 = Monday) by the words that name them, in English and French, singular (the plural adds an s). */
const DAY_WORDS: readonly [string, readonly number[]][] = [
  ['monday', [1]], ['tuesday', [2]], ['wednesday', [3]], ['thursday', [4]], ['friday', [5]], ['saturday', [6]], ['sunday', [7]],
  ['lundi', [1]], ['mardi', [2]], ['mercredi', [3]], ['jeudi', [4]], ['vendredi', [5]], ['samedi', [6]], ['dimanche', [7]],
  ['weekday', [1, 2, 3, 4, 5]], ['weekend', [6, 7]],
];

/** The English names of the days, singular and plural: capitalised whatever they name. */
export const ENGLISH_DAY_NAMES: readonly string[] = DAY_WORDS.slice(0, 7).flatMap(([w]) => [w, `${w}s`]);

/** A word naming days of the week, singular or plural. */
export const DAY_WORD = new RegExp(String.raw`\b(?:${DAY_WORDS.map(([w]) => w).join('|')})s?\b`, 'giu');

/** Days by the stems of their words, in both languages. */
const DAY_STEMS: ReadonlyMap<string, readonly number[]> = new Map(
  DAY_WORDS.flatMap(([w, days]) => [w, `${w}s`].flatMap((form) => (['en', 'fr'] as const).flatMap((language) => contentStems(form, language).map((s) => [s, days] as const)))),
);

/** The days of the week some subject stems name. */
export function daysOfStems(stems: Iterable<string>): Set<number> {
  const out = new Set<number>();
  for (const s of stems) for (const d of DAY_STEMS.get(s) ?? []) out.add(d);
  return out;
}
