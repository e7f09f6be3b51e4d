import { readNumber } from '@svc/text';
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

export type ValueKind = 'duration' | 'amount' | 'percentage' | 'number' | 'date' | 'time';

/** A value found in a sentence: a duration, an amount, a date... */
export interface TypedValue {
  kind: ValueKind;
  /** As written in the sentence ("30 days", "150 EUR"). */
  text: string;
  /** Canonical form: two values with one key say the same ("one week" and "7 days"). */
  key: string;
  /** False for values whose phrasings vary too much to call two different keys a disagreement (periodic or relative dates). */
  comparable: boolean;
}

const B0 = '(?<![\\p{L}\\p{N}])';
const B1 = '(?![\\p{L}\\p{N}])';

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, ninety: 90, hundred: 100,
  un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12,
  quinze: 15, vingt: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60, cent: 100,
};
const WORDS_FOR_ONE = new Set(['one', 'un', 'une']);
const NUMBER_WORD_PATTERN = Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|');
/** Digits with optional thousands groups and decimals: "30", "1 000", "1,000.50", "3,5". */
const NUMERIC = '\\d{1,3}(?:[ \\u00a0\\u202f,.]\\d{3})+(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?';
const NUM = `(?:${NUMERIC}|${NUMBER_WORD_PATTERN})`;

const UNIT_DAYS: [RegExp, number][] = [
  [/^(?:days?|jours?|journ[ée]es?)$/iu, 1],
  [/^(?:weeks?|semaines?)$/iu, 7],
  [/^(?:months?|mois)$/iu, 30],
  [/^(?:years?|ans?|ann[ée]es?)$/iu, 365],
  [/^(?:hours?|hrs?|heures?)$/iu, 1 / 24],
  [/^(?:minutes?|mins?)$/iu, 1 / 1440],
];
const UNITS = 'days?|jours?|journ[ée]es?|weeks?|semaines?|months?|mois|years?|ans?|ann[ée]es?|hours?|hrs?|heures?|minutes?|mins?';
const DURATION = new RegExp(
  `${B0}(${NUM})(?:\\s*(?:-|–|to|à|or|ou)\\s*(${NUM}))?\\s+(?:(?:business|working|calendar|full)\\s+)?(${UNITS})${B1}(?:\\s+(?:ouvr[ée]s|ouvrables|calendaires))?`,
  'giu',
);
const IMMEDIATE = new RegExp(`${B0}(?:immediately|right away|same day|without delay|imm[ée]diatement|sans d[ée]lai|le jour m[êe]me)${B1}`, 'giu');

const CURRENCY_WORD = 'euros?|dollars?|pounds?|francs?|eur|usd|gbp|chf';
const AMOUNT_BEFORE = new RegExp(`(?:(€|\\$|£)|${B0}(EUR|USD|GBP|CHF))\\s?(${NUMERIC})`, 'gu');
const AMOUNT_AFTER = new RegExp(`${B0}(${NUMERIC})\\s?(€|\\$|£|(?:${CURRENCY_WORD})${B1})`, 'giu');
const FREE = new RegExp(`${B0}(?:free of charge|at no cost|no charge|gratuit(?:e|s|es)?|sans frais)${B1}`, 'giu');
const PERCENTAGE = new RegExp(`${B0}(${NUMERIC})\\s?(?:%|percent${B1}|per cent${B1}|pour ?cent${B1})`, 'giu');

