import { Culture, recognizeNumber } from '@microsoft/recognizers-text-suite';
import type { Language } from '../language';
import { plainFigures, resolvedNumber } from '../numbers';
import { extractValues, TypedValue, ValueKind } from '../values';

/**
 * Writes an expert's value the way a sentence writes the value it replaces (ANALYSIS.md §3): in the
 * sentence's language, with its numbers as words or digits, its decimals and separators, its unit
 * (kept when the expert's value converts to it exactly: "21 days" in "two weeks" gives "three weeks"),
 * its currency as symbol, code or word before or after the figure, its 12- or 24-hour clock and its
 * date style. Both values are readings of extractValues; this module only writes. Every rendering is
 * read again in the sentence's language and kept only when it states the expert's value.
 */
export function renderValue(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  const written = write(expert, stated, language);
  return written !== undefined && written !== stated.text && statesValue(written, expert, language) ? written : undefined;
}

/** Whether an expert's value can stand in for a stated one: same kind, a date for a date range, a bare number for any figure, a length for a period. */
export function canReplace(expert: ValueKind, stated: ValueKind): boolean {
  if (expert === stated) return true;
  if (DATES.has(expert) && DATES.has(stated)) return true;
  if (expert === 'duration' && stated === 'recurrence') return true;
  return expert === 'number' && FIGURED.has(stated);
}

/**
 * Whether a text states a value: it reads (in the language) a value with the same key, a year-less day
 * or a date with the same day, month and year whatever its modifier ("by 30 April" states "30 April"),
 * the same period as a length ("every 3 years" states "3 years"), or, for a bare number, that figure.
 */
export function statesValue(text: string, value: TypedValue, language: Language): boolean {
  const read = extractValues(text, language);
  if (value.kind === 'number') return read.some((v) => v.key === value.key) || figuresIn(text, language).some((f) => `number:${f.value}` === value.key);
  return read.some((v) => sameReading(v, value));
}

/** Two readings of one value: equal keys (an amount's rate aside), a date with or without its year or modifier, a length and its period. */
export function sameReading(a: TypedValue, b: TypedValue): boolean {
  if (stripRate(a.key) === stripRate(b.key)) return true;
  if (DATES.has(a.kind) && DATES.has(b.kind)) {
    const [x, y] = [datesOf(a.key), datesOf(b.key)];
    return !!x && !!y && x.length === y.length && x.every((d, i) => sameDate(d, y[i]));
  }
  const [p, q] = [periodOf(a), periodOf(b)];
  return !!p && !!q && p.family === q.family && p.count === q.count;
}

const DATES = new Set<ValueKind>(['date', 'date-range']);
const FIGURED = new Set<ValueKind>(['amount', 'percentage', 'quantity', 'number', 'duration', 'recurrence']);
const CULTURES: Record<Language, string> = { en: Culture.English, fr: Culture.French };

const stripRate = (key: string) => key.replace(/\/[a-z]+$/u, '');

function write(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  if (!canReplace(expert.kind, stated.kind)) return undefined;
  switch (stated.kind) {
    case 'duration':
      return writeDuration(expert, stated, language);
    case 'recurrence':
      return writeRecurrence(expert, stated, language);
    case 'amount':
      return writeAmount(expert, stated, language);
    case 'percentage':
    case 'quantity':
    case 'number':
      return writeFigure(expert, stated, language);
    case 'time':
    case 'time-range':
      return writeClock(expert, stated, language);
    case 'date':
    case 'date-range':
      return writeDate(expert, stated, language);
  }
}

// ---------------------------------------------------------------------------------------------------
// Figures: where a text writes its numbers, and how (words or digits, decimals, separators).

interface Figure {
  start: number;
  end: number;
  value: number;
  text: string;
}

/** The numbers a text writes, digits or words, read by the recognizers' number model as extractValues reads them. */
function figuresIn(text: string, language: Language): Figure[] {
  const plain = plainFigures(text, language);
  return recognizeNumber(plain.text, CULTURES[language]).flatMap((r) => {
    const value = resolvedNumber((r.resolution as Record<string, unknown> | undefined)?.value);
    if (value === undefined || /^(?:an?|the)$/iu.test(r.text)) return [];
    const start = plain.original(r.start);
    const end = plain.original(r.end) + 1;
    return [{ start, end, value, text: text.slice(start, end) }];
  });
}

interface NumberStyle {
  words: boolean;
  capital: boolean;
  decimals: number;
  decimalMark?: string;
  group?: string;
}

