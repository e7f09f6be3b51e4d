import type { AnswerGroup, DetectedConflict, ExtractedAnswer, Passage, QuestionAnalysis } from './question-analysis.types';

/** Tuning of the decision (set by hand on tools/eval, see EXTRACTION). */
export const DECISION = {
  /** An answer below this confidence is not evidence. */
  minConfidence: 0.5,
  /** Each side of a conflict needs one answer at least this sure. */
  minGroupConfidence: 0.55,
  /** Named answers whose key stems overlap this much (Jaccard), or one within the other, say the same. */
  namedSimilarity: 0.5,
};

/**
 * Groups the answers and decides (ANALYSIS.md §2 steps 5–7). Answers compare only within one scope
 * (answers for "Paris, London" never contradict answers in general); equal canonical keys form a group
 * (named answers: overlapping content words). A scope with two or more groups, each with a sure
 * enough answer, stated by different documents, is a conflict: `CONFLICTS`. Answers without
 * disagreement: `NO_CONFLICT`. No answer: `REFUSED`. Each conflict carries a fingerprint of the
 * question, the scope and the groups' keys, stable while the documents say the same things.
 */
export function decideQuestion(questionId: string, answers: readonly ExtractedAnswer[], passages: readonly Passage[] = []): QuestionAnalysis {
  const usable = answers.filter((a) => a.confidence >= DECISION.minConfidence);
  if (usable.length === 0) return { outcome: 'REFUSED', groups: [], conflicts: [] };
  const byScope = new Map<string, ExtractedAnswer[]>();
  for (const a of usable) {
    const key = a.scope.join(' ');
    byScope.set(key, [...(byScope.get(key) ?? []), a]);
  }
  const groups: AnswerGroup[] = [];
  const conflicts: DetectedConflict[] = [];
  for (const [scopeKey, scoped] of [...byScope].sort(([a], [b]) => a.localeCompare(b))) {
    const scopeGroups = groupAnswers(scoped);
    groups.push(...scopeGroups);
    const sides = scopeGroups.filter((g) => Math.max(...g.answers.map((a) => a.confidence)) >= DECISION.minGroupConfidence);
    if (sides.length < 2 || !fromDifferentDocuments(sides)) continue;
    const scope = scopeKey === '' ? [] : scopeKey.split(' ');
    conflicts.push({
      scope,
      groups: sides,
      fingerprint: fingerprint([questionId, scopeKey, ...sides.map((g) => g.key).sort()].join('\u0001')),
      newestDocumentId: newestDocument(sides, passages),
    });
  }
  return { outcome: conflicts.length > 0 ? 'CONFLICTS' : 'NO_CONFLICT', groups, conflicts };
}

/** Answers that say the same, largest group first (then by key, so the order is stable). */
export function groupAnswers(answers: readonly ExtractedAnswer[]): AnswerGroup[] {
  const groups: { key: string; stems: Set<string>; answers: ExtractedAnswer[] }[] = [];
  const ordered = [...answers].sort((a, b) => b.confidence - a.confidence || a.key.localeCompare(b.key) || a.passageId.localeCompare(b.passageId));
  for (const answer of ordered) {
    const stems = new Set(answer.kind === 'named' ? answer.key.slice('named:'.length).split(' ') : [answer.key]);
    const home = groups.find((g) => (answer.kind === 'named' ? similarNames(g.stems, stems) : g.answers.some((a) => sameValue(a.key, answer.key))));
    if (home) {
      home.answers.push(answer);
      continue;
    }
    groups.push({ key: answer.key, stems, answers: [answer] });
  }
  return groups
    .map((g) => ({ key: g.key, display: g.answers[0].display, answers: g.answers }))
    .sort((a, b) => distinctDocuments(b) - distinctDocuments(a) || a.key.localeCompare(b.key));
}

/**
 * Two keys that say the same: equal; or the values of one sentence read together ("10:00-16:00+14:00")
 * holding the other's ("10:00-16:00"), which that sentence says too; or a day of a month without a year
 * ("by 31 March") against the same day of a given year ("by 31 March 2026"). Compared with every answer
 * of a group, so the grouping does not depend on which answer came first.
 */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const [pa, pb] = [a.split('+'), b.split('+')];
  const [small, large] = pa.length <= pb.length ? [pa, pb] : [pb, pa];
  return small.every((k) => large.some((l) => samePart(k, l)));
}

/** One value key against another: equal, or one year-less and the other the same day of some year. */
function samePart(a: string, b: string): boolean {
  return a === b || (a.includes('XXXX') !== b.includes('XXXX') && anyYear(a) === anyYear(b));
}

/** A date key with its year replaced as a year-less one writes it (`…:2026-03-31` → `…:XXXX-03-31`), when it has a day. */
function anyYear(key: string): string {
  return key.replace(/\b\d{4}(-\d{2}-\d{2})\b/gu, 'XXXX$1');
}

function similarNames(a: Set<string>, b: Set<string>): boolean {
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  if (shared === 0) return false;
  if (shared === Math.min(a.size, b.size)) return true;
  return shared / (a.size + b.size - shared) >= DECISION.namedSimilarity;
}

function distinctDocuments(group: AnswerGroup): number {
  return new Set(group.answers.map((a) => a.documentId)).size;
}

/** At least two sides hold a document the other side does not: one document alone does not make a conflict. */
function fromDifferentDocuments(sides: AnswerGroup[]): boolean {
  const documents = sides.map((g) => new Set(g.answers.map((a) => a.documentId)));
  const all = new Set(documents.flatMap((d) => [...d]));
  return all.size >= 2 && documents.filter((d) => [...d].some((id) => documents.some((other) => other !== d && !other.has(id)))).length >= 2;
}

/** The conflict's newest document, when the documents' dates (or a year in their names) tell one apart. */
function newestDocument(sides: AnswerGroup[], passages: readonly Passage[]): string | undefined {
  const ids = new Set(sides.flatMap((g) => g.answers.map((a) => a.documentId)));
  const dated = [...ids]
    .map((id) => ({ id, date: dateOf(passages.find((p) => p.documentId === id)) }))
    .filter((d): d is { id: string; date: string } => d.date !== undefined)
    .sort((a, b) => b.date.localeCompare(a.date));
  if (dated.length < 2 || dated[0].date === dated[1].date) return undefined;
  return dated[0].id;
}

function dateOf(passage: Passage | undefined): string | undefined {
  if (!passage) return undefined;
  if (passage.documentDate) return passage.documentDate;
  const year = /(?:^|\D)((?:19|20)\d{2})(?:\D|$)/u.exec(passage.documentName ?? '');
  return year ? `${year[1]}-01-01` : undefined;
}

/** A short stable hash (two 32-bit FNV-1a variants, hex): equal inputs, equal fingerprints. */
export function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
    b ^= b >>> 15;
  }
  return a.toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
