import { CURRENCY_TERMS, DIMENSION_TERMS } from './value-unit-terms';

/**
 * Cheap tests that say when a recognizer model of `@microsoft/recognizers-text-suite` cannot find anything in
 * a text, so extractValues skips it (the currency model alone costs about 9 ms per figure of a sentence, the
 * date-time model 3 to 8 ms even on an empty one). Each test accepts a superset of the texts its model reads,
 * so skipping a model never changes a result: a skipped model would have returned nothing.
 *
 * - percentages: the English patterns all hold "%" or "cent", the French ones "%" or "pourcent" (read off the
 *   suite's `NumberWithSuffixPercentage` and `NumberWithPrefixPercentage`);
 * - amounts and quantities: the unit models read a unit word of their lists (value-unit-terms.ts) next to a
 *   figure the number extractor found; the test looks for one of those words next to a digit or a number word;
 * - dates and times: any digit, or one of the words below. That list is not derived from the grammar: it was
 *   checked against it, by reading every word of the suite's English and French date-time patterns in a dozen
 *   frames ("W", "at W", "this W", "next W", "le W", "il y a W"...) and keeping each that gave a result, and
 *   against a golden run over 6,000 real sentences. Add a word here if the suite learns new ones.
 */

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The number words the number extractors read, in English and French: cardinals, the ordinals and fractions
 * ("two fifths", "trois quarts"), multipliers ("5 bn"). Whole words, lower case.
 */
const NUMBER_WORD = [
  'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen',
  'twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|trillions?|lakhs?|crores?|dozens?|couple|pair',
  'halfs?|halves|quarters?|thirds?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?|elevenths?|twelfths?|\\p{L}*teenths?|\\p{L}*tieths?|hundredths?|thousandths?|millionths?|billionths?|first|second',
  'k|m|b|bn|mn|mln|bln|tln|mil|md|mds|mrd',
  'zéro|zero|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize|vingts?|trente|quarante|cinquante|soixante|septante|octante|huitante|nonante',
  'cents?|milles?|milliers?|millions?|milliards?|billions?|demie?s?|quarts?|tiers|douzaines?|dizaines?|centaines?|moitié|\\p{L}*i[eè]mes?|premi[eè]re?s?|secondes?',
].join('|');
const FRACTIONS = '½¼¾⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞';
/** What may end a figure, right before a unit written after it ("150 EUR", "5 kg", "5 millions de dollars"). */
const FIGURE_BEFORE = new RegExp(`(?:\\p{N}[\\p{L}\\p{N}.,'’]*|(?<!\\p{L})(?:${NUMBER_WORD}))[\\s\\-]*(?:(?:de|d['’])\\s*)?$`, 'iu');
/** What may start a figure, right after a unit written before it ("€25", "USD 2,500", "$ a hundred"). */
const FIGURE_AFTER = new RegExp(`^[\\s\\-+]*(?:\\p{N}|[.,]\\d|[${FRACTIONS}]|(?:a|an|${NUMBER_WORD})(?!\\p{L}))`, 'iu');

/** Finds, at every position, the longest unit word not glued to a preceding letter. */
function unitWords(terms: readonly string[]): RegExp {
  const sorted = [...terms].sort((a, b) => b.length - a.length);
  return new RegExp(`(?<!\\p{L})(?=(${sorted.map(escape).join('|')}))`, 'giu');
}

/**
 * True when a unit word stands next to something that may be a figure: after it ("150 EUR", "5 kg", "5 millions
 * de dollars") or, for units the model also reads as prefixes (currencies), before it ("€25", "USD 2,500"). The
 * recognizers read a unit only next to a figure (a unit word alone gives a result without a value, which
 * extractValues drops).
 */
function unitNextToFigure(text: string, words: RegExp, before: boolean): boolean {
  words.lastIndex = 0;
  for (let m = words.exec(text); m; m = words.exec(text)) {
    const at = m.index;
    const term = m[1];
    if (FIGURE_BEFORE.test(text.slice(Math.max(0, at - 40), at)) || (before && FIGURE_AFTER.test(text.slice(at + term.length, at + term.length + 40)))) return true;
    words.lastIndex = at + 1;
  }
  return false;
}

const CURRENCY_WORDS = unitWords(CURRENCY_TERMS);
const DIMENSION_WORDS = unitWords(DIMENSION_TERMS);

/**
 * False when the percentage model cannot read a percentage in the text: its patterns all hold "%" or "cent"
 * ("percent", "per cent", "percentage", "cents") in English, "%" or "pourcent" in French (whose "pour cent"
 * extractValues turns into "%" before).
 */
export function mayHoldPercentage(text: string, language: 'en' | 'fr'): boolean {
  return language === 'en' ? /%|cent/i.test(text) : /%|pourcent/i.test(text);
}