/** How a figure is written: "two" (words), "1,200.50" (group ",", decimals 2), "0,5" (decimal comma). */
function styleOf(figure: Figure | undefined): NumberStyle {
  if (!figure) return { words: false, capital: false, decimals: 0 };
  const text = figure.text.trim();
  const base = { words: !/\d/u.test(text), capital: /^\p{Lu}/u.test(text), decimals: 0 };
  if (base.words) return base;
  const grouped = /^(\d{1,3}(?:([ \u00a0\u202f.,])\d{3})+)(?:([.,])(\d+))?$/u.exec(text);
  if (grouped && Number(`${grouped[1].replace(/\D/gu, '')}.${grouped[4] ?? '0'}`) === figure.value) return { ...base, group: grouped[2], decimalMark: grouped[3], decimals: grouped[4]?.length ?? 0 };
  const plain = /^(\d+)(?:([.,])(\d+))?$/u.exec(text);
  return plain ? { ...base, decimalMark: plain[2], decimals: plain[3]?.length ?? 0 } : base;
}

/** A number in a style: words up to a hundred when the sentence writes words, else digits with its separators and at least its decimals. */
function writeNumber(n: number, style: NumberStyle, language: Language, feminine = false): string {
  if (style.words && Number.isInteger(n) && n >= 0 && n <= 100) {
    const words = numberWords(n, language, feminine);
    return style.capital ? words.charAt(0).toUpperCase() + words.slice(1) : words;
  }
  const needed = fractionDigits(n);
  const decimals = Math.max(style.decimals, needed);
  const [whole, fraction] = n.toFixed(decimals).split('.');
  const group = style.group ?? (n >= 10_000 ? (language === 'fr' ? ' ' : ',') : undefined);
  const grouped = group ? whole.replace(/\B(?=(\d{3})+(?!\d))/gu, group) : whole;
  return fraction ? `${grouped}${style.decimalMark ?? (language === 'fr' ? ',' : '.')}${fraction}` : grouped;
}

function fractionDigits(n: number): number {
  const text = String(Math.round(n * 1000) / 1000);
  return text.includes('.') ? text.split('.')[1].length : 0;
}

const EN_ONES = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const FR_ONES = 'zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept dix-huit dix-neuf'.split(' ');
const FR_TENS = ['', '', 'vingt', 'trente', 'quarante', 'cinquante', 'soixante'];

/** 0 to 100 in words ("twenty-one", "vingt et une" before a feminine noun, "quatre-vingt-dix"). */
function numberWords(n: number, language: Language, feminine: boolean): string {
  if (language === 'en') {
    if (n === 100) return 'one hundred';
    return n < 20 ? EN_ONES[n] : EN_TENS[Math.floor(n / 10)] + (n % 10 ? `-${EN_ONES[n % 10]}` : '');
  }
  const one = feminine ? 'une' : 'un';
  if (n === 1) return one;
  if (n === 100) return 'cent';
  if (n < 20) return FR_ONES[n];
  if (n < 70) {
    const tens = FR_TENS[Math.floor(n / 10)];
    const unit = n % 10;
    return unit === 0 ? tens : unit === 1 ? `${tens} et ${one}` : `${tens}-${FR_ONES[unit]}`;
  }
  if (n < 80) return n === 71 ? 'soixante et onze' : `soixante-${FR_ONES[n - 60]}`;
  if (n === 80) return 'quatre-vingts';
  return `quatre-vingt-${n === 81 ? one : FR_ONES[n - 80]}`;
}

/** The stated text with its first figure written anew; figures as words are agreed with the noun after them. */
function replaceFigure(stated: TypedValue, n: number, language: Language, style?: Partial<NumberStyle>): string | undefined {
  const figure = figuresIn(stated.text, language)[0];
  if (!figure) return undefined;
  const feminine = language === 'fr' && FEMININE_AFTER.test(stated.text.slice(figure.end));
  return splice(stated.text, figure.start, figure.end, writeNumber(n, { ...styleOf(figure), ...style }, language, feminine));
}

const FEMININE_AFTER = /^\s*(?:semaines?|heures?|minutes?|secondes?|années?|nuits?|journées?|fois|astreintes?|personnes?)(?!\p{L})/iu;

function splice(text: string, start: number, end: number, by: string): string {
  return text.slice(0, start) + by + text.slice(end);
}

