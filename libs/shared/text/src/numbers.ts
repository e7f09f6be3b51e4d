import { Culture, recognizeNumber } from '@microsoft/recognizers-text-suite';

/**
 * A number as written, alone ("30", "1 000", "1,200", "1.200,00", "3,5", "three", "douze"), or NaN when the
 * text is not one number. Read by the recognizers' number model (`@microsoft/recognizers-text-suite`, as
 * extractValues reads figures), in the culture the figure's separators point to, so one reading serves
 * texts of either language:
 *
 * - a comma and a point: the last one is the decimal separator ("1,000.50" English, "1.200,00" French);
 * - only commas: thousands when every comma opens a group of three digits ("1,200", "10,000"), else a
 *   decimal comma ("3,5", "0,75");
 * - only points: thousands when two or more groups of three digits follow ("1.000.000"), else a decimal
 *   point ("2.5", "1.200");
 * - spaces (also no-break and narrow no-break) between groups of three digits are thousands separators;
 * - number words are read in English, then in French.
 */
export function readNumber(text: string): number {
  let value = memo.get(text);
  if (value === undefined) {
    value = read(text);
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
    memo.set(text, value);
  }
  return value;
}

/** Figures read recently: a text repeats the same few ("30", "14"), and one model call costs 0.1 to 1 ms. */
const MEMO_SIZE = 1000;
const memo = new Map<string, number>();

function read(text: string): number {
  // Grouped figures written plain, the English way ("1 200,50", "1.200,00", "1.000.000" → "1200.50", "1200.00",
  // "1000000"), as extractValues reads them; what is left ambiguous ("1,200", "1.200") keeps its reading below.
  const figure = plainFigures(text.trim(), 'en').text;
  if (figure === '') return Number.NaN;
  // Only a comma that opens no group of three ("3,5", "0,75") is a French decimal comma.
  const frenchDecimal = /^[-+]?\d+,\d+$/.test(figure) && !/^[-+]?\d{1,3}(?:,\d{3})+$/.test(figure);
  const cultures = !/\d/.test(figure) ? [Culture.English, Culture.French] : frenchDecimal ? [Culture.French] : [Culture.English];
  for (const culture of cultures) {
    const results = recognizeNumber(figure, culture);
    const whole = results.length === 1 && results[0].start === 0 && results[0].end === figure.length - 1 ? results[0] : undefined;
    const value = whole ? resolvedNumber((whole.resolution as Record<string, unknown> | undefined)?.value) : undefined;
    if (value !== undefined) return value;
  }
  return Number.NaN;
}

/** A recognizer's resolved value as a number: the French models write their decimals with a comma ("1200,5"); resolutions have no group separators. */
export function resolvedNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value.replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Figures with group separators (spaces of any width, or points and commas that cannot be read two
 * ways), rewritten plain for the models of one language: "1 200,50" → "1200,50" (French) or "1200.50"
 * (English); "1.200,00" in an English text → "1200.00". The models split space-grouped figures ("1 200,50
 * €" read as 1 and 200.5) and read a figure in the text's language only ("EUR 1.200,00" as 1.2 in
 * English). Ambiguous figures ("1.200", "1,200" alone) are left as written: the language decides.
 * `original(i)` maps an offset of the plain text back to the text (the rewrite only drops characters).
 */
export function plainFigures(text: string, language: 'en' | 'fr'): { text: string; original: (offset: number) => number } {
  if (!GROUPED.test(text)) return { text, original: (i) => i };
  GROUPED.lastIndex = 0;
  const mark = language === 'fr' ? ',' : '.';
  let plain = '';
  const origin: number[] = [];
  const keep = (ch: string, at: number) => {
    plain += ch;
    origin.push(at);
  };
  let last = 0;
  for (const match of text.matchAll(GROUPED)) {
    const at = match.index ?? 0;
    for (let i = last; i < at; i += 1) keep(text[i], i);
    const figure = match[0];
    const decimal = decimalSeparatorAt(figure);
    for (let i = 0; i < figure.length; i += 1) {
      // Rewritten: the digits, and the decimal separator as the language writes it; group separators dropped.
      if (decimal === null || /\d/u.test(figure[i])) keep(figure[i], at + i);
      else if (i === decimal) keep(mark, at + i);
    }
    last = at + figure.length;
  }
  for (let i = last; i < text.length; i += 1) keep(text[i], i);
  origin.push(text.length);
  return { text: plain, original: (i) => origin[Math.max(0, Math.min(i, origin.length - 1))] };
}

/** A figure with at least one group of three digits after a separator, not glued to other digits. */
const GROUPED = /(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009.,]\d{3}(?!\d))+(?:[.,]\d+(?!\d|[.,]\d))?(?![.,]\d)/gu;

/**
 * Where a grouped figure's decimal separator is: its offset, -1 when it has none (every separator groups),
 * null when the figure can be read two ways and is left as written ("1.200", "1,200": the language decides).
 */
function decimalSeparatorAt(figure: string): number | null {
  const spaces = /[ \u00a0\u202f\u2009]/u.test(figure);
  const comma = figure.lastIndexOf(',');
  const point = figure.lastIndexOf('.');
  if (comma >= 0 && point >= 0) return Math.max(comma, point);
  if (spaces) return Math.max(comma, point);
  if ((figure.match(/[.,]/gu) ?? []).length >= 2) return -1;
  return null;
}
