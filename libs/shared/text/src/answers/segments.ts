import { foldText } from '../fold';

/** A sentence or table row of a passage, with its offsets in the passage (end exclusive). */
export interface Segment {
  start: number;
  end: number;
  text: string;
  /** A Markdown heading, or a short line without final punctuation followed by more text. */
  heading: boolean;
  /** A table row (`cell | cell`). */
  row: boolean;
  /** Index of the line the segment is on. */
  line: number;
}

const ABBREVIATIONS = new Set('mr mrs ms dr prof st vs fig art cf approx mme mlle dept inc ltd corp ref vol pp no nr av bd jr sr'.split(' '));
const BOUNDARY = /[.!?…]+["'”»)\]]*(?=\s)/gu;

/** The first cell of a table row (`| Weekday on-call (per night) | EUR 85 |` → ` Weekday on-call (per night) `): what the row is about. */
export function firstCell(row: string): string {
  return row.replace(/^\s*\|/u, '').split('|')[0];
}

/**
 * The passage cut into sentences and table rows, each with its offsets, so that an answer can be quoted
 * as a span of the passage. Lines are units (chunks keep headings, list items and table rows on lines of
 * their own); inside a line a period, "!", "?" or "…" followed by a space and a capital, a digit or a
 * quote ends a sentence, unless it closes an abbreviation or an initial ("J. Smith").
 */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let offset = 0;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const lineStart = offset;
    offset += line.length + 1;
    const trimmed = line.trim();
    if (!/[\p{L}\p{N}]/u.test(trimmed)) return;
    const row = /\S\s*\|\s*\S/u.test(trimmed);
    const terminal = /[.!?…:;]["'”»)\]]*$/u.test(trimmed);
    const nextNonEmpty = lines.slice(index + 1).some((l) => l.trim() !== '');
    const heading = /^#{1,6}\s/u.test(trimmed) || (!row && !terminal && !/^[-*+•]\s/u.test(trimmed) && trimmed.split(/\s+/u).length <= 8 && nextNonEmpty);
    if (row || heading) {
      const lead = line.indexOf(trimmed);
      out.push({ start: lineStart + lead, end: lineStart + lead + trimmed.length, text: trimmed, heading, row, line: index });
      return;
    }
    let start = 0;
    BOUNDARY.lastIndex = 0;
    for (let match = BOUNDARY.exec(line); match; match = BOUNDARY.exec(line)) {
      const end = match.index + match[0].length;
      const rest = line.slice(end).trimStart();
      if (!/^[\p{Lu}\p{N}"'“«([]/u.test(rest)) continue;
      if (match[0].startsWith('.')) {
        const before = /([\p{L}]+)$/u.exec(line.slice(start, match.index));
        const word = before ? foldText(before[1]) : '';
        if (word.length === 1 || ABBREVIATIONS.has(word)) continue;
      }
      push(out, line, lineStart, start, end, index);
      start = end;
    }
    push(out, line, lineStart, start, line.length, index);
  });
  return out;
}

function push(out: Segment[], line: string, lineStart: number, from: number, to: number, index: number): void {
  const piece = line.slice(from, to);
  const lead = piece.length - piece.trimStart().length;
  const trimmed = piece.trim();
  const marker = /^(?:[-*+•>]|\d{1,3}[.)])\s+/u.exec(trimmed)?.[0].length ?? 0;
  const text = trimmed.slice(marker);
  if (!/[\p{L}\p{N}]/u.test(text)) return;
  const start = lineStart + from + lead + marker;
  out.push({ start, end: start + text.length, text, heading: false, row: false, line: index });
}