/** The number a value's key ends with (`amount:EUR:1200` → 1200, `percentage:30`, `number:4`, `quantity:kilogram:2.5`). */
function amountOf(key: string): number | undefined {
  const m = /:(-?\d+(?:\.\d+)?)$/u.exec(stripRate(key));
  return m ? Number(m[1]) : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Percentages, quantities, numbers: the figure changes, the sign or the unit stays.

function writeFigure(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  if (expert.kind === 'quantity' && stated.kind === 'quantity' && quantityUnit(expert.key) !== quantityUnit(stated.key)) return undefined;
  const n = amountOf(expert.key);
  return n === undefined ? undefined : replaceFigure(stated, n, language);
}

const quantityUnit = (key: string) => key.split(':')[1];

// ---------------------------------------------------------------------------------------------------
// Amounts: the figure in the sentence's style, the currency as the sentence writes it.

const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$', GBP: '£', JPY: '¥' };
const CURRENCY_WORDS: Record<string, Record<Language, [string, string]>> = {
  EUR: { en: ['euro', 'euros'], fr: ['euro', 'euros'] },
  USD: { en: ['dollar', 'dollars'], fr: ['dollar', 'dollars'] },
  GBP: { en: ['pound', 'pounds'], fr: ['livre', 'livres'] },
  CHF: { en: ['franc', 'francs'], fr: ['franc', 'francs'] },
};

function writeAmount(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  const n = expert.key === 'amount:0' ? 0 : amountOf(expert.key);
  const figure = figuresIn(stated.text, language)[0];
  if (n === undefined || !figure) return undefined;
  const statedIso = stated.key.split(':')[1];
  const expertIso = expert.kind === 'amount' && expert.key !== 'amount:0' ? expert.key.split(':')[1] : statedIso;
  const style = styleOf(figure);
  // A price written with cents keeps them ("EUR 0.50" → "EUR 1.00"); one without gets them only when needed.
  const decimals = style.decimals > 0 ? Math.max(style.decimals, fractionDigits(n)) : fractionDigits(n) > 0 ? 2 : 0;
  const written = splice(stated.text, figure.start, figure.end, writeNumber(n, { ...style, decimals }, language));
  const shift = written.length - stated.text.length;
  const before = written.slice(0, figure.start);
  const after = written.slice(figure.end + shift);
  const plural = language === 'fr' ? n >= 2 : n !== 1;
  const currency = (part: string) =>
    part
      .replace(/\b[A-Z]{3}\b/u, (code) => (code === statedIso ? expertIso : code))
      .replace(/[€$£¥]/u, (symbol) => (expertIso === statedIso ? symbol : (SYMBOLS[expertIso] ?? expertIso)))
      .replace(/\b(euro|dollar|pound|livre|franc)s?\b/iu, (word) => {
        const words = CURRENCY_WORDS[expertIso]?.[language];
        if (!words) return expertIso;
        const chosen = words[plural ? 1 : 0];
        return /^\p{Lu}/u.test(word) ? chosen.charAt(0).toUpperCase() + chosen.slice(1) : chosen;
      });
  return currency(before) + written.slice(figure.start, figure.end + shift) + currency(after);
}

// ---------------------------------------------------------------------------------------------------
// Durations and periods: the sentence's unit when the value converts to it exactly, else the expert's.

type TimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
const DAY = 86_400;
const UNIT_SECONDS: Record<TimeUnit, number> = { second: 1, minute: 60, hour: 3600, day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };
const UNIT_WORDS: Record<Language, Record<TimeUnit, [string, string]>> = {
  en: { second: ['second', 'seconds'], minute: ['minute', 'minutes'], hour: ['hour', 'hours'], day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] },
  fr: { second: ['seconde', 'secondes'], minute: ['minute', 'minutes'], hour: ['heure', 'heures'], day: ['jour', 'jours'], week: ['semaine', 'semaines'], month: ['mois', 'mois'], year: ['an', 'ans'] },
};
const FEMININE_UNITS = new Set<TimeUnit>(['second', 'minute', 'hour', 'week']);
/** Units of the calendar, whose length in days the recognizers fix by convention (30 days a month, 365 a year). */
const CALENDAR = new Set<TimeUnit>(['month', 'year']);
const UNIT_OF_WORD: Record<string, TimeUnit> = {
  second: 'second', seconds: 'second', sec: 'second', secs: 'second', seconde: 'second', secondes: 'second',
  minute: 'minute', minutes: 'minute', min: 'minute', mins: 'minute',
  hour: 'hour', hours: 'hour', hr: 'hour', hrs: 'hour', h: 'hour', heure: 'hour', heures: 'hour',
  day: 'day', days: 'day', jour: 'day', jours: 'day', journee: 'day', journees: 'day',
  week: 'week', weeks: 'week', semaine: 'week', semaines: 'week',
  month: 'month', months: 'month', mois: 'month',
  year: 'year', years: 'year', an: 'year', ans: 'year', annee: 'year', annees: 'year',
};
const UNIT_PATTERN: Record<Language, RegExp> = {
  en: /(?<![\p{L}])(?:(working|business|calendar)\s+)?(seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?)(?![\p{L}])/giu,
  fr: /(?<![\p{L}])(secondes?|minutes?|min|heures?|h|jours?|journées?|semaines?|mois|ans?|années?)(?:\s+(ouvrés?|ouvrables?|calendaires?))?(?![\p{L}])/giu,
};
const unaccented = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

