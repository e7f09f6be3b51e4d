import { Culture, recognizeCurrency, recognizeDateTime, recognizeDimension, recognizeNumber, recognizePercentage } from '@microsoft/recognizers-text-suite';
import type { Language } from './language';
import { plainFigures, resolvedNumber } from './numbers';
import { mayHoldAmount, mayHoldDateTime, mayHoldPercentage, mayHoldQuantity } from './value-prefilters';

type ModelResult = ReturnType<typeof recognizeNumber>[number];

export type ValueKind = 'amount' | 'percentage' | 'duration' | 'date' | 'date-range' | 'time' | 'time-range' | 'recurrence' | 'quantity' | 'number';

/**
 * A value a text states, with a canonical key: two values with one key say the same thing however
 * they are written ("two weeks" and "14 days" → `duration:P14D`; "€1,200", "1 200 €" and "1200 euros"
 * → `amount:EUR:1200`; "30 %" and "thirty percent" → `percentage:30`).
 */
export interface TypedValue {
  kind: ValueKind;
  /** As written. */
  text: string;
  /** Offsets in the text (end exclusive). */
  start: number;
  end: number;
  key: string;
  /**
   * False for values whose phrasings vary too much for two different keys to mean a disagreement:
   * recurrences ("every Monday"), dates without a year, relative dates.
   */
  comparable: boolean;
}

const CULTURES: Record<Language, string> = { en: Culture.English, fr: Culture.French };

/** Seconds in a day: durations of whole days are keyed in days, so weeks and days compare. */
const DAY = 86_400;

/** Texts read recently (a scan reads the same boilerplate sentences often, an evaluation the same passages for each question). */
const MEMO_SIZE = 2000;
const memo = new Map<string, TypedValue[]>();

/**
 * The amounts, percentages, durations, dates and date ranges, times and opening hours, quantities with
 * units and other numbers a text states, in order, each character in one value at most (the most
 * specific reading wins: "150 EUR" is an amount, not a number). Built on Microsoft's
 * recognizers-text (`@microsoft/recognizers-text-suite`), English and French, and on patterns for what its
 * models miss: amounts of nothing ("free of charge", "gratuit": `amount:0`), durations of nothing ("immediately",
 * "le jour même": `duration:P0D`), ranges of durations ("3 to 5 business days": `duration:P3WD-P5WD`), a day of a
 * recurring period ("the 1st of each month": `recurrence:P1M:1D`), a part of a period ("end of the month",
 * "fin du mois": `date-range:end:month`) and French months without a day ("fin mars", "avant mars").
 *
 * Each model runs only when a prefilter (value-prefilters.ts) says it may find something, and the last
 * {@link MEMO_SIZE} texts read are remembered for the day (relative dates resolve against today).
 */
export function extractValues(text: string, language: Language): TypedValue[] {
  const key = `${new Date().toISOString().slice(0, 10)}\u0000${language}\u0000${text}`;
  let values = memo.get(key);
  if (values) {
    // Most recently used last, so the first key is the one to forget.
    memo.delete(key);
  } else {
    // The models read figures written plainly for the language; offsets are mapped back to the text.
    // Clock times written with a point ("08.00–18.00", "until 17.30") read as times; the rewrite keeps every offset.
    const clocked = clockPoints(text);
    const plain = plainFigures(clocked, language);
    values = (plain.text === clocked ? readValues(clocked, language) : readValues(plain.text, language).map((v) => ({ ...v, start: plain.original(v.start), end: plain.original(v.end - 1) + 1 }))).map((v) => ({
      ...v,
      text: text.slice(v.start, v.end),
    }));
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  }
  memo.set(key, values);
  return values.map((v) => ({ ...v }));
}

/** A clock time written with a point (00.00 to 23.59; one-digit hours 5 to 9 only, "2.50" is more often a price): two joined as a range, or one after a word of time. */
const CLOCK = '(?:[01]\\d|2[0-3]|[5-9])\\.[0-5]\\d';
const NO_UNIT = '(?![.,]?\\d)(?!\\s*(?:%|per\\b|kg\\b|km\\b|€|£|\\$|eur\\b|gbp\\b|usd\\b|euros?\\b|pounds?\\b|dollars?\\b))';
const CLOCK_RANGE = new RegExp(`(?<![\\d.,£$€]|(?:eur|gbp|usd)\\s?)(${CLOCK})(\\s*(?:-|–|—|to|until|till|à)\\s*)(${CLOCK})${NO_UNIT}`, 'giu');
const CLOCK_AFTER = new RegExp(`(\\b(?:at|until|till|by|before|after|from|opens?|closes?|jusqu'à|avant|après|dès)\\s+)(${CLOCK})${NO_UNIT}`, 'giu');

