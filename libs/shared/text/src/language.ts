import { detectAll } from 'tinyld';
import { foldedWords } from './fold';
import { ENGLISH_STOPWORDS, FRENCH_STOPWORDS } from './stopwords';

export type Language = 'en' | 'fr';
export const LANGUAGES: readonly Language[] = ['en', 'fr'];

/** Below this many letters a statistical detector guesses; function words decide instead. */
const SHORT_TEXT = 40;

/**
 * The language of a text among those the service analyses (`en`, `fr`), English when unsure. A text
 * whose function words clearly belong to one language (CLEAR_VOTES) is in it; otherwise, long texts:
 * `tinyld`'s n-gram model restricted to those languages; short ones (a question, a heading): which
 * language's function words it uses more, French when it has French-only marks (accents, elisions)
 * and no English function word.
 */
export function detectLanguage(text: string): Language {
  const { english, french } = functionWords(text);
  // Function words outvoting the other language's two to one, at least three of them, are a clearer sign than
  // letter n-grams, which read a short English text full of words French shares ("Router prices, validity") as French.
  if (english >= CLEAR_VOTES && english >= 2 * french) return 'en';
  if (french >= CLEAR_VOTES && french >= 2 * english) return 'fr';
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters >= SHORT_TEXT) {
    const [best] = detectAll(text, { only: [...LANGUAGES] });
    if (best && (best.lang === 'en' || best.lang === 'fr') && best.accuracy > 0) return best.lang;
  }
  return byFunctionWords(text, english, french);
}

/** Function words that decide a text's language on their own: at least this many, twice the other language's. */
const CLEAR_VOTES = 3;

function functionWords(text: string): { english: number; french: number } {
  let english = 0;
  let french = 0;
  for (const word of foldedWords(text)) {
    const en = ENGLISH_STOPWORDS.has(word);
    const fr = FRENCH_STOPWORDS.has(word);
    if (en && !fr) english++;
    if (fr && !en) french++;
  }
  return { english, french };
}

function byFunctionWords(text: string, english: number, french: number): Language {
  if (french > english) return 'fr';
  if (english > french) return 'en';
  return /[àâçéèêëîïôûùüÿœ]|\b[ldjnmsc]['’]\p{L}/iu.test(text) ? 'fr' : 'en';
}

/** `fr` for a French BCP 47 tag (`fr`, `fr-CA`), `en` for any other; undefined without a tag. */
export function languageOfTag(tag: string | undefined): Language | undefined {
  if (!tag || tag.trim() === '') return undefined;
  return tag.trim().toLowerCase().startsWith('fr') ? 'fr' : 'en';
}
