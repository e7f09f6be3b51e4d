import { createHash } from 'node:crypto';
import { HTML_ENTITIES } from './html-entities';

/**
 * Elements whose content is not part of the document's text (the head and its title, code, chrome, widgets),
 * removed with their content, as the HTML parser drops them: the Markdown copy of a page has none of it.
 */
const HIDDEN_ELEMENT = /<(head|title|script|style|noscript|template|svg|nav|footer|iframe|object|canvas|button|select|textarea)(?:\s[^<>]*)?>/gi;
/** Elements that flow inside a line of text (the HTML parser's inline elements but `br`): they change how words look, not where they break. */
const INLINE_TAG =
  /<\/?(?:a|abbr|acronym|b|bdi|bdo|big|cite|code|data|del|dfn|em|font|i|img|input|ins|kbd|label|mark|math|meter|nobr|output|progress|q|rp|rt|ruby|s|samp|small|span|strike|strong|sub|sup|time|tt|u|var|wbr)(?:\s[^<>]*)?\/?>/gi;
/** Any other element, comment or declaration: a block boundary, so it separates words. */
const OTHER_TAG = /<!--[\s\S]*?-->|<![a-z][^<>]*>|<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi;
const AUTOLINK = /<((?:https?|ftp|mailto):[^<>\s]+)>/gi;
/** Numeric references and names (case-sensitive, as in HTML: `&Eacute;` is not `&eacute;`). */
const ENTITY = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g;

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
/** `[text](url "title")`, `[text][ref]`: the text stays, the target goes; an image `![alt](url)` goes whole, as its `<img>` does. */
const LINK = /!?\[([^\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)|!?\[([^\]\n]+)\]\[[^\]\n]*\]/g;
/**
 * Emphasis and code marks: every `*`, backtick and `~~`, and `_` runs that do not sit inside a word (CommonMark
 * reads `snake_case` literally), escaped or not: the same star written in HTML, or parsed out of `\*`, reads as
 * a mark here, so an escaped one must too. Table pipes are handled apart: they separate cells.
 */
const EMPHASIS = /\\?(?:[*`]+|~~+)|(?<![\p{L}\p{N}])\\_+|(?<![\\\p{L}\p{N}])_+|\\?_+(?![\p{L}\p{N}])/gu;
/** A table pipe, escaped or not: the parsers write a row as `cell | cell`, so a cell's own `\|` cannot be told from a separator anyway. */
const TABLE_PIPE = /\\?\|/g;
/** A backslash escape (the character stays) or a backslash hard line break (the break stays, as `<br>` leaves a space). */
const ESCAPE = /\\(?:([!-/:-@[-`{-~])|(?=\n|$))/g;
/** Characters that take no room: zero-width spaces and joiners, direction marks, word joiner, byte-order mark, soft hyphen. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u2060\ufeff]/g;
/**
 * Typographic quotes and dashes, in the plain spelling a Markdown file uses for them (`'`, `"`, `-`; `--` and
 * `---` are what typographers turn into en and em dashes): an editor or converter's "smart" punctuation
 * (`&rsquo;`, `&mdash;`) is a way of writing the same text.
 */
