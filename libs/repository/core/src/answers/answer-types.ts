import { extractValues, hasNegation, type Language, type TypedValue, type ValueKind } from '@svc/text';
import { foldedWords, foldText, writtenWords } from './text-analysis';

/**
 * What kind of answer a question asks for. `open` is everything else ("what is", "how do I", "why"):
 * no particular form of answer is expected.
 */
export type AnswerType = 'duration' | 'quantity' | 'amount' | 'percentage' | 'date' | 'time' | 'yesno' | 'named' | 'open';

export interface QuestionIntent {
  type: AnswerType;
  /** Positions in `writtenWords(question)` that only express the type ("how", "long", the unit of "how many days"). */
  framing: ReadonlySet<number>;
}

const EN_AUXILIARIES = new Set(
  'is are was were am can could do does did will would should shall must may might has have had'.split(' '),
);
const DURATION_UNIT_WORDS = new Set(
  'day days week weeks month months year years hour hours minute minutes night nights jour jours journee journees semaine semaines mois an ans annee annees heure heures minute minutes nuit nuits'.split(' '),
);
/** Words that make "how much" / "combien" about money. Folded, matched as prefixes. */
const MONEY_CUES = [
  'cost', 'price', 'pay', 'paid', 'fee', 'charge', 'reimburs', 'refund', 'budget', 'salary', 'salaire', 'spend', 'spent', 'expens',
  'allowance', 'euro', 'dollar', 'coute', 'cout', 'prix', 'pai', 'frais', 'tarif', 'montant', 'rembours', 'depens', 'indemn',
];
const DURATION_NOUNS = new Set('deadline deadlines delay delays period duration notice delai delais duree periode preavis'.split(' '));
const AMOUNT_NOUNS = new Set('amount price cost fee fees montant prix cout tarif plafond'.split(' '));
const PERCENT_NOUNS = new Set('percentage percent rate pourcentage taux'.split(' '));
const DATE_NOUNS = new Set('date day jour'.split(' '));
const TIME_NOUNS = new Set('time heure'.split(' '));
const QUANTITY_NOUNS = new Set('number nombre maximum minimum limit'.split(' '));
const TYPE_NOUNS = new Set([...DURATION_NOUNS, ...AMOUNT_NOUNS, ...PERCENT_NOUNS, ...DATE_NOUNS, ...TIME_NOUNS, ...QUANTITY_NOUNS]);
const FRENCH_INVERSION = /^\s*(?:[\p{L}]+-(?:t-)?(?:je|tu|il|elle|on|nous|vous|ils|elles)|y a-t-il|est-ce qu)/iu;
const WH_WORDS = new Set('what which who whom whose when where why how quel quelle quels quelles qui quand comment pourquoi combien que quoi'.split(' '));

function hasMoneyCue(words: string[]): boolean {
  return words.some((w) => MONEY_CUES.some((cue) => w.startsWith(cue)));
}

/**
 * Reads the type of answer a question asks for from its wording, in English and French: "how long",
 * "combien de temps", "quel délai" → duration; "how many", "combien" → quantity, or amount when the
 * question is about money, or duration when a time unit follows; "when", "quand" → date; "what time",
 * "à quelle heure" → time; "who", "which", "where", "qui", "où", "quel" → a named value; a question
 * opening with an auxiliary ("is", "can", "does"), a French inversion ("peut-on", "faut-il") or
 * "est-ce que" → yes/no.
 */