interface UnitToken {
  start: number;
  end: number;
  unit: TimeUnit;
  /** "working", "business", "ouvrés", "ouvrables", "calendaires": a day of a kind. */
  qualifier?: string;
  abbreviated: boolean;
  capital: boolean;
}

/** The last unit word of a text ("3 to 5 working days" → working day). */
function unitToken(text: string, language: Language): UnitToken | undefined {
  let last: UnitToken | undefined;
  for (const m of text.matchAll(UNIT_PATTERN[language])) {
    const [word, qualifier] = language === 'en' ? [m[2], m[1]] : [m[1], m[2]];
    const unit = UNIT_OF_WORD[unaccented(word)];
    if (unit) last = { start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, unit, qualifier, abbreviated: /^(?:secs?|mins?|hrs?|h)$/iu.test(word), capital: /^\p{Lu}/u.test(m[0]) };
  }
  return last;
}

/** A unit written for a count: "day"/"days", "working days", "jours ouvrés", "semaine"/"semaines". */
function unitWords(unit: TimeUnit, count: number, language: Language, qualifier?: string, capital = false): string {
  const plural = language === 'fr' ? count >= 2 : count !== 1;
  const word = UNIT_WORDS[language][unit][plural ? 1 : 0];
  let out = word;
  if (qualifier && unit === 'day') {
    if (language === 'en') out = `${qualifier.toLowerCase()} ${word}`;
    else out = `${word} ${unaccented(qualifier).replace(/s$/u, '').replace(/^ouvre$/u, 'ouvré')}${plural ? 's' : ''}`;
  }
  return capital ? out.charAt(0).toUpperCase() + out.slice(1) : out;
}

interface Length {
  /** Seconds, or working days. */
  low: number;
  high?: number;
  working: boolean;
}

/** `duration:P14D`, `duration:PT600S`, `duration:P10WD`, `duration:P3D-P5D` as a length. */
function lengthOf(key: string): Length | undefined {
  const parts = key.replace(/^duration:/u, '').split('-');
  const read = parts.map((p) => {
    const m = /^P(?:(\d+(?:\.\d+)?)(D|WD)|T(\d+(?:\.\d+)?)S)$/u.exec(p);
    if (!m) return undefined;
    return m[2] === 'WD' ? { n: Number(m[1]), working: true } : { n: m[2] === 'D' ? Number(m[1]) * DAY : Number(m[3]), working: false };
  });
  if (read.some((r) => !r) || read.length > 2 || (read.length === 2 && read[0]?.working !== read[1]?.working)) return undefined;
  return { low: read[0]!.n, high: read[1]?.n, working: read[0]!.working };
}

/** The largest unit a length is a whole number of (months and years only when the sentence or the expert wrote them). */
function unitFor(seconds: number[], preferred: (TimeUnit | undefined)[]): TimeUnit | undefined {
  for (const unit of preferred) if (unit && seconds.every((s) => s % UNIT_SECONDS[unit] === 0)) return unit;
  return (['week', 'day', 'hour', 'minute', 'second'] as TimeUnit[]).find((unit) => seconds.every((s) => s % UNIT_SECONDS[unit] === 0));
}

