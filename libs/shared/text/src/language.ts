import { detectAll } from 'tinyld';
import { foldedWords } from './fold';
import { ENGLISH_STOPWORDS, FRENCH_STOPWORDS } from './stopwords';

export type Language = 'en' | 'fr';
export const LANGUAGES: readonly Language[] = ['en', 'fr'];

/** Below this many letters a statistical detector guesses; function words decide instead. */
const SHORT_TEXT = 40;

/**
 * The language of a text among those the service analyses (`en`, `fr`), English when unsure. Long
 * texts: `tinyld`'s n-gram model restricted to those languages; short ones (a question, a heading):
 * which language's function words it uses more, French when it has French-only marks (accents,
 * elisions) and no English function word.
 */
export function detectLanguage(text: string): Language {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters >= SHORT_TEXT) {
    const [best] = detectAll(text, { only: [...LANGUAGES] });
    if (best && (best.lang === 'en' || best.lang === 'fr') && best.accuracy > 0) return best.lang;
  }
  return byFunctionWords(text);
}

function byFunctionWords(text: string): Language {
  let english = 0;
  let french = 0;
  for (const word of foldedWords(text)) {
    const en = ENGLISH_STOPWORDS.has(word);
    const fr = FRENCH_STOPWORDS.has(word);
    if (en && !fr) english++;
    if (fr && !en) french++;
  }
  if (french > english) return 'fr';
  if (english > french) return 'en';
  return /[àâçéèêëîïôûùüÿœ]|\b[ldjnmsc]['’]\p{L}/iu.test(text) ? 'fr' : 'en';
}

/** `fr` for a French BCP 47 tag (`fr`, `fr-CA`), `en` for any other; undefined without a tag. */
export function languageOfTag(tag: string | undefined): Language | undefined {
  if (!tag || tag.trim() === '') return undefined;
  return tag.trim().toLowerCase().startsWith('fr') ? 'fr' : 'en';
}