const MONTHS: [string, number][] = [
  ['january|janvier|jan', 1], ['february|f[ée]vrier|feb', 2], ['march|mars', 3], ['april|avril|apr', 4],
  ['may|mai', 5], ['june|juin|jun', 6], ['july|juillet|jul', 7], ['august|ao[ûu]t|aug', 8],
  ['september|septembre|sept|sep', 9], ['october|octobre|oct', 10], ['november|novembre|nov', 11], ['december|d[ée]cembre|dec', 12],
];
const MONTH = MONTHS.map(([p]) => p).join('|');
const MONTH_NOT_MAY = MONTHS.map(([p]) => p.replace(/^may\|/, '')).join('|');
const ORDINAL_WORDS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|premier|premi[èe]re|deuxi[èe]me|troisi[èe]me|quatri[èe]me|cinqui[èe]me|dernier|derni[èe]re';
const WEEKDAYS = 'mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|lundis?|mardis?|mercredis?|jeudis?|vendredis?|samedis?|dimanches?';
const DATE_EXACT = [
  new RegExp(`${B0}(\\d{4})-(\\d{2})-(\\d{2})${B1}`, 'gu'),
  new RegExp(`${B0}(\\d{1,2})/(\\d{1,2})(?:/(\\d{2,4}))?${B1}`, 'gu'),
  new RegExp(`${B0}(\\d{1,2})(?:st|nd|rd|th|er)?\\s+(?:of\\s+)?(${MONTH})${B1}(?:,?\\s+(\\d{4}))?`, 'giu'),
  new RegExp(`${B0}(${MONTH})\\s+(\\d{1,2})(?:st|nd|rd|th)?${B1}(?:,?\\s+(\\d{4}))?`, 'giu'),
];
const DATE_SOFT = [
  new RegExp(
    `${B0}(?:${ORDINAL_WORDS}|\\d{1,2}(?:st|nd|rd|th|e|[èe]me))\\s+(?:(?:working|business|calendar)\\s+)?(?:day|jour|${WEEKDAYS})(?:\\s+ouvr[ée])?\\s+(?:of|du|de)\\s+(?:the\\s+|each\\s+|every\\s+|chaque\\s+)?(?:month|week|year|quarter|mois|semaine|ann[ée]e|trimestre)${B1}`,
    'giu',
  ),
  new RegExp(`${B0}(?:each|every|chaque|tous les|toutes les)\\s+(?:day|week|month|year|quarter|jour|semaine|mois|an|ann[ée]e|trimestre|${WEEKDAYS})${B1}`, 'giu'),
  new RegExp(`${B0}(?:daily|weekly|monthly|quarterly|yearly|annually|quotidien(?:ne)?|hebdomadaire|mensuel(?:le)?|mensuellement|trimestriel(?:le)?|annuel(?:le)?)${B1}`, 'giu'),
  new RegExp(`${B0}(?:end|beginning|start|middle|fin|d[ée]but|milieu)\\s+(?:of\\s+the|of|du|de\\s+l'|de\\s+la|de)\\s*(?:month|year|quarter|week|mois|ann[ée]e|trimestre|semaine)${B1}`, 'giu'),
  new RegExp(`${B0}(?:${WEEKDAYS})${B1}`, 'giu'),
  new RegExp(`${B0}(?:in|en|since|depuis|until|jusqu'en|before|avant|after|apr[èe]s)\\s+(?:${MONTH_NOT_MAY})${B1}`, 'giu'),
  new RegExp(`${B0}(?:19|20)\\d{2}${B1}`, 'gu'),
];
const TIME = [
  new RegExp(`${B0}(\\d{1,2})\\s?[:h]\\s?(\\d{2})${B1}`, 'giu'),
  new RegExp(`${B0}(\\d{1,2})\\s?(am|pm|a\\.m\\.|p\\.m\\.)`, 'giu'),
  new RegExp(`${B0}(\\d{1,2})\\s?h${B1}`, 'giu'),
  new RegExp(`${B0}(noon|midday|midnight|midi|minuit)${B1}`, 'giu'),
];
const BARE_NUMBER = new RegExp(`${B0}(${NUMERIC}|${NUMBER_WORD_PATTERN})${B1}`, 'giu');

/**
 * A number as written ("1 000", "1,000.50", "1.200,00", "3,5", "three", "douze"), or NaN: read as the rest of
 * the service reads figures, by @svc/text's `readNumber` (the recognizers' number model, in the culture the
 * separators point to). Number words are looked up first: the patterns above only find the ones listed.
 */
export function parseNumber(text: string): number {
  return NUMBER_WORDS[foldText(text)] ?? readNumber(text);
}

function canonicalCurrency(symbol: string): string {
  const s = foldText(symbol);
  if (s === '€' || s.startsWith('eur')) return 'EUR';
  if (s === '$' || s.startsWith('dollar') || s === 'usd') return 'USD';
  if (s === '£' || s.startsWith('pound') || s === 'gbp') return 'GBP';
  if (s === 'chf' || s.startsWith('franc')) return 'CHF';
  return s.toUpperCase();
}

function amountValue(number: string, currency: string): Omit<TypedValue, 'text'> | undefined {
  const amount = parseNumber(number);
  if (!Number.isFinite(amount)) return undefined;
  return { kind: 'amount', key: `amount:${round(amount)}:${canonicalCurrency(currency)}`, comparable: true };
}

function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/**
 * The durations, amounts, percentages, dates, times and other numbers a sentence states, in order of
 * appearance. Each character belongs to one value at most: "150 EUR per night" is an amount, not a
 * number; "30 days" a duration.
 */
