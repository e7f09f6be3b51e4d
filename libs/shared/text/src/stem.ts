import { newStemmer, Stemmer } from 'snowball-stemmers';
import { foldedWords } from './fold';
import type { Language } from './language';
import { STOPWORDS } from './stopwords';

const ALGORITHMS: Record<Language, string> = { en: 'english', fr: 'french' };
const stemmers = new Map<Language, Stemmer>();

function stemmerFor(language: Language): Stemmer {
  let stemmer = stemmers.get(language);
  if (!stemmer) {
    stemmer = newStemmer(ALGORITHMS[language]);
    stemmers.set(language, stemmer);
  }
  return stemmer;
}

/**
 * The Snowball stem of a folded word in `language` ("refunds", "refunded" → "refund"; "remboursements",
 * "remboursé" → "rembours"). Words with digits are kept as they are.
 */
export function stem(word: string, language: Language): string {
  if (word.length <= 2 || /\d/.test(word)) return word;
  const cache = caches[language];
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    // The Snowball stemmers (transpiled from Java) cost about 20 µs a word; texts repeat their words.
    if (cache.size >= STEM_CACHE_SIZE) cache.clear();
    stemmed = stemmerFor(language).stem(word);
    cache.set(word, stemmed);
  }
  return stemmed;
}

/** Stems remembered per language; the cache starts over when full (a bounded memory, about 5 MB). */
const STEM_CACHE_SIZE = 50_000;
const caches: Record<Language, Map<string, string>> = { en: new Map(), fr: new Map() };

/** The stems of a text's content words (function words and one-letter words left out). */
export function contentStems(text: string, language: Language): string[] {
  return foldedWords(text)
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map((w) => stem(w, language));
}