export function questionIntent(question: string): QuestionIntent {
  const words = writtenWords(question).map((w) => w.folded);
  const framing = new Set<number>();
  const at = (i: number) => words[i] ?? '';
  const result = (type: AnswerType): QuestionIntent => ({ type, framing });

  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === 'how') {
      const next = at(i + 1);
      if (['long', 'soon', 'quickly', 'fast'].includes(next)) {
        framing.add(i).add(i + 1);
        return result('duration');
      }
      if (next === 'often') {
        framing.add(i).add(i + 1);
        return result('date');
      }
      if (next === 'many' || next === 'much') {
        framing.add(i).add(i + 1);
        if (DURATION_UNIT_WORDS.has(at(i + 2))) {
          framing.add(i + 2);
          return result('duration');
        }
        if (next === 'much' && hasMoneyCue(words)) return result('amount');
        if (PERCENT_NOUNS.has(at(i + 2))) return result('percentage');
        return result('quantity');
      }
    }
    if (w === 'combien') {
      framing.add(i);
      const unit = at(i + 1) === 'de' || at(i + 1) === 'd' ? i + 2 : i + 1;
      if (at(unit) === 'temps' || DURATION_UNIT_WORDS.has(at(unit))) {
        framing.add(unit);
        return result('duration');
      }
      if (hasMoneyCue(words)) return result('amount');
      return result('quantity');
    }
    if (w === 'when' || w === 'quand') {
      framing.add(i);
      return result('date');
    }
    if ((w === 'what' || w === 'which') && at(i + 1) === 'time') {
      framing.add(i).add(i + 1);
      return result('time');
    }
    if (['quel', 'quelle', 'quels', 'quelles', 'what', 'which'].includes(w)) {
      // "quel est le délai", "what is the refund deadline": a noun shortly after names the type.
      const following = words.slice(i + 1, i + 6);
      const noun = following.find((x) => TYPE_NOUNS.has(x));
      if (noun !== undefined) {
        if (DURATION_NOUNS.has(noun)) return result('duration');
        if (PERCENT_NOUNS.has(noun)) return result('percentage');
        if (AMOUNT_NOUNS.has(noun)) return result('amount');
        if (TIME_NOUNS.has(noun)) return result('time');
        if (DATE_NOUNS.has(noun)) return result('date');
        return result(hasMoneyCue(words) ? 'amount' : 'quantity');
      }
      framing.add(i);
      if (w === 'what') return result('open');
      return result('named');
    }
    if (['who', 'whom', 'whose', 'qui', 'where'].includes(w)) {
      framing.add(i);
      return result('named');
    }
  }
  if (/(?<![\p{L}])où(?![\p{L}])/iu.test(question)) return result('named');
  const first = words[0] ?? '';
  if (EN_AUXILIARIES.has(first) || FRENCH_INVERSION.test(question)) return result('yesno');
  // Questions without any question word: "refund deadline?", "les cartes cadeaux sont remboursables ?"
  if (words.some((x) => DURATION_NOUNS.has(x))) return result('duration');
  if (words.some((x) => AMOUNT_NOUNS.has(x))) return result('amount');
  if (question.trim().endsWith('?') && !words.some((x) => WH_WORDS.has(x))) return result('yesno');
  return result('open');
}

/** The kinds of value a search answer names, coarser than @svc/text's: a date range or a recurrence is a date, opening hours a time. */
export type AnswerValueKind = 'duration' | 'amount' | 'percentage' | 'number' | 'quantity' | 'date' | 'time';

/** A value a sentence states, as @svc/text reads it, in the kinds a search answer names. */
export interface AnswerValue {
  kind: AnswerValueKind;
  /** Other kinds of value it gives: "every three years" is also a duration, "5 March at 14:30" also a time. */
  also: AnswerValueKind[];
  /** As written in the sentence ("30 days", "150 EUR"). */
  text: string;
  /** @svc/text's canonical key: two values with one key say the same ("one week" and "7 days"). */
  key: string;
  /** False for values whose phrasings vary too much to call two different keys a disagreement. */
  comparable: boolean;
}

export function isOfKind(value: AnswerValue, kind: AnswerValueKind): boolean {
  return value.kind === kind || value.also.includes(kind);
}

