import { createHash } from 'node:crypto';
import { DomainError } from '@svc/kernel';
import type { DocumentBlock, ParsedDocument } from './parsed-document';

export interface ChunkOptions {
  /** Upper bound of a chunk's length in characters, overlap included (default 1200). */
  maxChars: number;
  /** Characters repeated between consecutive pieces of one over-long block (default 150, at most maxChars / 2). */
  overlapChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: Readonly<ChunkOptions> = { maxChars: 1200, overlapChars: 150 };

/** One future semantic node: a chunk of a document, located in `documentText(doc)`. */
export interface SemanticNodeDraft {
  /** 0-based reading order, consecutive. */
  position: number;
  text: string;
  /** Titles of the enclosing headings, outermost first (e.g. ['Refunds', 'Deadlines']); [] before the first heading. */
  headingPath: string[];
  /** `documentText(doc).slice(charStart, charEnd) === text`. */
  charStart: number;
  charEnd: number;
}

/** The blank line between blocks in `documentText`. */
const BLOCK_SEPARATOR = '\n\n';
/** C0/C1 controls other than tab and line breaks, zero-width space and byte-order marks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u200B\uFEFF]/g;
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;
const SENTENCE_END = /[.!?\u3002\uFF01\uFF1F\u2026]/;
const CLOSING = /["'\u201D\u2019)\]\u00BB]/;
const LOWERCASE = /\p{Ll}/u;

/** A text on one line: invisible characters removed, whitespace runs collapsed to one space, trimmed, NFC. */
function inlineText(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

function normalizeBlockText(block: DocumentBlock): string {
  switch (block.kind) {
    case 'list':
    case 'table':
      // One item or row per line; blank lines carry no meaning there.
      return block.text.split(LINE_BREAK).map(inlineText).filter((line) => line !== '').join('\n');
    case 'code': {
      // Relative indentation matters in code: lines are dedented and right-trimmed, runs of blank
      // lines shrink to one, and the block starts at its first non-blank character.
      const lines = block.text.normalize('NFC').replace(INVISIBLE, '').split(LINE_BREAK).map((line) => line.trimEnd());
      const common = lines.reduce((min, line) => (line === '' ? min : Math.min(min, line.length - line.trimStart().length)), Infinity);
      return lines.map((line) => (common === Infinity ? line : line.slice(common))).join('\n').replace(/\n{3,}/g, '\n\n').trim();
    }
    default:
      return inlineText(block.text);
  }
}

/**
 * The document with every block's whitespace normalised and empty blocks dropped (heading levels
 * clamped to 1–6). Chunks and their offsets are computed on this form.
 */
export function normalizeDocument(doc: ParsedDocument): ParsedDocument {
  const blocks: DocumentBlock[] = [];
  for (const block of doc.blocks) {
    const text = normalizeBlockText(block);
    if (text === '') continue;
    blocks.push(block.kind === 'heading' ? { kind: 'heading', text, level: clampLevel(block.level) } : { kind: block.kind, text });
  }
  const title = doc.title === null ? null : inlineText(doc.title) || null;
  return { title, blocks };
}

function clampLevel(level: number | undefined): number {
  return level === undefined || !Number.isFinite(level) ? 1 : Math.min(6, Math.max(1, Math.round(level)));
}

/** The document's normalised text: its non-empty blocks joined by a blank line. Chunk offsets point into it. */
export function documentText(doc: ParsedDocument): string {
  return normalizeDocument(doc)
    .blocks.map((b) => b.text)
    .join(BLOCK_SEPARATOR);
}

/** SHA-256 (hex) of the text with whitespace normalised: the same words in another layout hash alike. */
export function contentHash(text: string): string {
  return createHash('sha256').update(inlineText(text), 'utf8').digest('hex');
}

/** A block with its offset in the document text. */
interface PlacedBlock {
  kind: DocumentBlock['kind'];
  text: string;
  level: number;
  start: number;
}

interface Section {
  heading: PlacedBlock | null;
  level: number;
  path: string[];
  body: PlacedBlock[];
}

/** A contiguous range of the document text that the packer may put in a chunk. */
interface Unit {
  start: number;
  end: number;
  /** False for the second and later pieces of one block: they always open a chunk (they overlap, or are not separated by a blank line). */
  joinable: boolean;
}

/**
 * Cuts a parsed document into semantic-node drafts, following its structure:
 * - a heading opens a new section and a chunk never spans two sections; every chunk carries the
 *   section's heading path, and the section's first chunk starts with the heading's text. A heading
 *   directly followed by a sub-heading has no chunk of its own (its text lives in its children's paths);
 * - consecutive blocks of a section (paragraphs, lists, tables, code) are packed up to `maxChars`;
 * - a list, table or code block is kept whole when it fits, otherwise split between items, rows or lines;
 * - an over-long paragraph (or list item, row, line) is split at sentence boundaries, then at word
 *   boundaries, then anywhere, each piece repeating up to `overlapChars` of the previous one.
 * Every chunk is non-empty, at most `maxChars` long, and equal to `documentText(doc).slice(charStart, charEnd)`.
 * Deterministic: the same document and options always give the same drafts.
 */
export function chunkDocument(doc: ParsedDocument, options: Partial<ChunkOptions> = {}): SemanticNodeDraft[] {
  const { maxChars, overlapChars } = resolveOptions(options);
  const normalized = normalizeDocument(doc);
  const text = normalized.blocks.map((b) => b.text).join(BLOCK_SEPARATOR);
  const sections = toSections(normalized.blocks);

  const drafts: SemanticNodeDraft[] = [];
  const emit = (start: number, end: number, path: string[]): void => {
    drafts.push({ position: drafts.length, text: text.slice(start, end), headingPath: [...path], charStart: start, charEnd: end });
  };

  sections.forEach((section, i) => {
    if (section.body.length === 0) {
      const next = sections[i + 1];
      if (next && next.level > section.level) return;
    }
    const units = sectionUnits(section, maxChars, overlapChars);
    let open: Unit[] = [];
    for (const unit of units) {
      if (open.length > 0 && (!unit.joinable || unit.end - open[0].start > maxChars)) {
        emit(open[0].start, open[open.length - 1].end, section.path);
        open = [];
      }
      open.push(unit);
    }
    if (open.length > 0) emit(open[0].start, open[open.length - 1].end, section.path);
  });
  return drafts;
}

function resolveOptions(options: Partial<ChunkOptions>): ChunkOptions {
  const maxChars = options.maxChars ?? DEFAULT_CHUNK_OPTIONS.maxChars;
  const overlapChars = options.overlapChars ?? DEFAULT_CHUNK_OPTIONS.overlapChars;
  if (!Number.isInteger(maxChars) || maxChars < 20) {
    throw new DomainError('internal', 'REPOSITORY.INVALID_CHUNK_OPTIONS', `maxChars must be an integer of at least 20 (got ${maxChars}).`);
  }
  if (!Number.isInteger(overlapChars) || overlapChars < 0 || overlapChars > maxChars / 2) {
    throw new DomainError('internal', 'REPOSITORY.INVALID_CHUNK_OPTIONS', `overlapChars must be an integer from 0 to maxChars / 2 (got ${overlapChars}).`);
  }
  return { maxChars, overlapChars };
}

function toSections(blocks: DocumentBlock[]): Section[] {
  const sections: Section[] = [];
  const headings: { level: number; text: string }[] = [];
  let current: Section = { heading: null, level: 0, path: [], body: [] };
  let offset = 0;
  for (const block of blocks) {
    const placed: PlacedBlock = { kind: block.kind, text: block.text, level: block.level ?? 0, start: offset };
    offset += block.text.length + BLOCK_SEPARATOR.length;
    if (block.kind !== 'heading') {
      current.body.push(placed);
      continue;
    }
    if (current.heading !== null || current.body.length > 0) sections.push(current);
    while (headings.length > 0 && headings[headings.length - 1].level >= placed.level) headings.pop();
    headings.push({ level: placed.level, text: placed.text });
    current = { heading: placed, level: placed.level, path: headings.map((h) => h.text), body: [] };
  }
  if (current.heading !== null || current.body.length > 0) sections.push(current);
  return sections;
}

function sectionUnits(section: Section, maxChars: number, overlapChars: number): Unit[] {
  const units: Unit[] = [];
  let firstBudget = maxChars;
  const heading = section.heading;
  if (heading !== null) {
    if (heading.text.length <= maxChars) {
      units.push({ start: heading.start, end: heading.start + heading.text.length, joinable: true });
      // Keep room after the heading so the section's first content joins it in the first chunk.
      const room = maxChars - heading.text.length - BLOCK_SEPARATOR.length;
      if (room >= Math.max(20, Math.floor(maxChars / 4))) firstBudget = room;
    } else {
      units.push(...shift(splitText(heading.text, maxChars, maxChars, 0), heading.start));
    }
  }
  section.body.forEach((block, i) => units.push(...blockUnits(block, i === 0 ? firstBudget : maxChars, maxChars, overlapChars)));
  return units;
}

function blockUnits(block: PlacedBlock, firstBudget: number, maxChars: number, overlapChars: number): Unit[] {
  if (block.text.length <= firstBudget) return [{ start: block.start, end: block.start + block.text.length, joinable: true }];
  const local = block.kind === 'paragraph' ? splitText(block.text, firstBudget, maxChars, overlapChars) : splitLines(block.text, firstBudget, maxChars, overlapChars);
  return shift(local, block.start);
}

function shift(ranges: [number, number][], offset: number): Unit[] {
  return ranges.map(([start, end], i) => ({ start: start + offset, end: end + offset, joinable: i === 0 }));
}

/**
 * Groups whole lines (list items, table rows, code lines) up to the budget; a line longer than the
 * budget is split like a paragraph. Ranges never start or end on a blank line.
 */
function splitLines(text: string, firstBudget: number, maxChars: number, overlapChars: number): [number, number][] {
  const ranges: [number, number][] = [];
  const budget = (): number => (ranges.length === 0 ? firstBudget : maxChars);
  let group: [number, number] | null = null;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    if (lineEnd > lineStart) {
      if (group !== null && lineEnd - group[0] <= budget()) {
        group[1] = lineEnd;
      } else {
        if (group !== null) ranges.push(group);
        group = null;
        const contentStart = skipSpaces(text, lineStart);
        if (lineEnd - contentStart <= budget()) {
          group = [contentStart, lineEnd];
        } else {
          const line = text.slice(lineStart, lineEnd);
          for (const [s, e] of splitText(line, budget(), maxChars, overlapChars)) ranges.push([s + lineStart, e + lineStart]);
        }
      }
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  if (group !== null) ranges.push(group);
  return ranges;
}

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);

/**
 * Splits one line of text into pieces of at most `firstBudget` (first piece) or `budget` characters,
 * cutting after a sentence when one ends in the second half of the piece, else after a word, else
 * anywhere (never inside a surrogate pair). Each piece after the first starts up to `overlap`
 * characters before the previous piece's end, at a sentence start if there is one there, else at a
 * word start. Requires `overlap < budget`, which guarantees progress.
 */
function splitText(text: string, firstBudget: number, budget: number, overlap: number): [number, number][] {
  const pieces: [number, number][] = [];
  let start = skipSpaces(text, 0);
  let previousEnd = 0;
  while (start < text.length) {
    const size = pieces.length === 0 ? firstBudget : budget;
    const limit = start + size;
    const end = limit >= text.length ? trimEnd(text, text.length) : breakBefore(text, start, Math.max(start, previousEnd), limit, size);
    pieces.push([start, end]);
    previousEnd = end;
    const rest = skipSpaces(text, end);
    if (rest >= text.length) break;
    start = overlap > 0 ? overlapStart(text, start, end, overlap) ?? rest : rest;
  }
  return pieces;
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

function trimEnd(text: string, to: number): number {
  let i = to;
  while (i > 0 && isSpace(text[i - 1])) i--;
  return i;
}

/** True when a piece may end at `end` (exclusive) because a sentence ends there. */
function isSentenceEnd(text: string, end: number): boolean {
  if (!isSpace(text[end])) return false;
  let i = end - 1;
  while (i >= 0 && CLOSING.test(text[i])) i--;
  if (i < 0 || !SENTENCE_END.test(text[i])) return false;
  // "e.g. the", "approx. ten": a full stop followed by a lower-case word rarely ends a sentence.
  const next = text[skipSpaces(text, end)];
  return next === undefined || !LOWERCASE.test(next);
}

/** The best end in (floor, limit] for a piece starting at `start`. */
function breakBefore(text: string, start: number, floor: number, limit: number, size: number): number {
  const sentenceFloor = Math.max(floor, start + Math.floor(size / 2));
  for (let end = limit; end > sentenceFloor; end--) {
    if (!isSpace(text[end - 1]) && isSentenceEnd(text, end)) return end;
  }
  for (let end = limit; end > floor; end--) {
    if (!isSpace(text[end - 1]) && isSpace(text[end])) return end;
  }
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff && limit - 1 > floor ? limit - 1 : limit;
}

/** Where the piece after [pieceStart, end) starts to repeat about `overlap` characters, or null for no overlap. */
function overlapStart(text: string, pieceStart: number, end: number, overlap: number): number | null {
  const from = Math.max(pieceStart + 1, end - overlap);
  let wordStart: number | null = null;
  for (let i = from; i < end; i++) {
    if (isSpace(text[i]) || (i > 0 && !isSpace(text[i - 1]))) continue;
    if (isSentenceEnd(text, trimEnd(text, i))) return i;
    wordStart ??= i;
  }
  return wordStart;
}
