import { foldText } from './fold';

export type SentenceKind = 'statement' | 'heading' | 'question';

export interface Sentence {
  /** The sentence as written (list markers and heading marks removed, whitespace collapsed). */
  text: string;
  kind: SentenceKind;
  /** Blocks are separated by blank lines; a sentence's neighbours in one block continue it. */
  block: number;
}

/** Words before a period that do not end a sentence (folded). A single letter never does ("e.g.", "J. Smith"). */
const ABBREVIATIONS = new Set(
  'mr mrs ms dr prof st vs fig art cf approx env mme mlle dept inc ltd corp ref vol pp min max av bd'.split(' '),
);
/** Abbreviations only before a number ("No. 5", "n° 12"). */
const NUMBER_ABBREVIATIONS = new Set(['no', 'nr', 'nos']);

const LIST_MARKER = /^(?:#{1,6}\s+|[-*+•▪◦]\s+|\d{1,3}[.)]\s+|>\s*)/u;
const TERMINAL = /[.!?…:;]["'”»)\]]*$/u;

/**
 * Splits a passage into sentences, keeping each one's words exactly as written. Lines are units of
 * their own (chunks keep headings, list items and table rows on separate lines); within a line a
 * period, "!", "?" or "…" ends a sentence when followed by a space and a capital, a digit or a quote,
 * except after an abbreviation or an initial. A line of at most eight words without final
 * punctuation (not a list item), or a Markdown heading, is a heading; a sentence ending with "?" is
 * a question.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let block = 0;
  let blankSeen = false;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, lineIndex) => {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (line === '') {
      blankSeen = true;
      return;
    }
    if (blankSeen && out.length > 0) block++;
    blankSeen = false;
    const markdownHeading = /^#{1,6}\s/.test(line);
    const listItem = !markdownHeading && LIST_MARKER.test(line);
    const body = line.replace(LIST_MARKER, '').trim();
    if (body === '' || !/[\p{L}\p{N}]/u.test(body)) return;
    const hasNext = lines.slice(lineIndex + 1).some((l) => l.trim() !== '');
    const words = body.split(' ').length;
    const heading = markdownHeading || (!listItem && !TERMINAL.test(body) && words <= 8 && hasNext);
    for (const piece of splitLine(body)) {
      const kind: SentenceKind = /\?["'”»)\]]*$/u.test(piece) ? 'question' : heading ? 'heading' : 'statement';
      out.push({ text: piece, kind, block });
    }
  });
  return out;
}

function splitLine(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const boundary = /[.!?…]+["'”»)\]]*(?=\s)/gu;
  for (let match = boundary.exec(line); match; match = boundary.exec(line)) {
    const end = match.index + match[0].length;
    const rest = line.slice(end).trimStart();
    if (!/^[\p{Lu}\p{N}"'“«([]/u.test(rest)) continue;
    if (match[0].startsWith('.')) {
      const before = /([\p{L}]+)$/u.exec(line.slice(start, match.index));
      const word = before ? foldText(before[1]) : '';
      if (word.length === 1 || ABBREVIATIONS.has(word)) continue;
      if (NUMBER_ABBREVIATIONS.has(word) && /^\d/.test(rest)) continue;
    }
    pieces.push(line.slice(start, end).trim());
    start = end;
  }
  const last = line.slice(start).trim();
  if (last !== '') pieces.push(last);
  return pieces;
}
