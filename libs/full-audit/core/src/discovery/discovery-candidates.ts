import { contentStems, fingerprint, foldedWords, signatureBands, signatureCosine } from '@svc/text';
import type { ModelStatement } from './statement-extractor';

/** One document's statements as the model read them, and what the judge's prompt quotes them with. */
export interface DocumentStatements {
  documentId: string;
  documentName: string;
  statements: readonly ModelStatement[];
}

/** A pair of the model's statements of two documents that may not both hold: what the judge is asked about. */
export interface DiscoveryCandidate {
  /** From the two statements only (documents, subject, attribute, values, modality, scope, condition): the same pair has it in every scan. */
  fingerprint: string;
  sides: [CandidateSide, CandidateSide];
}

export interface CandidateSide {
  documentId: string;
  documentName: string;
  statement: ModelStatement;
  /** The statement's span, with the words around it (what the judge reads). */
  context: string;
}

/** How candidates are formed. */
export const DISCOVERY_CANDIDATES = {
  /** A block larger than this (a subject every document states) is compared only through its narrower keys. */
  maxBlockSize: 40,
};

const RULES: Record<ModelStatement['modality'], string> = { must: 'required', must_not: 'forbidden', may: 'permitted', need_not: 'optional', is: 'fact' };

/** Whether two modalities of one rule cannot both hold ("must" and "must not", "must" and "need not", "may" and "must not"). */
function rulesConflict(a: ModelStatement['modality'], b: ModelStatement['modality']): boolean {
  const pair = [RULES[a], RULES[b]].sort().join('|');
  return pair === 'forbidden|required' || pair === 'optional|required' || pair === 'forbidden|permitted';
}

/** The informative stems of a statement's subject (read as English: subjects are short canonical noun phrases). */
const SUBJECT_STEMS = new WeakMap<ModelStatement, ReadonlySet<string>>();
function subjectStems(s: ModelStatement): ReadonlySet<string> {
  let stems = SUBJECT_STEMS.get(s);
  if (!stems) SUBJECT_STEMS.set(s, (stems = new Set(contentStems(s.subject, 'en'))));
  return stems;
}

/**
 * What a statement is keyed by, always with its attribute: its canonical subject; each informative stem of it (its
 * full-text neighbours: "return window" meets "product return window" and "window for returns"); and, when the scan
 * reads the repository's vectors, each band of its passage's signature (its vector neighbours, ADR 0042).
 */
function blockKeys(s: ModelStatement): string[] {
  return [`${s.attribute}|${foldedWords(s.subject).join(' ')}`, ...[...subjectStems(s)].map((stem) => `${s.attribute}|~${stem}`), ...(s.signature ? signatureBands(s.signature).map((band) => `${s.attribute}|${band}`) : [])];
}

/** Two statements met through a narrower key are about one subject when their subjects share this share of their stems. */
const MIN_SUBJECT_OVERLAP = 0.5;

/** Whether two statements of one attribute are about one subject: one canonical subject, subjects that share most of their stems, or passages that are vector neighbours. */
function sameSubject(a: ModelStatement, b: ModelStatement, vectorBand: { min: number; max: number } | null): boolean {
  if (foldedWords(a.subject).join(' ') === foldedWords(b.subject).join(' ')) return true;
  const [x, y] = [subjectStems(a), subjectStems(b)];
  const shared = [...x].filter((stem) => y.has(stem)).length;
  if (shared > 0 && shared / Math.min(x.size, y.size) >= MIN_SUBJECT_OVERLAP && shared / Math.max(x.size, y.size) >= MIN_SUBJECT_OVERLAP) return true;
  if (!vectorBand || !a.signature || !b.signature) return false;
  const cosine = signatureCosine(a.signature, b.signature);
  return cosine >= vectorBand.min && cosine < vectorBand.max;
}

const norm = (text: string | null) => (text ? foldedWords(text).join(' ') : '');

/** The identity of a statement within a pair's fingerprint: its document and what it states. */
function sideKey(documentId: string, s: ModelStatement): string {
  return [documentId, s.attribute, foldedWords(s.subject).join(' '), s.valueKey, s.modality, norm(s.scope), norm(s.condition)].join('|');
}

/**
 * The candidate pairs among the model's statements (issue 24 item 3, ANALYSIS.md §4 step 2), pure: statements of
 * different documents of one attribute, blocked on their canonical subject, its stems (full-text neighbours) and
 * their passages' vector signatures (`vectorBand`: vector neighbours, when the scan reads vectors), about one
 * subject (`sameSubject`), whose values differ (compared by canonical key: "2 p.m." and "14:00" are
 * one) or whose rules conflict, for the same scope and condition (a general rule and a special case are not a
 * candidate). With `touching`, only pairs with a statement of those documents. Each pair once, in a stable order.
 */
export function discoveryCandidates(
  documents: readonly DocumentStatements[],
  options: { touching?: ReadonlySet<string> | null; vectorBand?: { min: number; max: number } | null } = {},
): DiscoveryCandidate[] {
  const blocks = new Map<string, { document: DocumentStatements; statement: ModelStatement }[]>();
  for (const document of documents) {
    for (const statement of document.statements) {
      for (const key of blockKeys(statement)) {
        const list = blocks.get(key);
        if (list) list.push({ document, statement });
        else blocks.set(key, [{ document, statement }]);
      }
    }
  }
  const found = new Map<string, DiscoveryCandidate>();
  for (const members of blocks.values()) {
    if (members.length < 2 || members.length > DISCOVERY_CANDIDATES.maxBlockSize) continue;
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        const [x, y] = [members[i], members[j]];
        if (x.document.documentId === y.document.documentId) continue;
        if (options.touching && !options.touching.has(x.document.documentId) && !options.touching.has(y.document.documentId)) continue;
        const [a, b] = [x.statement, y.statement];
        if (!sameSubject(a, b, options.vectorBand ?? null)) continue;
        if (norm(a.scope) !== norm(b.scope) || norm(a.condition) !== norm(b.condition)) continue;
        const rules = a.modality !== 'is' || b.modality !== 'is';
        const differ = a.valueKey !== b.valueKey || (rules && rulesConflict(a.modality, b.modality));
        if (!differ) continue;
        const sides = [x, y]
          .map(({ document, statement }) => ({ key: sideKey(document.documentId, statement), side: { documentId: document.documentId, documentName: document.documentName, statement, context: statement.context ?? statement.span } }))
          .sort((p, q) => (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));
        const id = fingerprint(`discovery|${sides[0].key}||${sides[1].key}`);
        if (!found.has(id)) found.set(id, { fingerprint: id, sides: [sides[0].side, sides[1].side] });
      }
    }
  }
  return [...found.values()].sort((p, q) => (p.fingerprint < q.fingerprint ? -1 : p.fingerprint > q.fingerprint ? 1 : 0));
}