function writeDuration(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  const was = lengthOf(stated.key);
  const token = unitToken(stated.text, language);
  if (!was || !token || was.low === 0) return undefined;
  const figures = figuresIn(stated.text, language).filter((f) => f.end <= token.start);
  let counts: number[];
  let unit: TimeUnit;
  let qualifier = token.qualifier;
  if (expert.kind === 'number') {
    const n = amountOf(expert.key);
    if (n === undefined) return undefined;
    [counts, unit] = [[n], token.unit];
  } else {
    const now = lengthOf(expert.key);
    if (!now || now.low === 0) return undefined;
    const values = now.high === undefined ? [now.low] : [now.low, now.high];
    if (now.working) {
      [counts, unit] = [values, 'day'];
      qualifier = was.working ? token.qualifier : language === 'fr' ? 'ouvrés' : 'working';
    } else {
      // The sentence's unit, as its key and figure measure it, when the expert's converts to it: days, weeks and
      // hours convert among themselves, months and years too; 6 years are not written as 2,190 days.
      const statedSize = was.working ? undefined : (was.high ?? was.low) / (figures[figures.length - 1]?.value ?? 1);
      const own = expertUnit(expert);
      const statedUnit = statedSize === UNIT_SECONDS[token.unit] && (own === undefined || CALENDAR.has(own) === CALENDAR.has(token.unit)) ? token.unit : undefined;
      const months = statedSize === UNIT_SECONDS[token.unit] ? calendarCounts(values, own, token.unit) : undefined;
      const chosen = months ? token.unit : unitFor(values, [statedUnit, own]);
      if (!chosen) return undefined;
      [counts, unit] = [months ?? values.map((v) => v / UNIT_SECONDS[chosen]), chosen];
      if (was.working || unit !== 'day') qualifier = undefined;
    }
  }
  const sameUnit = unit === token.unit && qualifier === token.qualifier;
  const unitText = (count: number) => (sameUnit && token.abbreviated ? stated.text.slice(token.start, token.end) : unitWords(unit, count, language, qualifier, token.capital));
  const style = styleOf(figures[0]);
  const feminine = language === 'fr' && FEMININE_UNITS.has(unit);
  const number = (n: number) => writeNumber(n, style, language, feminine);
  const last = counts[counts.length - 1];
  const tail = stated.text.slice(token.end);
  if (counts.length === 2 && figures.length === 2) {
    // Both ends rewritten in place, the words between them kept ("3 to 5 days", "entre 3 et 5 jours").
    let out = splice(stated.text, token.start, token.end, unitText(last));
    out = splice(out, figures[1].start, figures[1].end, number(counts[1]));
    return splice(out, figures[0].start, figures[0].end, number(counts[0]));
  }
  const amount = counts.length === 2 ? `${number(counts[0])} ${language === 'fr' ? 'à' : 'to'} ${number(counts[1])}` : number(last);
  if (figures.length === 0) {
    // "a week", "une semaine": the article stands for one.
    const article = /(?<![\p{L}])(an?|one|une?)\s+$/iu.exec(stated.text.slice(0, token.start));
    if (!article) return undefined;
    return stated.text.slice(0, article.index) + `${last === 1 && counts.length === 1 ? article[1] : amount} ${unitText(last)}` + tail;
  }
  // A range written as one value loses its "between" ("between 3 and 5 days" → "10 days").
  const lead = stated.text.slice(0, figures[0].start);
  const kept = figures.length === 2 && counts.length === 1 ? lead.replace(/(?<![\p{L}])(?:between|from|entre|de)\s+$/iu, '') : lead;
  return kept + `${amount}${stated.text.slice(figures[figures.length - 1].end, token.start)}${unitText(last)}` + tail;
}

/** Years in a sentence of months or months in one of years, counted by the calendar (2 years are 24 months), when whole. */
function calendarCounts(seconds: number[], own: TimeUnit | undefined, stated: TimeUnit | undefined): number[] | undefined {
  if (!own || !stated || !CALENDAR.has(own) || !CALENDAR.has(stated) || own === stated) return undefined;
  const counts = seconds.map((s) => (own === 'year' ? (s / UNIT_SECONDS.year) * 12 : s / UNIT_SECONDS.month) / (stated === 'year' ? 12 : 1));
  return counts.every((c) => Number.isInteger(c)) ? counts : undefined;
}

/** The unit the expert wrote ("6 weeks" → week), in either language. */
function expertUnit(expert: TypedValue): TimeUnit | undefined {
  return unitToken(expert.text, 'en')?.unit ?? unitToken(expert.text, 'fr')?.unit;
}

interface Period {
  /** Days (days and weeks), months (months and years) or hours. */
  family: 'days' | 'months' | 'hours';
  count: number;
}

/** A recurrence's period (`recurrence:P6M` → 6 months), or a length as one ("3 years" → 36 months). */
function periodOf(value: Pick<TypedValue, 'kind' | 'key'>): Period | undefined {
  if (value.kind === 'recurrence') {
    const m = /^recurrence:P(T?)(\d+(?:\.\d+)?)([DWMYH])$/u.exec(value.key);
    if (!m) return undefined;
    const n = Number(m[2]);
    if (m[1] || m[3] === 'H') return { family: 'hours', count: n };
    return m[3] === 'D' ? { family: 'days', count: n } : m[3] === 'W' ? { family: 'days', count: 7 * n } : m[3] === 'M' ? { family: 'months', count: n } : { family: 'months', count: 12 * n };
  }
  if (value.kind === 'duration') {
    const length = lengthOf(value.key);
    if (!length || length.high !== undefined || length.working) return undefined;
    if (length.low % DAY !== 0) return length.low % 3600 === 0 ? { family: 'hours', count: length.low / 3600 } : undefined;
    const days = length.low / DAY;
    if (days % 365 === 0) return { family: 'months', count: (days / 365) * 12 };
    if (days % 30 === 0 && days % 7 !== 0) return { family: 'months', count: days / 30 };
    return { family: 'days', count: days };
  }
  return undefined;
}