function clockPoints(text: string): string {
  if (!/\d\.[0-5]\d/u.test(text)) return text;
  const colon = (time: string) => time.replace('.', ':');
  return text.replace(CLOCK_RANGE, (_m, a: string, joint: string, b: string) => `${colon(a)}${joint}${colon(b)}`).replace(CLOCK_AFTER, (_m, lead: string, time: string) => `${lead}${colon(time)}`);
}

function readValues(text: string, language: Language): TypedValue[] {
  const culture = CULTURES[language];
  const found: TypedValue[] = [];
  const taken: [number, number][] = [];
  const take = (results: ModelResult[], read: (r: ModelResult) => Omit<TypedValue, 'text' | 'start' | 'end'> | undefined) => {
    for (const r of results) {
      const start = r.start;
      const end = r.end + 1;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      const value = read(r);
      if (!value) continue;
      taken.push([start, end]);
      found.push({ ...value, text: text.slice(start, end), start, end });
    }
  };
  take(percentages(text, language), percentageOf);
  if (mayHoldAmount(text)) take(recognizeCurrency(text, culture), (r) => amountOf(r, culture));
  take(phrases(text, FREE_OF_CHARGE), () => ({ kind: 'amount', key: 'amount:0', comparable: true }));
  // Before the date models, which read "30 jours ouvrés" as 30 calendar days.
  take(workingDays(text), (r) => ({ kind: 'duration', key: `duration:P${canonicalNumber(Number(r.resolution?.value))}WD`, comparable: true }));
  // Before the date models, which read "le jour même" as a bare "jour" and "the 1st of each month" as "each month".
  take(phrases(text, IMMEDIATELY), () => ({ kind: 'duration', key: 'duration:P0D', comparable: true }));
  take(timesPerPeriod(text), (r) => ({ kind: 'recurrence', key: `recurrence:${String(r.resolution?.key)}`, comparable: true }));
  take(dayOfPeriod(text), (r) => ({ kind: 'recurrence', key: `recurrence:${String(r.resolution?.key)}`, comparable: false }));
  take(partOfPeriod(text), (r) => ({ kind: 'date-range', key: `date-range:${String(r.resolution?.key)}`, comparable: false }));
  const dateTime = (r: ModelResult): Reading | undefined => {
    const reading = relativeDuration(r, culture) ?? dateTimeOf(r);
    // A date the text gives without a year ("calendar year", "next Monday") resolves against today: not comparable.
    // A day of a month without a year ("by 31 March") is a date of every year, not today's: it compares.
    return reading && (reading.kind === 'date' || reading.kind === 'date-range') && !/\d{4}/.test(r.text) && !/^date-range:\(XXXX-WXX/.test(reading.key) && !ANNUAL_DATE.test(reading.key) ? { ...reading, comparable: false } : reading;
  };
  take(frenchMonthPhrases(text), dateTime);
  // "may" in lower case is the verb, not the month.
  if (mayHoldDateTime(text, language)) take(dateTimes(text, culture, taken).filter((r) => !isBareUnit(r, text) && r.text !== 'may'), dateTime);
  if (mayHoldQuantity(text)) take(recognizeDimension(text, culture), quantityOf);
  take(recognizeNumber(text, culture), numberOf);
  return durationRanges(found.sort((a, b) => a.start - b.start), text, culture);
}

/** One sentence per language that wakes every model extractValues runs (each prefilter passes). */
const WAKE_UP: Record<Language, string> = {
  en: 'On 1 March 2026 at 9:00, the 3 kg parcel costs 10 euros, 5% less, delivered within 14 days.',
  fr: 'Le 1 mars 2026 à 9 h, le colis de 3 kg coûte 10 euros, 5 % de moins, livré sous 14 jours.',
};

/**
 * Loads the value models of these languages now. The first read in a language builds its models, all
 * at once and blocking the thread: about 0.6 s for English and 13 s for French on a 2-core machine. A
 * process that serves reads (search answers, analyses) calls this before it takes requests, so no
 * request waits for it (TEXT_PRELOAD_LANGUAGES). Returns the milliseconds each language took.
 */
export function preloadValueModels(languages: readonly Language[]): Record<string, number> {
  const took: Record<string, number> = {};
  for (const language of languages) {
    const start = Date.now();
    readValues(WAKE_UP[language], language);
    took[language] = Date.now() - start;
  }
  return took;
}

/** The canonical keys of the values of a text (what a comparison of two statements looks at). */
export function valueKeys(text: string, language: Language): string[] {
  return extractValues(text, language).map((v) => v.key);
}

type Reading = Omit<TypedValue, 'text' | 'start' | 'end'>;
type Resolution = Record<string, unknown> | undefined;

const ISO_OF_UNIT: Record<string, string> = { Euro: 'EUR', Dollar: 'USD', 'United States dollar': 'USD', 'British pound': 'GBP', Pound: 'GBP', 'Swiss franc': 'CHF' };

/**
 * Percentages, with French "pour cent" read like "%" (the French model only knows the sign): the
 * words are replaced by "%" and spaces, so offsets stay those of the text.
 */
function percentages(text: string, language: Language): ModelResult[] {
  const culture = CULTURES[language];
  if (language !== 'fr') return mayHoldPercentage(text, language) ? recognizePercentage(text, culture) : [];
  const spans: [number, number][] = [];
  const masked = text.replace(/pour\s?cent\b/giu, (words, at: number) => {
    spans.push([at, at + words.length]);
    return '%'.padEnd(words.length, ' ');
  });
  if (!mayHoldPercentage(masked, language)) return [];
  return recognizePercentage(masked, culture).map((r) => {
    const span = spans.find(([start]) => start === r.end);
    return span ? { ...r, end: span[1] - 1 } : r;
  });
}

/**
 * Dates, times and ranges. The recognizer reads "Monday to Friday, 8:00 to 18:00" as a date range and an
 * overlapping "Friday, 8:00 to 18:00": the part of an overlapping result past the spans already read is
 * read again on its own, so the opening hours are found next to the days.
 */
function dateTimes(text: string, culture: string, taken: [number, number][]): ModelResult[] {
  // A time, a time range or a moment of a day must be written with a figure or as noon or midnight: "afternoon tea" holds
  // no noon, "the end of the day" no 23:59, and a lone "h" (of "Hôtel") or "heure" no present moment. No clock reads 24:
  // "par 24 heures", "24 h sur 24" are a day's length, or always.
  const clock = (r: ModelResult) =>
    !/^datetimeV2\.(?:time|datetime)/.test(r.typeName) || (/\d|(?<!\p{L})(?:noon|midnight|midi|minuit)(?!\p{L})/iu.test(r.text) && !writtenHours(r.text).includes(24));
  const results = recognizeDateTime(text, culture).filter(clock);
  const out: ModelResult[] = [];
  for (const r of results) {
    const overlap = [...taken, ...out.map((o): [number, number] => [o.start, o.end + 1])].filter(([s, e]) => r.start < e && r.end + 1 > s);
    if (overlap.length === 0) {
      out.push(r);
      continue;
    }
    const from = Math.max(...overlap.map(([, e]) => e));
    if (from > r.end) continue;
    for (const inner of recognizeDateTime(text.slice(from, r.end + 1), culture).filter(clock)) {
      out.push({ ...inner, start: inner.start + from, end: inner.end + from });
    }
  }
  return out;
}

const UNIT_WORDS = 'second|minute|hour|day|week|month|year|seconde|heure|jour|semaine|mois|an|année';
/** A unit word after an article at most ("the day", "une semaine"). */
const BARE_UNIT = new RegExp(`^(an?|the|one|un|une|le|la)?\\s*(${UNIT_WORDS})$`, 'iu');
/** A unit word in the plural after an article or a possessive at most ("les jours", "the hours"). */
const BARE_PLURAL_UNIT = new RegExp(`^(?:(?:the|les|des|ces|nos|vos|leurs|mes|tes|ses)\\s+)?(?:${UNIT_WORDS})s$`, 'iu');

/**
 * "a second screen", "the day": a unit word alone is not a duration. With a numeral it is ("one week",
 * "une semaine"), and so it is with "a" after a word that asks for a length of time ("within a week",
 * "takes a day").
 */
function isBareUnit(r: ModelResult, text: string): boolean {
  if (/\d/.test(r.text)) return false;
  // A unit in the plural without a figure names no length ("les jours fériés", "pendant les semaines de fermeture"), nor a
  // time ("les heures de service": the recognizer reads the present moment).
  if (BARE_PLURAL_UNIT.test(r.text.trim())) return true;
  if (!/duration/.test(r.typeName)) return false;
  const m = BARE_UNIT.exec(r.text.trim());
  if (!m) return false;
  const article = (m[1] ?? '').toLowerCase();
  if (['one', 'un', 'une'].includes(article)) return false;
  const before = text.slice(0, r.start);
  if ((article === 'a' || article === 'an') && !/^second$/iu.test(m[2]) && /(?:within|in|for|after|under|over|about|around|takes?|took|lasts?|up to)\s+$/iu.test(before)) return false;
  return true;
}

/** "in 7 days": the recognizers read a relative date; an answer means the duration. */
function relativeDuration(r: ModelResult, culture: string): Reading | undefined {
  const lead = /^(?:in|within|dans|d'ici)\s+/iu.exec(r.text);
  if (!lead || !/datetimeV2\.date/.test(r.typeName)) return undefined;
  const inner = recognizeDateTime(r.text.slice(lead[0].length), culture).find((x) => /duration/.test(x.typeName));
  const reading = inner ? dateTimeOf(inner) : undefined;
  return reading?.kind === 'duration' ? reading : undefined;
}

/**
 * "10 working days", "5 business days", "3 jours ouvrés": durations the recognizers read as a bare
 * number. Keyed in working days (`P10WD`), which never equal calendar days.
 */
function workingDays(text: string): ModelResult[] {
  const out: ModelResult[] = [];
  const pattern = /(\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|un|deux|trois|quatre|cinq|six|sept|huit|neuf|dix)\s+(?:working|business|work|jours?\s+ouvr[ée]s?|jours?\s+ouvrables?)(?:\s+days?)?\b/giu;
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, un: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10 };
  for (const m of text.matchAll(pattern)) {
    if (!/days?\b|jours?/iu.test(m[0])) continue;
    const figure = m[1].toLowerCase();
    const value = words[figure] ?? Number(figure.replace(',', '.'));
    out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length - 1, text: m[0], typeName: 'duration.workingdays', resolution: { value } } as ModelResult);
  }
  return out;
}

