import { writtenWords } from '../fold';
import { detectLanguage, Language } from '../language';
import { stem } from '../stem';
import { GENERIC_WORDS, stopwordsOf, VERY_GENERIC_WORDS } from '../stopwords';
import { SUBJECTS } from './constants';

/** One content word of a question. */
export interface SubjectTerm {
  /** What questions are compared by: the Snowball stem cut to {@link SUBJECTS.stemLength} letters ({@link subjectStem}). */
  stem: string;
  /** The word as written (capitals kept where the writer meant them): labels are made of these, never of stems. */
  surface: string;
}

/**
 * Words that ask rather than name a subject, beyond the stop words: interrogatives and auxiliaries,
 * politeness, "do you know", "is there any information", and the framing of "how long" or "how many". Two
 * questions that share only these are not about one thing.
 */
const ASKING_WORDS = new Set(
  (
    'how what which who whom whose when where why whats hows is are was were do does did can could may might must shall should will would ' +
    'has have had many much long often kind type name named called there any take takes get gets got make makes need needs give gives ' +
    'please tell know find anyone someone somebody anybody anything something info information details detail explain mean means ' +
    'happen happens exist exists hi hello thanks thank ok okay exactly actually currently still possible allowed ' +
    'quel quelle quels quelles comment combien pourquoi quand ou qui quoi existe existent faut faire fait peux puis peut peuvent ' +
    'dois doit doivent savoir sais trouver trouve connaitre svp merci bonjour besoin aimerais voudrais souhaite quelqu quelque chose ' +
    'infos informations'
  ).split(' '),
);

/**
 * The content words of a short question, for grouping questions by subject: folded words less the
 * language's stop words ("car" is a French one and an English noun), question words and one-letter words,
 * each with its {@link subjectStem}. Order and repeats are kept (labels follow the writers' word order).
 */
export function questionTerms(question: string, language: Language = detectLanguage(question)): SubjectTerm[] {
  const words = writtenWords(question);
  const shouting = isShouting(question);
  const stopwords = stopwordsOf(language);
  const terms: SubjectTerm[] = [];
  words.forEach(({ written, folded }, i) => {
    if (stopwords.has(folded) || ASKING_WORDS.has(folded) || (folded.length < 2 && !/\d/u.test(folded))) return;
    terms.push({ stem: subjectStem(folded, language), surface: surfaceOf(written, i === 0, shouting) });
  });
  return terms;
}

/**
 * The Snowball stem of a folded word in `language`, cut to `SUBJECTS.stemLength` letters. Snowball keeps
 * some derivations apart that a prefix joins — "whistleblowing" and "whistle", "leadership" and "leader"
 * — and so are words of the two languages: "maternity" and "maternité" ("matern",
 * "maternit"), "parental" ("parent" in English, "parental" in French). The cost is a few collisions of long
 * words ("internal", "international"). Words with digits are codes ("ISO27001", "form12"), kept whole.
 * Measured in tools/eval (README "Missing subjects").
 */
export function subjectStem(folded: string, language: Language): string {
  return /\d/u.test(folded) ? folded : stem(folded, language).slice(0, SUBJECTS.stemLength);
}

/**
 * Generic words of business writing (`GENERIC_WORDS`, `VERY_GENERIC_WORDS`, the local embedder's too): a
 * question about "the number of days" and one about "the number of staff" share them without sharing a subject.
 */
let genericStems: ReadonlySet<string> | undefined;

/**
 * How much a term says about a subject before rarity: `SUBJECTS.genericWeight` for the stem of a generic
 * word (in either language), 1 otherwise. In a small set of questions rarity alone cannot tell "day" from
 * "whistleblowing".
 */
export function termSalience(stem: string): number {
  genericStems ??= new Set(`${VERY_GENERIC_WORDS} ${GENERIC_WORDS}`.split(/\s+/u).filter(Boolean).flatMap((w) => [subjectStem(w, 'en'), subjectStem(w, 'fr')]));
  return genericStems.has(stem) ? SUBJECTS.genericWeight : 1;
}

/** More capitals than small letters: the capitals say nothing of acronyms or names. */
function isShouting(text: string): boolean {
  const upper = (text.match(/\p{Lu}/gu) ?? []).length;
  const lower = (text.match(/\p{Ll}/gu) ?? []).length;
  return upper > lower;
}

/**
 * The written word as a label may show it. A shouted question's capitals say nothing and are dropped; the
 * first word's capital is habit and dropped too unless the word is an acronym ("GDPR", "RGPD"); other
 * words keep theirs (a name: "London"), and a label prefers a lower-case spelling when writers differ.
 */
function surfaceOf(written: string, first: boolean, shouting: boolean): string {
  if (shouting || (first && !/^\p{Lu}[\p{Lu}\p{N}]{1,4}$/u.test(written))) return written.toLowerCase();
  return written;
}
