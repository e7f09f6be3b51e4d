import { contentStems as stemsOf, detectLanguage, Language, stem as snowballStem } from '@svc/text';

/*
 * The answer composer's own word knowledge on top of the shared text library (`@svc/text`: folding,
 * stop words, Snowball stems, sentences, language detection): which question words only frame the
 * request, and stemming in the language of the request's text.
 */

export { foldedWords, foldText, splitSentences, STOPWORDS, writtenWords } from '@svc/text';
export type { Sentence, SentenceKind, Word } from '@svc/text';

/**
 * Words a question uses to frame the request rather than to name its subject ("how long does a refund
 * take", "what is the deadline"): a sentence answers without them, so they only count when the
 * question has nothing else, and break ties otherwise (weighted WEAK_TERM_WEIGHT among themselves).
 */
const WEAK_WORDS = `take get make give need want know happen tell find say possible
deadline delay period duration date time amount number quantity percentage rate maximum minimum limit
faut faire obtenir prendre falloir delai duree periode montant nombre quantite pourcentage taux plafond`;

export const WEAK_TERM_WEIGHT = 0.3;

/** The Snowball stem of a folded word, in the language of the text it comes from. */
export function stem(word: string, language: Language): string {
  return snowballStem(word, language);
}

const WEAK_STEMS: Record<Language, ReadonlySet<string>> = {
  en: new Set(WEAK_WORDS.split(/\s+/).filter(Boolean).map((w) => stem(w, 'en'))),
  fr: new Set(WEAK_WORDS.split(/\s+/).filter(Boolean).map((w) => stem(w, 'fr'))),
};

export function isWeakStem(s: string, language: Language): boolean {
  return WEAK_STEMS[language].has(s);
}

/** The stems of a text's content words (function words and one-letter words left out). */
export function contentStems(text: string, language: Language): string[] {
  return stemsOf(text, language);
}

/** `fr` when the text reads as French, else `en` (the shared detector). */
export function guessLanguage(text: string): Language {
  return detectLanguage(text);
}