/** False when the currency model cannot read an amount in the text. */
export function mayHoldAmount(text: string): boolean {
  return unitNextToFigure(text, CURRENCY_WORDS, true);
}

/** False when the dimension model cannot read a quantity in the text. */
export function mayHoldQuantity(text: string): boolean {
  return unitNextToFigure(text, DIMENSION_WORDS, false);
}

const words = (exact: string, stems: string) => new RegExp(`(?<!\\p{L})(?:(?:${exact})(?!\\p{L})|(?:${stems}))`, 'iu');

/**
 * Words the English date-time model needs when the text has no digit: number words ("three weeks", "at five"),
 * units of time and parts of the day, months and weekdays (and their abbreviations), relative words,
 * recurrences, seasons and holidays. Stems match word beginnings, so every inflection passes.
 */
const ENGLISH_DATE_TIME = words(
  [
    'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|half|dozens?|couple',
    'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\\p{L}*teenth|\\p{L}*tieth',
    'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|am|pm|hr|hrs|yr|yrs|h|eod|eom|eoy|ytd|mtd|qtd|asap|tmr|tmrw|ago|now|eve|lent|eid|yom|rosh|ash|whit|once|twice|thrice|moment|instant|time|times|past|future|soon|present|currently|presently|later|earlier|lately|recently|previously|nowadays|hence|fall|xmas|mlk|st|saint',
  ].join('|'),
  [
    'sec|min|hour|day|dai|week|workweek|wedn|weds|otd|mid|brunch|supper|yuandan|rama|ramz|mayday|month|year|annual|decade|centur|millenni|fortnight|quarter|semester|season|morning|afternoon|evening|night|tonight|noon|midday|midnight|dawn|dusk|sunrise|sunset|lunch|dinner|breakfast|bedtime|weekend|weekday|workday|business|o.clock|oclock|today|tomorrow|yesterday|hourly|nightly|biweekly|bimonthly|quarterly|semiannual|biannual|fiscal|calendar|every|each|former',
    'january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday',
    'spring|summer|autumn|winter|christmas|easter|thanksgiving|halloween|valentine|new year|holiday|fool|patrick|juneteenth|independence|labou?r|memorial|veteran|columbus|martin|king|president|groundhog|inaugurat|boxing|mother|father|black friday|cyber|ramadan|diwali|hanukkah|kwanzaa|passover|bastille|armistice|pentecost|ascension|assumption|all saints|epiphany|candlemas|shrove|good friday|qingming|dragon|lantern|double|singles|teacher|youth|women|children|national|chinese|lunar|tomb|arbor|flag|earth|election|canberra|anzac|waitangi|victoria|canada|family|civic|heritage|remembrance|emancipation|cinco|mardi|carnival|new',
  ].join('|'),
);

/** The French date-time model's words (the English ones too: a French text may use them, and skipping is rare). */
const FRENCH_DATE_TIME = words(
  [
    'un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize|vingts?|trente|quarante|cinquante|soixante|septante|octante|huitante|nonante|cents?|mille|demie?|quart|douzaine',
    'premier|premi[eè]re|\\p{L}*i[eè]mes?|an|ans|h|mi|janv|f[ée]vr?|avr|juil|sept|oct|nov|d[ée]c|lun|mar|mer|jeu|ven|sam|dim|hier|veille|lendemain|aube|ste?|saint|il y a',
  ].join('|'),
  [
    'seconde|minute|heure|huere|dqp|auparavant|bihebdo|ind[ée]pendance|yuandan|jour|journ|semaine|mois|ann[ée]e|d[ée]cenn|si[èe]cle|mill[ée]naire|trimestre|semestre|quinzaine|saison|matin|midi|apr[èe]s-midi|soir|nuit|minuit|cr[ée]puscule|aujourd|demain|maintenant|actuel|r[ée]cem|pr[ée]c[ée]d|prochain|derni|pass[ée]|futur|bient[ôo]t|avant-hier|d[ée]but|fin|chaque|tous|toutes|quotidien|hebdo|mensuel|annuel|bimensuel|horaire|lors|fois|moment|instant|ouvr|f[ée]ri|cong[ée]|week|weekend|week-end',
    'janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche',
    'printemps|[ée]t[ée]|automne|hiver|no[ëe]l|p[âa]ques|toussaint|nouvel an|r[ée]veillon|f[êe]te|pentec[ôo]te|tr[êe]ve|armistice|victoire|travail|assomption|ascension|[ée]piphanie|chandeleur|carnaval|nouvel',
  ].join('|'),
);

/** False when the date-time model cannot read a date, a time, a duration or a recurrence in the text. */
export function mayHoldDateTime(text: string, language: 'en' | 'fr'): boolean {
  return /\p{N}/u.test(text) || ENGLISH_DATE_TIME.test(text) || (language === 'fr' && FRENCH_DATE_TIME.test(text));
}
