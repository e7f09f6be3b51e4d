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
 * recognizers-text (`@microsoft/recognizers-text-suite`), English and French.
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
    const plain = plainFigures(text, language);
    values = plain.text === text ? readValues(text, language) : readValues(plain.text, language).map((v) => ({ ...v, start: plain.original(v.start), end: plain.original(v.end - 1) + 1 })).map((v) => ({ ...v, text: text.slice(v.start, v.end) }));
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  }
  memo.set(key, values);
  return values.map((v) => ({ ...v }));
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
  // Before the date models, which read "30 jours ouvrés" as 30 calendar days.
  take(workingDays(text), (r) => ({ kind: 'duration', key: `duration:P${canonicalNumber(Number(r.resolution?.value))}WD`, comparable: true }));
  if (mayHoldDateTime(text, language)) take(
    // "may" in lower case is the verb, not the month.
    dateTimes(text, culture, taken).filter((r) => !isBareUnit(r, text) && r.text !== 'may'),
    (r) => {
      const reading = relativeDuration(r, culture) ?? dateTimeOf(r);
      // A date the text gives without a year ("calendar year", "next Monday") resolves against today: not comparable.
      return reading && (reading.kind === 'date' || reading.kind === 'date-range') && !/\d{4}/.test(r.text) && !/^date-range:\(XXXX-WXX/.test(reading.key) ? { ...reading, comparable: false } : reading;
    },
  );
  if (mayHoldQuantity(text)) take(recognizeDimension(text, culture), quantityOf);
  take(recognizeNumber(text, culture), numberOf);
  return found.sort((a, b) => a.start - b.start);
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
  const clock = (r: ModelResult) => !/^datetimeV2\.time/.test(r.typeName) || /\d|noon|midnight|midi|minuit/i.test(r.text);
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

/**
 * "a second screen", "the day": a unit word alone is not a duration. With a numeral it is ("one week",
 * "une semaine"), and so it is with "a" after a word that asks for a length of time ("within a week",
 * "takes a day").
 */
function isBareUnit(r: ModelResult, text: string): boolean {
  if (!/duration/.test(r.typeName) || /\d/.test(r.text)) return false;
  const m = /^(an?|the|one|un|une|le|la)?\s*(second|minute|hour|day|week|month|year|seconde|minute|heure|jour|semaine|mois|an|année)$/iu.exec(r.text.trim());
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
      return { kind: 'date', key: `date:${mod}${timex}`, comparable: /^\d{4}-\d{2}-\d{2}$/.test(timex) };
    case 'daterange':
      // Years make a range comparable, and so do weekday spans ("Monday to Friday": opening days).
      return { kind: 'date-range', key: `date-range:${mod}${timex}`, comparable: /\d{4}|^\(XXXX-WXX-\d,XXXX-WXX-\d,P\d+D\)$/.test(timex) };
    case 'time':
      return { kind: 'time', key: `time:${mod}${timeOf(first.value, timex)}`, comparable: true };
    case 'timerange': {
      const start = typeof first.start === 'string' ? first.start.slice(0, 5) : '';
      const end = typeof first.end === 'string' ? first.end.slice(0, 5) : '';
      return { kind: 'time-range', key: start && end ? `time-range:${start}-${end}` : `time-range:${timex}`, comparable: true };
    }
    case 'set':
      // A plain period ("every three years": P3Y) compares; a weekday or a date ("every Monday") does not.
      return { kind: 'recurrence', key: `recurrence:${timex}`, comparable: /^P\d+(?:\.\d+)?[DWMYH]$/.test(timex) };
    case 'datetime':
    case 'datetimerange':
      return { kind: 'date', key: `${type}:${mod}${timex}`, comparable: /^\d{4}/.test(timex) };
    default:
      return undefined;
  }
}

/** `P14D` for whole days (weeks become days), else `PT<n>S`. */
function isoDuration(seconds: number): string {
  return seconds % DAY === 0 ? `P${seconds / DAY}D` : `PT${canonicalNumber(seconds)}S`;
}

function timeOf(value: unknown, timex: string): string {
  return typeof value === 'string' && /^\d{2}:\d{2}/.test(value) ? value.slice(0, 5) : timex;
}


/** At most three decimals, no trailing zeros: 1200, 3.5, 0.333. */
function canonicalNumber(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}