const SINGLE_QUOTE = /[\u2018\u2019\u201a\u201b]/g;
const DOUBLE_QUOTE = /[\u201c-\u201f]/g;
const DASH = /[\u2010-\u2015\u2212]|-{2,}/g;
const SPACE_BEFORE_CLOSING = / (?=[.,;:!?%)\]}])/g;
const SPACE_AFTER_OPENING = /([([{]) /g;

/**
 * The text a person reads, in one canonical spelling, so that two files holding the same words in the same
 * order compare equal whatever their encoding, case, markup or layout: a page and its Markdown source, or a
 * document exported to HTML and to Markdown, give one text.
 * - HTML removed first, in the text's own case: tags and comments; the head, title, scripts, styles,
 *   navigation, footers and widgets with their content (the HTML parser keeps none of them); images; every
 *   HTML 4 named entity and numeric references decoded (`&eacute;` and "é" are one letter);
 * - Unicode NFKC (full-width forms, ligatures, non-breaking spaces), then lower case with the two full case
 *   foldings lower-casing misses (ß → ss, final ς → σ). Accents are kept: folding them away would make
 *   "pêche" and "peche", "résumé" and "resume" one word, and two documents that differ by them one content;
 * - Markdown removed: headings, emphasis, code marks and fences, block quotes, list bullets and numbers
 *   (renumbering a list does not change it), task boxes, table pipes and separator rows, rules, link targets
 *   (`[x](url)` → "x"), images (alt text included, as for `<img>`), escapes (an escaped emphasis mark goes like any) and backslash line breaks;
 * - typographic quotes and dashes in their plain spelling (’ → ', “ ” → ", – — and `--` → -);
 * - whitespace collapsed to single spaces and trimmed, and none before closing or after opening
 *   punctuation, so that "**Note**: x" and "Note: x" agree once the emphasis is gone.
 * Other punctuation and symbols stay: "-5 °C" and "5 °C", "10 %" and "10" are different contents.
 */
export function canonicalText(text: string): string {
  let s = text;
  // Each pass below is skipped when its trigger character is absent: most documents are plain Markdown.
  if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
  if (s.includes('<')) s = removeHiddenElements(s).replace(AUTOLINK, '$1').replace(INLINE_TAG, '').replace(OTHER_TAG, ' ');
  if (s.includes('&')) s = s.replace(ENTITY, decodeEntity);
  s = s.normalize('NFKC').toLowerCase();
  if (s.includes('ß') || s.includes('ς')) s = s.replace(/[ßς]/g, (c) => (c === 'ß' ? 'ss' : 'σ'));
  s = s.replace(MARKUP_LINE, '');
  if (ORDERED_ITEM_ANYWHERE.test(s)) s = removeListNumbers(s);
  s = s.replace(LINE_PREFIX, '').replace(HEADING_CLOSE, '');
  if (s.includes('[')) s = s.replace(LINK, (m: string, inline: string | undefined, reference: string | undefined) => (m.startsWith('!') ? '' : (inline ?? reference ?? '')));
  if (s.includes('|')) s = s.replace(TABLE_PIPE, ' ');
  s = s.replace(EMPHASIS, '');
  if (s.includes('\\')) s = s.replace(ESCAPE, '$1');
  s = s.replace(SINGLE_QUOTE, "'").replace(DOUBLE_QUOTE, '"').replace(DASH, '-');
  // A run of two or more white spaces, or one that is not a plain space (about three times faster than \s+).
  s = s.replace(INVISIBLE, '').replace(/\s{2,}|[^\S ]/g, ' ');
  return s.replace(SPACE_BEFORE_CLOSING, '').replace(SPACE_AFTER_OPENING, '$1').trim();
}

/**
 * Removes the elements whose content is not text ({@link HIDDEN_ELEMENT}), up to their closing tag. One whose
 * closing tag is missing is left to the tag passes (its tag goes, its text stays), and so is every later one of
 * that name: the text is scanned once, whatever it holds.
 */
function removeHiddenElements(text: string): string {
  const unclosed = new Set<string>();
  let kept = '';
  let from = 0;
  HIDDEN_ELEMENT.lastIndex = 0;
  for (let open = HIDDEN_ELEMENT.exec(text); open !== null; open = HIDDEN_ELEMENT.exec(text)) {
    const name = open[1].toLowerCase();
    if (open[0].endsWith('/>') || unclosed.has(name)) continue;
    const close = new RegExp(`</${name}\\s*>`, 'gi');
    close.lastIndex = HIDDEN_ELEMENT.lastIndex;
    const end = close.exec(text);
    if (end === null) {
      unclosed.add(name);
      continue;
    }
    kept += `${text.slice(from, open.index)} `;
    from = end.index + end[0].length;
    HIDDEN_ELEMENT.lastIndex = from;
  }
  return from === 0 ? text : kept + text.slice(from);
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
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  // HTML5 also reads a few names in capitals (`&AMP;`, `&COPY;`); lower case is their spelling here.
  return HTML_ENTITIES.get(name) ?? HTML_ENTITIES.get(name.toLowerCase()) ?? whole;
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