const PERIOD_UNITS: Record<Period['family'], [TimeUnit, number][]> = {
  days: [['week', 7], ['day', 1]],
  months: [['year', 12], ['month', 1]],
  hours: [['day', 24], ['hour', 1]],
};
const UNIT_IN_PERIOD: Partial<Record<TimeUnit, [Period['family'], number]>> = { day: ['days', 1], week: ['days', 7], month: ['months', 1], year: ['months', 12], hour: ['hours', 1] };

/** "Every 6 months" → "every 12 months" for a year; "every 2 years" → "every year"; "tous les deux ans" → "tous les ans". */
function writeRecurrence(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  const token = unitToken(stated.text, language);
  const was = periodOf(stated);
  if (!token || !was || !UNIT_IN_PERIOD[token.unit]) return undefined;
  const [family, size] = UNIT_IN_PERIOD[token.unit]!;
  const figure = figuresIn(stated.text, language).find((f) => f.end <= token.start);
  const now = expert.kind === 'number' ? (amountOf(expert.key) !== undefined ? { family, count: amountOf(expert.key)! * size } : undefined) : periodOf(expert);
  if (!now) return undefined;
  // Only "every <n> <unit>" and its French forms: "once a year", "annually" are written another way.
  const every = /(?<![\p{L}])(every|each|tou(?:te)?s\s+les|chaque)\s+$/iu.exec(stated.text.slice(0, figure?.start ?? token.start));
  if (!every || family !== now.family) return undefined;
  const [unit, count] = now.count % size === 0 ? [token.unit, now.count / size] : (PERIOD_UNITS[now.family].map(([u, s]) => [u, now.count / s] as const).find(([, c]) => Number.isInteger(c)) ?? []);
  if (!unit || count === undefined) return undefined;
  const french = language === 'fr';
  const allPlural = french && /^tou/iu.test(every[1]);
  const words = unitWords(unit, allPlural ? 2 : count, language, undefined, token.capital);
  let lead = every[1];
  if (allPlural) lead = FEMININE_UNITS.has(unit) ? lead.replace(/^(t)ous/iu, '$1outes') : lead.replace(/^(t)outes/iu, '$1ous');
  if (/^chaque$/iu.test(lead) && count !== 1) return undefined;
  const amount = count === 1 ? '' : `${writeNumber(count, styleOf(figure), language, FEMININE_UNITS.has(unit))} `;
  return stated.text.slice(0, every.index) + `${lead} ${amount}${words}` + stated.text.slice(token.end);
}

// ---------------------------------------------------------------------------------------------------
// Clock times: each time of the sentence rewritten in its own style (12 or 24 hours, separator, zero).

interface ClockToken {
  start: number;
  end: number;
  hour: string;
  /** ":", ".", "h", " h": what follows the hour; minutes, when written, come after `gap` ("18 h 30"). */
  separator?: string;
  gap?: string;
  minutes?: string;
  meridiem?: string;
  word?: string;
}

const CLOCK = /(?<![\d:.,])(\d{1,2})(?:(\s?[:.hH])(?:(\s?)(\d{2}))?)?(\s?[aApP]\.?\s?[mM]\.?)?(?![\d])|(?<![\p{L}])(noon|midnight|midi|minuit)(?![\p{L}])/gu;

function clockTokens(text: string): ClockToken[] {
  return [...text.matchAll(CLOCK)].map((m) => ({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, hour: m[1], separator: m[2], gap: m[3], minutes: m[4], meridiem: m[5], word: m[6] }));
}

/** `time:14:00`, `time-range:09:00-17:30` as [hours, minutes] pairs. */
function clockTimes(key: string): [number, number][] | undefined {
  const m = /^time(?:-range)?:(\d{2}):(\d{2})(?:-(\d{2}):(\d{2}))?$/u.exec(key);
  if (!m) return undefined;
  const times: [number, number][] = [[Number(m[1]), Number(m[2])]];
  if (m[3] !== undefined) times.push([Number(m[3]), Number(m[4])]);
  return times;
}

function writeClock(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  const times = clockTimes(expert.key);
  const tokens = clockTokens(stated.text);
  if (!times || tokens.length !== times.length || expert.kind !== stated.kind) return undefined;
  const twelve = tokens.find((t) => t.meridiem)?.meridiem;
  let out = stated.text;
  for (let i = tokens.length - 1; i >= 0; i--) out = splice(out, tokens[i].start, tokens[i].end, clock(times[i], tokens[i], twelve, language));
  return out;
}