const ANSWER_KIND: Record<ValueKind, AnswerValueKind> = {
  amount: 'amount',
  percentage: 'percentage',
  duration: 'duration',
  date: 'date',
  'date-range': 'date',
  recurrence: 'date',
  time: 'time',
  'time-range': 'time',
  quantity: 'quantity',
  number: 'number',
};
const WORDS_FOR_ONE = new Set(['one', 'un', 'une']);
/** A day of a month without a year ("5 May", "March 5"): @svc/text does not compare it, an answer does (two documents naming different days disagree). */
const DAY_OF_A_MONTH = /^date:XXXX-\d{2}-\d{2}$/u;
/** A recurrence of a plain period ("every three years"): also says how long until the next time. */
const PLAIN_PERIOD = /^recurrence:P\d+(?:\.\d+)?[DWMYH]$/u;
/** ...when it counts the period ("every 90 days", "tous les trois ans"), not when it only names it ("annual", "every year"). */
const COUNTED_PERIOD = /^(?:every|each|chaque|tou(?:te)?s\s+les)\s+\S+\s+\S+/iu;

function alsoKinds(value: TypedValue): AnswerValueKind[] {
  if (PLAIN_PERIOD.test(value.key) && COUNTED_PERIOD.test(value.text)) return ['duration'];
  if (value.key.startsWith('datetime:')) return ['time'];
  return [];
}

/**
 * The values a sentence states, in order, read by @svc/text's `extractValues` in the language of its text:
 * "150 EUR per night" an amount, "30 days" a duration, "the fifth working day of each month" a date. "One" written
 * as a word is a pronoun or an article more often than an answer ("one of them"): not a number here.
 */
export function answerValues(sentence: string, language: Language): AnswerValue[] {
  return extractValues(sentence, language)
    .filter((v) => !(v.kind === 'number' && WORDS_FOR_ONE.has(foldText(v.text))))
    .map((v) => ({ kind: ANSWER_KIND[v.kind], also: alsoKinds(v), text: v.text, key: v.key, comparable: v.comparable || DAY_OF_A_MONTH.test(v.key) }));
}

const YES_NO_START = /^\s*["'“«]?(?:yes|no|oui|non)(?![\p{L}])/iu;
const RULE_WORDS = /(?<![\p{L}])(?:must|may|can|could|should|shall|allowed|permitted|required|mandatory|only|doit|doivent|peut|peuvent|autoris\p{L}*|oblig\p{L}*|seulement|uniquement|until|jusqu\p{L}*)(?![\p{L}])/iu;

/** True when a sentence negates what it states ("not", "never", "cannot", "ne ... pas", "interdit"). */
export function isNegative(sentence: string): boolean {
  return hasNegation(sentence) && !/^\s*["'“«]?(?:yes|oui)(?![\p{L}])/iu.test(sentence);
}

/** How plainly a sentence settles a yes/no question: 1 for "Yes, ..."/"No, ...", 0.9 for a rule or a negation, else 0.7. */
export function yesNoEvidence(sentence: string): number {
  if (YES_NO_START.test(sentence)) return 1;
  if (hasNegation(sentence) || RULE_WORDS.test(sentence)) return 0.9;
  return 0.7;
}

const NAMED = [
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu,
  /https?:\/\/[^\s)>\]]+/gu,
  /"[^"]{2,60}"|“[^”]{2,60}”|«[^»]{2,60}»/gu,
  /(?<![\p{L}\p{N}])\p{Lu}{2,}[\p{L}\p{N}]*(?![\p{L}\p{N}])/gu,
  /(?<=[\p{L}\p{N},;:)]\s+)\p{Lu}[\p{Ll}\p{N}'’-]+(?:\s+\p{Lu}[\p{L}\p{N}'’-]*)*/gu,
];

/**
 * The first name-like value of a sentence that the question does not already contain: an e-mail
 * address, a URL, a quoted name, an acronym ("IT desk") or capitalised words past the first word.
 */
export function findNamedValue(sentence: string, question: string): string | undefined {
  const asked = new Set(foldedWords(question));
  for (const pattern of NAMED) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(sentence); m; m = pattern.exec(sentence)) {
      const words = foldedWords(m[0]);
      if (words.length > 0 && !words.every((w) => asked.has(w))) return m[0];
    }
  }
  return undefined;
}
