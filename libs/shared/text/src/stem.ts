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
  return stemmerFor(language).stem(word);
}

/** The stems of a text's content words (function words and one-letter words left out). */
export function contentStems(text: string, language: Language): string[] {
  return foldedWords(text)
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map((w) => stem(w, language));
}