function clock([h, m]: [number, number], token: ClockToken, twelve: string | undefined, language: Language): string {
  const mm = String(m).padStart(2, '0');
  if (twelve) {
    const meridiem = token.meridiem ?? (token.word ? twelve : undefined);
    const half = (written: string) => written.replace(/[aApP]/u, (c) => (h >= 12 ? (c === c.toUpperCase() ? 'P' : 'p') : c === c.toUpperCase() ? 'A' : 'a'));
    const minutes = token.minutes !== undefined || m !== 0 ? `${token.minutes !== undefined ? `${token.separator}${token.gap}` : ':'}${mm}` : '';
    return `${h % 12 || 12}${minutes}${meridiem ? half(meridiem) : ''}`;
  }
  const hour = token.hour?.length === 2 ? String(h).padStart(2, '0') : String(h);
  if (token.separator === undefined) return m === 0 && !token.word ? hour : `${hour}${language === 'fr' ? 'h' : ':'}${mm}`;
  if (token.minutes !== undefined) return `${hour}${token.separator}${token.gap}${mm}`;
  // "17 h", "17h": minutes are added only when there are some, spaced as the hour is ("18 h 30").
  if (m === 0) return `${hour}${token.separator}`;
  return `${hour}${token.separator}${/h/iu.test(token.separator) && token.separator.startsWith(' ') ? ' ' : ''}${mm}`;
}

// ---------------------------------------------------------------------------------------------------
// Dates: each part the sentence writes (day, month, year, weekday) rewritten in its own style.

interface DateParts {
  year?: number;
  month?: number;
  day?: number;
  weekday?: number;
}

/** The dates of a date key, modifiers aside: `date:2026-03-31`, `date-range:before:XXXX-04-15`, `(2026-06-01,2026-06-15,P14D)`, weekdays `XXXX-WXX-1`. */
function datesOf(key: string): DateParts[] | undefined {
  const body = key.replace(/^(?:date|date-range|datetime|datetimerange):/u, '').replace(/^(?:[a-z-]+:)+/u, '');
  const range = /^\((.+?),(.+?)(?:,P\w+)?\)$/u.exec(body);
  const parts = (range ? [range[1], range[2]] : [body]).map(datePartsOf);
  return parts.every((p): p is DateParts => p !== undefined) ? parts : undefined;
}

function datePartsOf(timex: string): DateParts | undefined {
  const year = (y: string) => (/^\d{4}$/u.test(y) ? Number(y) : undefined);
  let m = /^(\d{4}|XXXX)-(\d{2})-(\d{2})$/u.exec(timex);
  if (m) return { year: year(m[1]), month: Number(m[2]), day: Number(m[3]) };
  m = /^XXXX-WXX-(\d)$/u.exec(timex);
  if (m) return { weekday: Number(m[1]) };
  m = /^(\d{4}|XXXX)-(\d{2})$/u.exec(timex);
  if (m) return { year: year(m[1]), month: Number(m[2]) };
  m = /^(\d{4})$/u.exec(timex);
  return m ? { year: Number(m[1]) } : undefined;
}

function sameDate(a: DateParts, b: DateParts): boolean {
  return a.month === b.month && a.day === b.day && a.weekday === b.weekday && (a.year === undefined || b.year === undefined || a.year === b.year);
}

const MONTHS: Record<Language, string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
};
const WEEKDAYS: Record<Language, string[]> = {
  en: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  fr: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
};

type DateField = keyof DateParts;

interface DateToken {
  start: number;
  end: number;
  field: DateField;
  value: number;
  /** How to write another value in the token's place. */
  write: (value: number) => string;
}