export function findValues(sentence: string): TypedValue[] {
  const taken: [number, number][] = [];
  const found: { at: number; value: TypedValue }[] = [];
  const free = (start: number, end: number) => taken.every(([s, e]) => end <= s || start >= e);
  const scan = (pattern: RegExp, make: (m: RegExpExecArray) => Omit<TypedValue, 'text'> | undefined) => {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(sentence); m; m = pattern.exec(sentence)) {
      const start = m.index;
      const end = start + m[0].length;
      if (!free(start, end)) continue;
      const value = make(m);
      if (!value) continue;
      taken.push([start, end]);
      found.push({ at: start, value: { ...value, text: m[0].trim() } });
    }
  };

  scan(AMOUNT_BEFORE, (m) => amountValue(m[3], m[1] ?? m[2]));
  scan(AMOUNT_AFTER, (m) => amountValue(m[1], m[2]));
  scan(FREE, () => ({ kind: 'amount', key: 'amount:0', comparable: true }));
  scan(PERCENTAGE, (m) => ({ kind: 'percentage', key: `percentage:${round(parseNumber(m[1]))}`, comparable: true }));
  for (const pattern of DATE_EXACT) {
    scan(pattern, (m) => {
      const [day, month] = dayAndMonth(m);
      if (!(day >= 1 && day <= 31 && month >= 1 && month <= 12)) return undefined;
      return { kind: 'date', key: `date:${day}-${month}`, comparable: true };
    });
  }
  for (const pattern of DATE_SOFT) {
    scan(pattern, (m) => ({ kind: 'date', key: `date~${foldText(m[0]).replace(/\s+/g, ' ')}`, comparable: false }));
  }
  for (const pattern of TIME) {
    scan(pattern, (m) => {
      const key = timeKey(m);
      return key ? { kind: 'time', key, comparable: true } : undefined;
    });
  }
  scan(DURATION, (m) => {
    const unit = UNIT_DAYS.find(([p]) => p.test(m[3]))?.[1];
    const low = parseNumber(m[1]);
    const high = m[2] ? parseNumber(m[2]) : undefined;
    if (unit === undefined || !Number.isFinite(low)) return undefined;
    return { kind: 'duration', key: `duration:${round(low * unit)}${high !== undefined ? `-${round(high * unit)}` : ''}`, comparable: true };
  });
  scan(IMMEDIATE, () => ({ kind: 'duration', key: 'duration:0', comparable: true }));
  scan(BARE_NUMBER, (m) => {
    if (WORDS_FOR_ONE.has(foldText(m[1]))) return undefined;
    const n = parseNumber(m[1]);
    return Number.isFinite(n) ? { kind: 'number', key: `number:${round(n)}`, comparable: true } : undefined;
  });
  return found.sort((a, b) => a.at - b.at).map((f) => f.value);
}

function dayAndMonth(m: RegExpExecArray): [number, number] {
  if (/^\d{4}$/.test(m[1])) return [Number(m[3]), Number(m[2])];
  if (/^\d/.test(m[1]) && /^\d/.test(m[2] ?? '')) return [Number(m[1]), Number(m[2])];
  const monthIndex = (name: string) => MONTHS.find(([p]) => new RegExp(`^(?:${p})$`, 'iu').test(name))?.[1] ?? 0;
  if (/^\d/.test(m[1])) return [Number(m[1]), monthIndex(m[2])];
  return [Number(m[2]), monthIndex(m[1])];
}

function timeKey(m: RegExpExecArray): string | undefined {
  const word = foldText(m[1]);
  if (word === 'noon' || word === 'midday' || word === 'midi') return 'time:12:00';
  if (word === 'midnight' || word === 'minuit') return 'time:0:00';
  let hours = Number(m[1]);
  const second = m[2] ? foldText(m[2]).replace(/\./g, '') : undefined;
  let minutes = 0;
  if (second === 'pm' && hours < 12) hours += 12;
  else if (second === 'am' && hours === 12) hours = 0;
  else if (second !== undefined && /^\d+$/.test(second)) minutes = Number(second);
  if (hours > 24 || minutes > 59) return undefined;
  return `time:${hours}:${String(minutes).padStart(2, '0')}`;
}

const YES_NO_START = /^\s*["'“«]?(?:yes|no|oui|non)(?![\p{L}])/iu;
const NEGATION = /(?<![\p{L}])(?:not|no|never|cannot|none|neither|nor|nobody|nothing|prohibited|forbidden|ne|pas|jamais|aucun|aucune|rien|interdit|interdite|interdits|interdites|non)(?![\p{L}])|n['’]t(?![\p{L}])|(?<![\p{L}])n['’](?=\p{L})/iu;
const RULE_WORDS = /(?<![\p{L}])(?:must|may|can|could|should|shall|allowed|permitted|required|mandatory|only|doit|doivent|peut|peuvent|autoris\p{L}*|oblig\p{L}*|seulement|uniquement|until|jusqu\p{L}*)(?![\p{L}])/iu;

/** True when a sentence negates what it states ("not", "never", "cannot", "ne ... pas", "interdit"). */
export function isNegative(sentence: string): boolean {
  return NEGATION.test(sentence) && !/^\s*["'“«]?(?:yes|oui)(?![\p{L}])/iu.test(sentence);
}

/** How plainly a sentence settles a yes/no question: 1 for "Yes, ..."/"No, ...", 0.9 for a rule or a negation, else 0.7. */
export function yesNoEvidence(sentence: string): number {
  if (YES_NO_START.test(sentence)) return 1;
  if (NEGATION.test(sentence) || RULE_WORDS.test(sentence)) return 0.9;
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