/** A span the text's own patterns read, shaped like a recognizer's result (`end` inclusive). */
function spanOf(start: number, text: string, typeName: string, resolution: Record<string, unknown> = {}): ModelResult {
  return { start, end: start + text.length - 1, text, typeName, resolution } as ModelResult;
}

function phrases(text: string, pattern: RegExp): ModelResult[] {
  return [...text.matchAll(pattern)].map((m) => spanOf(m.index ?? 0, m[0], 'phrase'));
}

/** Amounts of nothing, which the currency model cannot read (it needs a figure): keyed `amount:0`, in any currency. */
const FREE_OF_CHARGE =
  /(?<![\p{L}\p{N}])(?:free\s+of\s+(?:charge|cost)|at\s+no\s+(?:extra\s+|additional\s+)?(?:cost|charge)|without\s+(?:any\s+)?charge|no\s+charge|for\s+free|complimentary|gratuit(?:e|s|es|ement)?|sans\s+frais|à\s+titre\s+(?:gratuit|gracieux))(?![\p{L}\p{N}])/giu;

/** Durations of nothing: keyed `duration:P0D`. "Sans délai de carence" (no waiting period) is not one. */
const IMMEDIATELY =
  /(?<![\p{L}\p{N}])(?:immediately|instantly|right\s+away|straight\s+away|without\s+delay|same[\s-]day|imm[ée]diatement|instantan[ée]ment|tout\s+de\s+suite|sur[\s-]le[\s-]champ|sans\s+d[ée]lai(?!\s+d[e'’])|le\s+jour\s+m[êe]me)(?![\p{L}\p{N}])/giu;

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  premier: 1, premiere: 1, deuxieme: 2, seconde: 2, troisieme: 3, quatrieme: 4, cinquieme: 5, sixieme: 6, septieme: 7, huitieme: 8, neuvieme: 9, dixieme: 10,
};
const WEEKDAYS: Record<string, number> = {
  monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7,
  lundi: 1, mardi: 2, mercredi: 3, jeudi: 4, vendredi: 5, samedi: 6, dimanche: 7,
};
const PERIODS: Record<string, string> = { month: 'P1M', mois: 'P1M', week: 'P1W', semaine: 'P1W', year: 'P1Y', annee: 'P1Y', an: 'P1Y', quarter: 'P3M', trimestre: 'P3M' };
const PERIOD_NAMES: Record<string, string> = { P1M: 'month', P1W: 'week', P1Y: 'year', P3M: 'quarter' };
const unaccented = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const EN_WEEKDAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const FR_WEEKDAY = 'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche';
const DAY_OF_PERIOD = [
  new RegExp(
    `(?<![\\p{L}\\p{N}])(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\\d{1,2}(?:st|nd|rd|th))(?:\\s+(?:(working|business|calendar)\\s+)?(day|${EN_WEEKDAY}))?\\s+of\\s+(?:the|each|every)\\s+(month|week|year|quarter)(?![\\p{L}])`,
    'giu',
  ),
  new RegExp(
    `(?<![\\p{L}\\p{N}])(premi[eè]re?|1(?:er|re|ère)|\\d{1,2}(?:e|ème|eme)|deuxi[eè]me|seconde|troisi[eè]me|quatri[eè]me|cinqui[eè]me|sixi[eè]me|septi[eè]me|huiti[eè]me|neuvi[eè]me|dixi[eè]me|derni[eè]re?|(?<=(?<![\\p{L}])le\\s+)\\d{1,2})(?:\\s+(jour|${FR_WEEKDAY})(?:\\s+(ouvr[ée]|ouvrable|calendaire))?)?\\s+(?:de\\s+chaque\\s+|du\\s+|de\\s+la\\s+|de\\s+l['’]\\s*)(mois|semaine|ann[ée]e|an|trimestre)(?![\\p{L}])`,
    'giu',
  ),
];

/**
 * "The 1st of each month", "the fifth working day of the month", "the last Friday of every month", "le 15 de
 * chaque mois", "le premier jour ouvré du mois": a day within a recurring period, which the recognizers read
 * as the bare period ("each month"). Keyed `<period>:<n><unit>`: n the ordinal or L for the last, the unit D (a
 * day), WD (a working day) or W1 to W7 (a weekday, Monday first): `P1M:5WD`, `P1M:LW5`.
 */
function dayOfPeriod(text: string): ModelResult[] {
  const out: ModelResult[] = [];
  for (const pattern of DAY_OF_PERIOD) {
    for (const m of text.matchAll(pattern)) {
      // English: (ordinal, working, unit, period); French: (ordinal, unit, working, period).
      const english = pattern === DAY_OF_PERIOD[0];
      const ordinal = m[1];
      const working = english ? m[2] : m[3];
      const unit = unaccented((english ? m[3] : m[2]) ?? '');
      const period = PERIODS[unaccented(m[4])];
      const word = unaccented(ordinal);
      const n = /^(?:last|derniere?)$/u.test(word) ? 'L' : (ORDINALS[word] ?? Number.parseInt(word, 10));
      const day = WEEKDAYS[unit] !== undefined ? `W${WEEKDAYS[unit]}` : working && !/^calend/iu.test(working) ? 'WD' : 'D';
      out.push(spanOf(m.index ?? 0, m[0], 'recurrence.dayofperiod', { key: `${period}:${n}${day}` }));
    }
  }
  return out;
}

/** Months (or days, for a day or a week) in one period of each name, English and French, singular and plural. */
const PERIOD_LENGTH: Record<string, { months?: number; days?: number }> = {
  day: { days: 1 }, jour: { days: 1 }, week: { days: 7 }, semaine: { days: 7 }, fortnight: { days: 14 },
  month: { months: 1 }, mois: { months: 1 }, quarter: { months: 3 }, trimestre: { months: 3 }, semester: { months: 6 }, semestre: { months: 6 },
  year: { months: 12 }, annee: { months: 12 }, an: { months: 12 },
};
const TIMES: Record<string, number> = { once: 1, twice: 2, thrice: 3, une: 1, un: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, two: 2, three: 3, four: 4, five: 5 };
const TIMES_PER_PERIOD = [
  // "twice a year", "three times per month", "4 times a year", "once every quarter"
  /(?<![\p{L}\d])(once|twice|thrice|(\d+|two|three|four|five|six)\s+times)\s+(?:a|an|per|each|every|in\s+a)\s+(day|week|fortnight|month|quarter|semester|year)(?![\p{L}])/giu,
  // "deux fois par an", "une fois par trimestre", "3 fois par mois"
  /(?<![\p{L}\d])((une?|deux|trois|quatre|cinq|six|\d+)\s+fois)\s+(?:par|chaque|l['’]\s*|le\s+|la\s+)\s*(jour|semaine|mois|trimestre|semestre|an|ann[ée]e)(?![\p{L}])/giu,
  // "every quarter", "each semester", "chaque trimestre", "tous les trimestres", "every fortnight"
  /(?<![\p{L}])(?:every|each|chaque|tous\s+les|toutes\s+les)\s+()()(quarter|semester|fortnight|trimestres?|semestres?)(?![\p{L}])/giu,
];

/**
 * How often, as a number of times per period or a period the recognizers do not read: "twice a year",
 * "three times a month", "every quarter", "deux fois par an", "chaque trimestre". Keyed by the period between
 * two occurrences, as "every six months" is (`P6M`; a year's divisions in months, else in days: twice a
 * month is `P15D`), so "twice a year" and "every six months" say the same.
 */
function timesPerPeriod(text: string): ModelResult[] {
  if (!/twice|thrice|times|fois|quarter|semester|fortnight|trimestre|semestre/iu.test(text)) return [];
  const out: ModelResult[] = [];
  for (const pattern of TIMES_PER_PERIOD) {
    for (const m of text.matchAll(pattern)) {
      const said = unaccented(m[1] ?? '').replace(/\s+(?:times|fois)$/u, '');
      const n = said === '' ? 1 : (TIMES[said] ?? Number.parseInt(said, 10));
      const period = PERIOD_LENGTH[unaccented(m[3]).replace(/s$/u, '')];
      if (!period || !(n >= 1)) continue;
      const key = period.months !== undefined && period.months % n === 0 ? `P${period.months / n}M` : `P${Math.round(((period.months ?? 0) * 30 + (period.days ?? 0)) / n)}D`;
      out.push(spanOf(m.index ?? 0, m[0], 'recurrence.timesperperiod', { key: canonicalPeriod(key) }));
    }
  }
  return out;
}

const PART_OF_PERIOD = [
  /(?<![\p{L}])(end|beginning|start|middle|mid)(?:\s+of\s+(?:the\s+|each\s+|every\s+)?|-)(month|quarter|year|week)(?![\p{L}])/giu,
  /(?<![\p{L}])(month|quarter|year|week)[\s-](end)(?![\p{L}])/giu,
  /(?<![\p{L}])(fin|d[ée]but|milieu|mi)(?:\s*-\s*|\s+(?:de\s+chaque\s+|du\s+|de\s+la\s+|de\s+l['’]\s*|d['’]\s*|de\s+))(mois|trimestre|ann[ée]e|an|semaine)(?![\p{L}])/giu,
];
const PARTS: Record<string, string> = { end: 'end', fin: 'end', beginning: 'start', start: 'start', debut: 'start', middle: 'mid', mid: 'mid', milieu: 'mid', mi: 'mid' };

/**
 * "The end of the month", "mid-year", "month-end", "fin du mois", "début d'année": a part of a recurring period,
 * which the recognizers read as this month or this year (a key that changes with today), or not at all.
 * Keyed `<part>:<period>` (`end:month`), like the recognizers' `end:XXXX-03` for "end of March".
 */
function partOfPeriod(text: string): ModelResult[] {
  return PART_OF_PERIOD.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((m) => {
      const [part, period] = pattern === PART_OF_PERIOD[1] ? [m[2], m[1]] : [m[1], m[2]];
      return spanOf(m.index ?? 0, m[0], 'daterange.partofperiod', { key: `${PARTS[unaccented(part)]}:${PERIOD_NAMES[PERIODS[unaccented(period)]]}` });
    }),
  );
}

const FRENCH_MONTHS: Record<string, string> = {
  janvier: 'January', fevrier: 'February', mars: 'March', avril: 'April', mai: 'May', juin: 'June',
  juillet: 'July', aout: 'August', septembre: 'September', octobre: 'October', novembre: 'November', decembre: 'December',
};
const FRENCH_MONTH_PHRASE =
  /(?<![\p{L}\p{N}])(?:(en|avant|apr[èe]s|depuis|jusqu['’](?:en|à|au)|d['’]ici|d[èe]s|courant|au\s+mois\s+de)\s+)?(?:(fin|d[ée]but|milieu|mi)(?:\s*-\s*|\s+)(?:de\s+|d['’])?)?(janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre)(?![\p{L}])(?!\s*\d)/giu;
const FRENCH_LEADS: Record<string, string> = { en: 'in', avant: 'before', apres: 'after', depuis: 'since', dici: 'by', des: 'from', courant: 'in', aumoisde: 'in' };

/**
 * "Fin mars", "début avril", "mi-mars", "avant mars", "en mars": a month, or a part of one, without a day or a
 * year, which the French model reads without its part or its preposition, or not at all ("mars" alone). Read by
 * the English model in English words ("end of March"), so both languages give one key (`date-range:end:XXXX-03`).
 * With a day or a year the French model reads it well.
 */
function frenchMonthPhrases(text: string): ModelResult[] {
  const out: ModelResult[] = [];
  for (const m of text.matchAll(FRENCH_MONTH_PHRASE)) {
    const [, lead, part, month] = m;
    if (!lead && !part) continue;
    const leadWord = lead ? unaccented(lead).replace(/[^a-z]/gu, '') : '';
    const english = leadWord.startsWith('jusqu') ? 'until' : FRENCH_LEADS[leadWord];
    const name = FRENCH_MONTHS[unaccented(month)];
    const partName = part ? PARTS[unaccented(part)] : undefined;
    const phrase = partName === 'mid' ? `mid-${name}` : partName === 'end' ? `end of ${name}` : partName === 'start' ? `beginning of ${name}` : name;
    const [reading] = recognizeDateTime(english ? `${english} ${phrase}` : phrase, Culture.English).sort((a, b) => b.end - b.start - (a.end - a.start));
    if (reading) out.push({ ...reading, ...spanOf(m.index ?? 0, m[0], reading.typeName, reading.resolution as Record<string, unknown>) });
  }
  return out;
}

/**
 * "3 to 5 days", "2-3 business days", "between 3 and 5 days", "entre 3 et 5 jours ouvrés": the models read the
 * low figure as a bare number and the high one with the unit. The two become one duration keyed `<low>-<high>`
 * in the unit of the high one (`duration:P3D-P5D`, `duration:P2WD-P3WD`).
 */
function durationRanges(values: TypedValue[], text: string, culture: string): TypedValue[] {
  const out: TypedValue[] = [];
  for (const value of values) {
    const low = out[out.length - 1];
    const range = value.kind === 'duration' && low?.kind === 'number' ? rangeOf(low, value, text, culture) : undefined;
    if (range) out[out.length - 1] = range;
    else out.push(value);
  }
  return out;
}

const RANGE_BETWEEN = /^\s*(?:-|–|—|to|or|à|ou)\s*$/iu;
const RANGE_AND = /^\s*(?:and|et)\s*$/iu;
const RANGE_OPENING = /(?<![\p{L}])(between|entre)\s+$/iu;

function rangeOf(low: TypedValue, high: TypedValue, text: string, culture: string): TypedValue | undefined {
  const gap = text.slice(low.end, high.start);
  const opening = RANGE_OPENING.exec(text.slice(0, low.start));
  if (!RANGE_BETWEEN.test(gap) && !(RANGE_AND.test(gap) && opening)) return undefined;
  const count = resolvedNumber((recognizeNumber(high.text, culture).find((r) => r.start === 0)?.resolution as Resolution)?.value);
  const from = Number(low.key.slice('number:'.length));
  const unit = /^duration:P(T?)(\d+(?:\.\d+)?)(WD|D|S)$/u.exec(high.key);
  if (!unit || count === undefined || count <= 0 || !Number.isFinite(from)) return undefined;
  const per = Number(unit[2]) / count;
  const lowKey = unit[3] === 'WD' ? `P${canonicalNumber(from * per)}WD` : isoDuration(from * per * (unit[3] === 'D' ? DAY : 1));
  const start = opening ? low.start - opening[0].length : low.start;
  return { kind: 'duration', key: `duration:${lowKey}-${high.key.slice('duration:'.length)}`, comparable: true, text: text.slice(start, high.end), start, end: high.end };
}

function amountOf(r: ModelResult, culture: string): Reading | undefined {
  const res = r.resolution as Resolution;
  // The number model reads the figure inside the span more reliably than the currency model
  // ("USD 2,500" is 2500, not 25).
  const inner = recognizeNumber(r.text, culture)[0];
  const value = resolvedNumber((inner?.resolution as Resolution)?.value) ?? resolvedNumber(res?.value);
  if (value === undefined) return undefined;
  const unit = typeof res?.unit === 'string' ? res.unit : '';
  const iso = typeof res?.isoCurrency === 'string' && res.isoCurrency ? res.isoCurrency : (ISO_OF_UNIT[unit] ?? unit.toUpperCase());
  return { kind: 'amount', key: `amount:${iso}:${canonicalNumber(value)}`, comparable: true };
}

function percentageOf(r: ModelResult): Reading | undefined {
  const value = resolvedNumber(String((r.resolution as Resolution)?.value ?? '').replace('%', ''));
  return value === undefined ? undefined : { kind: 'percentage', key: `percentage:${canonicalNumber(value)}`, comparable: true };
}

function quantityOf(r: ModelResult): Reading | undefined {
  const res = r.resolution as Resolution;
  const value = resolvedNumber(res?.value);
  if (value === undefined || typeof res?.unit !== 'string') return undefined;
  return { kind: 'quantity', key: `quantity:${res.unit.toLowerCase()}:${canonicalNumber(value)}`, comparable: true };
}

function numberOf(r: ModelResult): Reading | undefined {
  const value = resolvedNumber((r.resolution as Resolution)?.value);
  return value === undefined ? undefined : { kind: 'number', key: `number:${canonicalNumber(value)}`, comparable: true };
}

function dateTimeOf(r: ModelResult): Reading | undefined {
  const values = (r.resolution as Resolution)?.values;
  const first = Array.isArray(values) ? (values[0] as Record<string, unknown> | undefined) : undefined;
  if (!first) return undefined;
  const type = String(first.type ?? '');
  const timex = String(first.timex ?? '');
  const mod = first.Mod ? `${String(first.Mod)}:` : '';
  switch (type) {
    case 'duration': {
      const seconds = resolvedNumber(first.value);
      if (seconds === undefined) return { kind: 'duration', key: `duration:${timex}`, comparable: true };
      return { kind: 'duration', key: `duration:${isoDuration(seconds)}`, comparable: true };
    }
    case 'date':
      return { kind: 'date', key: `date:${mod}${timex}`, comparable: /^(?:\d{4}|XXXX)-\d{2}-\d{2}$/.test(timex) };
    case 'daterange':
      // Years make a range comparable, and so do weekday spans ("Monday to Friday": opening days).
      return { kind: 'date-range', key: `date-range:${mod}${timex}`, comparable: /\d{4}|^\(XXXX-WXX-\d,XXXX-WXX-\d,P\d+D\)$|^XXXX-\d{2}-\d{2}$/.test(timex) };
    case 'time': {
      const written = asWritten(values as Record<string, unknown>[], r.text, 'value', 0) ?? first;
      return { kind: 'time', key: `time:${mod}${timeOf(written.value, String(written.timex ?? timex))}`, comparable: true };
    }
    case 'timerange': {
      const all = values as Record<string, unknown>[];
      const hours = writtenHours(r.text);
      const from = asWritten(all, r.text, 'start', 0) ?? first;
      const to = asWritten(all, r.text, 'end', Math.max(0, hours.length - 1)) ?? first;
      const start = typeof from.start === 'string' ? from.start.slice(0, 5) : '';
      const end = typeof to.end === 'string' ? to.end.slice(0, 5) : '';
      return { kind: 'time-range', key: start && end ? `time-range:${start}-${end}` : `time-range:${clockTimex(String((start ? from : to).timex ?? timex))}`, comparable: true };
    }
    case 'set':
      // A plain period ("every three years": P3Y) compares; a weekday or a date ("every Monday") does not.
      return { kind: 'recurrence', key: `recurrence:${canonicalPeriod(timex)}`, comparable: /^P\d+(?:\.\d+)?[DWMYH]$/.test(timex) };
    case 'datetime':
    case 'datetimerange': {
      // A clock time on a day named relatively ("before 2 p.m. on the day before arrival", "by 18:00 the same day"): the
      // recognizer dates it from today; what the text fixes is the time.
      const clock = /T(\d{2})(?::(\d{2}))?/u.exec(timex);
      if (clock && !EXPLICIT_DATE.test(r.text)) {
        const time = `${clock[1]}:${clock[2] ?? '00'}`;
        return first.Mod ? { kind: 'time-range', key: `time-range:T${time}`, comparable: true } : { kind: 'time', key: `time:${time}`, comparable: true };
      }
      return { kind: 'date', key: `${type}:${mod}${timex}`, comparable: /^\d{4}/.test(timex) };
    }
    default:
      return undefined;
  }
}

/** A date written out: a month's name, a year, or a day and month in figures ("12/03"). */
const EXPLICIT_DATE =
  /\b(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b|\b(?:19|20)\d{2}\b|\b\d{1,2}[/.-]\d{1,2}\b/iu;

/** The clock times of a timex written to the minute: "before 2 p.m." (`T14`) and "before 14:00" (`T14:00`) are one time. */
function clockTimex(timex: string): string {
  return timex.replace(/T(\d{2})(?::(\d{2}))?(?::\d{2})?/gu, (_, h: string, m?: string) => `T${h}:${m ?? '00'}`);
}

/** A day of a month without its year, in a date key: `XXXX-03-31`. */
export const ANNUAL_DATE = /XXXX-\d{2}-\d{2}$/;

/** One name for one period: whole years of months in years ("every 12 months" = "every year": `P1Y`), whole weeks of days in weeks. */
function canonicalPeriod(timex: string): string {
  const m = /^P(\d+)([DM])$/.exec(timex);
  if (!m) return timex;
  const n = Number(m[1]);
  if (m[2] === 'M' && n % 12 === 0) return `P${n / 12}Y`;
  if (m[2] === 'D' && n % 7 === 0) return `P${n / 7}W`;
  return timex;
}

/** `P14D` for whole days (weeks become days), else `PT<n>S`. */
function isoDuration(seconds: number): string {
  return seconds % DAY === 0 ? `P${seconds / DAY}D` : `PT${canonicalNumber(seconds)}S`;
}

/**
 * The hours a clock time is written with, in order ("de 6 h 30 à 23 h": 6 and 23; "15 h", "14:00", "9.30").
 * The recognizer reads a bare hour as ambiguous and offers the morning first ("15 h" as 03:00 or 15:00, "de 6 h
 * 30 à 23 h" as 06:30-11:00 or 18:30-23:00): the reading whose hour is the one written is the one meant.
 */
function writtenHours(text: string): number[] {
  return [...text.matchAll(/(?<![\d.,:])(\d{1,2})(?=\s*(?:h(?!\p{L})|h\d|heures?\b|:\d|\.\d\d))/giu)].map((m) => Number(m[1]));
}

/** Of a recognizer's readings of a time, the one whose `field` (value, start or end) has the hour written at `index`, if one does and it is not the first. */
function asWritten(values: readonly Record<string, unknown>[], text: string, field: 'value' | 'start' | 'end', index: number): Record<string, unknown> | undefined {
  if (values.length < 2) return undefined;
  const hour = writtenHours(text)[index];
  if (hour === undefined) return undefined;
  return values.find((v) => typeof v[field] === 'string' && Number((v[field] as string).slice(0, 2)) === hour);
}

function timeOf(value: unknown, timex: string): string {
  return typeof value === 'string' && /^\d{2}:\d{2}/.test(value) ? value.slice(0, 5) : timex;
}


/** At most three decimals, no trailing zeros: 1200, 3.5, 0.333. */
function canonicalNumber(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}