/** The parts of a date a text writes: numeric dates (31/03/2026, 2026-03-31), month and weekday names, years, days. */
function dateTokens(text: string, language: Language): DateToken[] {
  const tokens: DateToken[] = [];
  const taken = (start: number, end: number) => tokens.some((t) => start < t.end && end > t.start);
  const pad = (written: string) => (n: number) => (written.length === 2 ? String(n).padStart(2, '0') : String(n));
  for (const m of text.matchAll(/(?<![\d/.-])(\d{1,4})([/.-])(\d{1,2})\2(\d{2,4})(?![\d/-])/gu)) {
    const at = m.index ?? 0;
    const iso = m[1].length === 4;
    const parts = [m[1], m[3], m[4]];
    const fields: DateField[] = iso ? ['year', 'month', 'day'] : numericOrder(Number(m[1]), Number(m[3]), language);
    let offset = at;
    parts.forEach((written, i) => {
      const start = text.indexOf(written, offset);
      offset = start + written.length;
      const field = fields[i];
      const value = field === 'year' && written.length === 2 ? 2000 + Number(written) : Number(written);
      tokens.push({ start, end: start + written.length, field, value, write: field === 'year' && written.length === 2 ? (n) => String(n % 100).padStart(2, '0') : pad(written) });
    });
  }
  const names = (list: Record<Language, string[]>, field: DateField) => {
    for (const lang of [language, language === 'en' ? 'fr' : 'en'] as Language[]) {
      list[lang].forEach((name, i) => {
        const folded = unaccented(name);
        const pattern = new RegExp(`(?<![\\p{L}])${folded.slice(0, 3)}(?:${folded.slice(3)})?\\.?(?![\\p{L}])`, 'giu');
        for (const m of unaccented(text).matchAll(pattern)) {
          const start = m.index ?? 0;
          const end = start + m[0].length;
          if (taken(start, end) || (field === 'month' && lang === 'en' && folded === 'may' && text.slice(start, end) === 'may')) continue;
          const written = text.slice(start, end);
          const abbreviated = m[0].length < folded.length;
          const capital = /^\p{Lu}/u.test(written);
          tokens.push({
            start,
            end,
            field,
            value: i + 1,
            write: (n) => {
              const full = list[lang][n - 1];
              const word = abbreviated ? `${full.slice(0, 3)}${written.endsWith('.') ? '.' : ''}` : full;
              return capital ? word.charAt(0).toUpperCase() + word.slice(1) : word.toLowerCase();
            },
          });
        }
      });
    }
  };
  names(MONTHS, 'month');
  names(WEEKDAYS, 'weekday');
  for (const m of text.matchAll(/(?<![\d:.,/])((?:19|20)\d{2})(?![\d:.,/])/gu)) {
    if (!taken(m.index ?? 0, (m.index ?? 0) + 4)) tokens.push({ start: m.index ?? 0, end: (m.index ?? 0) + 4, field: 'year', value: Number(m[1]), write: String });
  }
  for (const m of text.matchAll(/(?<![\d:./])(\d{1,2})(st|nd|rd|th|er|re|e)?(?![\d:./\p{L}])/gu)) {
    const start = m.index ?? 0;
    if (taken(start, start + m[0].length) || Number(m[1]) < 1 || Number(m[1]) > 31) continue;
    const suffix = m[2];
    tokens.push({ start, end: start + m[0].length, field: 'day', value: Number(m[1]), write: (n) => (suffix ? `${n}${ordinalSuffix(n, language, suffix)}` : m[1].length === 2 ? String(n).padStart(2, '0') : String(n)) });
  }
  return tokens.sort((a, b) => a.start - b.start);
}

/** Day first when the first part cannot be a month or in French; month first when the second cannot be, or in English (as the recognizers read them). */
function numericOrder(first: number, second: number, language: Language): DateField[] {
  if (first > 12) return ['day', 'month', 'year'];
  if (second > 12) return ['month', 'day', 'year'];
  return language === 'fr' ? ['day', 'month', 'year'] : ['month', 'day', 'year'];
}

function ordinalSuffix(n: number, language: Language, written: string): string {
  if (language === 'fr' || /^(?:er|re|e)$/u.test(written)) return n === 1 ? (written === 're' ? 're' : 'er') : '';
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

function writeDate(expert: TypedValue, stated: TypedValue, language: Language): string | undefined {
  const was = datesOf(stated.key);
  const now = datesOf(expert.key);
  if (!was || !now || was.length !== now.length) return undefined;
  const tokens = dateTokens(stated.text, language);
  const replacements: [DateToken, string][] = [];
  for (const field of ['year', 'month', 'day', 'weekday'] as DateField[]) {
    const own = tokens.filter((t) => t.field === field);
    const dated = was.map((d, i) => [d[field], i] as const).filter(([v]) => v !== undefined);
    let mapped: number[];
    if (own.length === dated.length) mapped = dated.map(([, i]) => i);
    else if (own.length === 1 && dated.length === 2 && dated[0][0] === dated[1][0]) {
      // One part written for both ends ("1 to 15 June"): the expert's ends must share it too.
      if (now[0][field] !== now[1][field]) return undefined;
      mapped = [0];
    } else return undefined;
    for (const [k, token] of own.entries()) {
      const i = mapped[k];
      if (token.value !== was[i][field]) return undefined;
      const value = now[i][field];
      if (value === undefined) {
        // The expert gave no year: the sentence's stays. A part the expert's value lacks otherwise cannot be written.
        if (field === 'year') continue;
        return undefined;
      }
      if (value !== token.value) replacements.push([token, token.write(value)]);
    }
    // A part the expert changes but the sentence does not write (a year it leaves out) is not added.
  }
  let out = stated.text;
  for (const [token, by] of replacements.sort((a, b) => b[0].start - a[0].start)) out = splice(out, token.start, token.end, by);
  return out;
}
