import { foldText } from '../fold';
import { detectLanguage, Language } from '../language';
import { contentStems } from '../stem';
import { extractValues, TypedValue, ValueKind } from '../values';
import { segments } from '../answers/segments';
import type { Passage } from '../answers/question-analysis.types';

/**
 * Full-audit claims (ANALYSIS.md §4, first increment: values; polarity and modality flips come next):
 * a statement of one passage that carries a checkable value, with the words that say what it is about.
 */
export interface Claim {
  passageId: string;
  documentId: string;
  /** The sentence or table row, as written, and its offsets in the passage. */
  text: string;
  start: number;
  end: number;
  /** Content stems of the sentence and of the passage's headings, values left out: what the value is about. */
  subject: string[];
  /** What kind of value: the value kind, with the unit or currency ("quantity:Kilogram", "amount:EUR"). */
  attribute: string;
  value: Pick<TypedValue, 'key' | 'text'>;
  /**
   * Proper names the claim is limited to: those of its sentence, and those of its document's name (a
   * product, a site). Claims whose scopes differ never contradict.
   */
  scope: string[];
}

/** Kinds whose values two documents can disagree on; recurrences, bare numbers and year-less dates are left out. */
const CHECKABLE: ReadonlySet<ValueKind> = new Set(['amount', 'percentage', 'duration', 'quantity', 'time-range', 'time']);
/** Reading values is slow (Microsoft's recognizers, ~15 ms a sentence): only sentences with a figure or a number word are read. */
const MAY_HOLD_VALUE = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|a (?:day|week|month|year)|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent)\b/iu;

/**
 * The claims of one passage, read in `language` (default: the passage's own). `names`: the
 * repository's proper names (`properNames`), which limit a claim's scope; `entity`: the proper names of
 * the passage's document name (what the document is about: a product, a site), added to every claim's scope.
 */
export function extractClaims(passage: Passage, options: { language?: Language; names?: ReadonlySet<string>; entity?: readonly string[] } = {}): Claim[] {
  const { language = detectLanguage(passage.text), names = new Set<string>(), entity = [] } = options;
  const segs = segments(passage.text);
  const out: Claim[] = [];
  let heading: string[] = [];
  for (const seg of segs) {
    if (seg.heading) {
      heading = contentStems(seg.text.replace(/^#+\s*/u, ''), language);
      continue;
    }
    if (/\?["'”»)\]]*$/u.test(seg.text) || !MAY_HOLD_VALUE.test(seg.text)) continue;
    const values = extractValues(seg.text, language).filter((v) => CHECKABLE.has(v.kind) && v.comparable);
    if (values.length === 0) continue;
    // The words that say what the values are about: the sentence's, minus the values themselves.
    let bare = seg.text;
    for (const v of [...values].sort((a, b) => b.start - a.start)) bare = `${bare.slice(0, v.start)} ${bare.slice(v.end)}`;
    const subject = [...new Set([...contentStems(bare, language).filter((s) => !/^\d/u.test(s)), ...heading])];
    const scope = [...new Set([...namesOf(bare, names), ...entity])].sort();
    for (const v of values) {
      out.push({ passageId: passage.id, documentId: passage.documentId, text: seg.text, start: seg.start, end: seg.end, subject, attribute: attributeOf(v), value: { key: v.key, text: v.text }, scope });
    }
  }
  return out;
}

/**
 * The proper names of a repository: words written with a capital where a sentence does not start
 * ("the Trailhead 2", "in Paris") and never in lower case. Built once per scan from every text.
 */
export function properNames(texts: Iterable<string>): Set<string> {
  const upper = new Map<string, number>();
  const lower = new Set<string>();
  for (const text of texts) {
    for (const line of text.split('\n')) {
      // Sentence, list item and table cell starts are capitalised whatever the word.
      for (const part of line.replace(/^\s*(?:#+|[-*+]|\d+[.)])\s+/u, '').split(/\||[.!?:;]\s+/u)) {
        const words = part.trim().split(/\s+/u);
        words.forEach((raw, i) => {
          const w = raw.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
          if (w.length < 3) return;
          if (/^\p{Ll}/u.test(w)) lower.add(foldText(w));
          else if (i > 0 && /^\p{Lu}\p{Ll}+$/u.test(w)) upper.set(foldText(w), (upper.get(foldText(w)) ?? 0) + 1);
        });
      }
    }
  }
  return new Set([...upper.keys()].filter((w) => !lower.has(w)));
}

/** The proper names a text holds (see `properNames`). */
export function namesOf(text: string, names: ReadonlySet<string>): string[] {
  return [...new Set(text.split(/[^\p{L}]+/u).filter((w) => /^\p{Lu}/u.test(w)).map((w) => foldText(w)).filter((w) => names.has(w)))].sort();
}

function attributeOf(v: TypedValue): string {
  const [kind, unit] = v.key.split(':');
  if (v.kind === 'quantity' || v.kind === 'amount') return `${kind}:${unit ?? ''}`;
  if (v.kind === 'time') return 'time-range';
  return v.kind;
}
