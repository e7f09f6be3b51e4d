import { createHash } from 'node:crypto';

/** Code spans, strong and emphasis: HTML elements that change how words look, not where they break. */
const INLINE_TAG =
  /<\/?(?:a|abbr|b|bdi|bdo|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|time|tt|u|var)(?:\s[^<>]*)?>/g;
/** Any other element, comment or declaration: a block boundary, so it separates words. */
const OTHER_TAG = /<!--[\s\S]*?-->|<![a-z][^<>]*>|<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/g;
const AUTOLINK = /<((?:https?|ftp|mailto):[^<>\s]+)>/g;
const ENTITY = /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos|nbsp);/g;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Whole lines that are only markup: code fences, link reference definitions, rules, table separator rows, setext underlines. */
const MARKUP_LINE =
  /^[ \t]*(?:(?:```|~~~).*|\[[^\]\n]+\]:[ \t]+\S.*|=+|[-*_](?:[ \t]*[-*_]){2,}|\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?)[ \t]*$/gm;
/** Line prefixes: ATX heading marks, block quotes, list bullets, task boxes. */
const LINE_PREFIX = /^[ \t]*(?:#{1,6}(?=[ \t]|$)|(?:>[ \t]?)+|[-*+•▪◦‣](?=[ \t])(?:[ \t]+\[[ x]\](?=[ \t]))?)/gm;
/** A numbered list item's number ("3. ", "12) "), with what precedes it on its line. */
const ORDERED_ITEM = /^([ \t]*)(\d{1,9})[.)](?=[ \t])/;
const ORDERED_ITEM_ANYWHERE = /^[ \t]*\d{1,9}[.)][ \t]/m;
const BULLET_LINE = /^[ \t]*[-*+•▪◦‣][ \t]/;
/** Closing marks of an ATX heading ("## Title ##"). */
const HEADING_CLOSE = /[ \t]+#+[ \t]*$/gm;
/** `![alt](url)`, `[text](url "title")`, `[text][ref]`: the text stays, the target goes. */
const LINK = /!?\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)|!?\[([^\]\n]+)\]\[[^\]\n]*\]/g;
/**
 * Emphasis and code marks: every unescaped `*`, backtick and `~~`, and `_` runs that do not sit inside a
 * word (CommonMark reads `snake_case` literally). Table pipes are handled apart: they separate cells.
 */
const EMPHASIS = /(?<!\\)(?:[*`]+|~~+)|(?<![\\\p{L}\p{N}])_+|(?<!\\)_+(?![\p{L}\p{N}])/gu;
const TABLE_PIPE = /(?<!\\)\|/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** Characters that take no room: zero-width spaces and joiners, word joiner, byte-order mark, soft hyphen. */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
const SPACE_BEFORE_CLOSING = / (?=[.,;:!?%)\]}])/g;
const SPACE_AFTER_OPENING = /([([{]) /g;

/**
 * The text a person reads, in one canonical spelling, so that two files holding the same words in the same
 * order compare equal whatever their encoding, case, markup or layout:
 * - Unicode NFKC (full-width forms, ligatures, non-breaking spaces), then lower case with the two full case
 *   foldings lower-casing misses (ß → ss, final ς → σ). Accents are kept: folding them away would make
 *   "pêche" and "peche", "résumé" and "resume" one word, and two documents that differ by them one content;
 * - markup removed: HTML tags, comments and entities; Markdown headings, emphasis, code marks and fences,
 *   block quotes, list bullets and numbers (renumbering a list does not change it), table pipes and
 *   separator rows, rules, link targets (`[x](url)` → "x") and escapes;
 * - whitespace collapsed to single spaces and trimmed, and none before closing or after opening
 *   punctuation, so that "**Note**: x" and "Note: x" agree once the emphasis is gone.
 * Punctuation and symbols stay: "-5 °C" and "5 °C", "10 %" and "10" are different contents.
 */
export function canonicalText(text: string): string {
  let s = text.normalize('NFKC').toLowerCase();
  // Each pass below is skipped when its trigger character is absent: most documents are plain Markdown.
  if (s.includes('ß') || s.includes('ς')) s = s.replace(/[ßς]/g, (c) => (c === 'ß' ? 'ss' : 'σ'));
  if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
  if (s.includes('<')) s = s.replace(AUTOLINK, '$1').replace(INLINE_TAG, '').replace(OTHER_TAG, ' ');
  if (s.includes('&')) s = s.replace(ENTITY, decodeEntity);
  s = s.replace(MARKUP_LINE, '');
  if (ORDERED_ITEM_ANYWHERE.test(s)) s = removeListNumbers(s);
  s = s.replace(LINE_PREFIX, '').replace(HEADING_CLOSE, '');
  if (s.includes('[')) s = s.replace(LINK, (_m, inline: string | undefined, reference: string | undefined) => inline ?? reference ?? '');
  if (s.includes('|')) s = s.replace(TABLE_PIPE, ' ');
  s = s.replace(EMPHASIS, '');
  if (s.includes('\\')) s = s.replace(ESCAPE, '$1');
  // A run of two or more white spaces, or one that is not a plain space (about three times faster than \s+).
  s = s.replace(INVISIBLE, '').replace(/\s{2,}|[^\S ]/g, ' ');
  return s.replace(SPACE_BEFORE_CLOSING, '').replace(SPACE_AFTER_OPENING, '$1').trim();
}

/**
 * Removes the numbers of numbered list items, so that renumbering a list or turning it into bullets changes
 * nothing. As in CommonMark, a line starting with "2018. " only starts an item after a blank line, another
 * item or when its number is 1: a paragraph hard-wrapped before "2018." keeps its year.
 */
function removeListNumbers(text: string): string {
  const lines = text.split('\n');
  let previousIsItemOrBlank = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const item = ORDERED_ITEM.exec(line);
    let isItem = false;
    if (item !== null && (previousIsItemOrBlank || Number(item[2]) === 1)) {
      lines[i] = item[1] + line.slice(item[0].length);
      isItem = true;
    }
    previousIsItemOrBlank = isItem || line.trim() === '' || BULLET_LINE.test(line);
  }
  return lines.join('\n');
}

function decodeEntity(whole: string, name: string): string {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return NAMED_ENTITIES[name] ?? whole;
}

/**
 * The SHA-256 (hex) of the canonical text: equal for exact duplicates, whatever their bytes. Pass text that
 * is already canonical with `{ canonical: true }` to skip canonicalising it again.
 */
export function canonicalHash(text: string, options: { canonical?: boolean } = {}): string {
  return createHash('sha256')
    .update(options.canonical ? text : canonicalText(text), 'utf8')
    .digest('hex');
}
