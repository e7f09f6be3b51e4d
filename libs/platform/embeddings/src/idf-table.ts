import { GENERIC_WORDS, STOPWORDS, VERY_GENERIC_WORDS } from '@svc/text';

/**
 * A fixed, smoothed inverse-document-frequency table. The local embedder has no corpus to learn
 * from (and its vectors must not change when documents arrive, or stored vectors would stop being
 * comparable), so document frequencies are estimated once, by hand, for two tiers of generic English
 * and French words that appear in most business documents; every other word is treated as rare.
 *
 * idf(df) = ln((1 + N) / (1 + df * N)) + 1 over a notional corpus of N paragraphs, divided by the idf
 * of a rare word so that ordinary vocabulary weighs 1 and generic words weigh less. Changing this
 * table changes the vectors: bump the embedder's model version with it.
 */
const NOTIONAL_PARAGRAPHS = 10_000;
const RARE_DF = 0.0005;
const GENERIC_DF = 0.05;
const VERY_GENERIC_DF = 0.2;
/** Function words only count when a text has nothing else (see LocalHashingEmbedder). */
const STOPWORD_DF = 0.5;





function idf(df: number): number {
  return Math.log((1 + NOTIONAL_PARAGRAPHS) / (1 + df * NOTIONAL_PARAGRAPHS)) + 1;
}

const RARE_IDF = idf(RARE_DF);

function tier(words: string, df: number): [string, number][] {
  return words
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => [w, idf(df) / RARE_IDF]);
}

const TABLE: ReadonlyMap<string, number> = new Map([
  ...[...STOPWORDS].map((w): [string, number] => [w, idf(STOPWORD_DF) / RARE_IDF]),
  ...tier(GENERIC_WORDS, GENERIC_DF),
  ...tier(VERY_GENERIC_WORDS, VERY_GENERIC_DF),
]);

/** The weight of a folded, lower-cased word: 1 for ordinary words, less for generic ones. */
export function idfWeight(word: string): number {
  return TABLE.get(word) ?? 1;
}
