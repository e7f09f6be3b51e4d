import { foldedWords } from '../fold';
import { detectLanguage } from '../language';
import { extractValues, TypedValue } from '../values';
import type { DraftRecommendation, ExtractedAnswer, Passage } from './question-analysis.types';

/**
 * Time model of a recommendation (ANALYSIS.md §3), in seconds: reading the excerpt at 200 words a
 * minute, then 20 s to confirm a KEEP, 45 s plus 2 s a changed word to make an UPDATE, 60 s to retire
 * a superseded document (DELETE). Rounded to 5 s.
 */
export const EDIT_TIME = { wordsPerMinute: 200, keep: 20, update: 45, perChangedWord: 2, delete: 60 };

export function estimateEditSeconds(action: DraftRecommendation['action'], excerpt: string, proposed: string | null): number {
  const reading = (foldedWords(excerpt).length / EDIT_TIME.wordsPerMinute) * 60;
  let editing = action === 'KEEP' ? EDIT_TIME.keep : action === 'DELETE' ? EDIT_TIME.delete : EDIT_TIME.update;
  if (action === 'UPDATE' && proposed !== null) editing += EDIT_TIME.perChangedWord * changedWords(excerpt, proposed);
  return Math.max(5, Math.round((reading + editing) / 5) * 5);
}

function changedWords(before: string, after: string): number {
  const a = foldedWords(before);
  const b = new Set(foldedWords(after));
  return Math.max(1, a.filter((w) => !b.has(w)).length);
}

/** Documents named as an old edition: a version 1, a year before the newest, "old", "archive", "copy". */
const OLD_EDITION = /(?:^|[^a-z0-9])(?:v1|v0|old|archive|archived|copy|obsolete|deprecated|draft|ancien|ancienne|copie)(?:[^a-z0-9]|$)/iu;

/**
 * What each document of a conflict should do once an expert has answered (ANALYSIS.md §3), rule-based:
 * `KEEP` when its answer says what the expert says (same canonical value, or, for named and yes/no
 * answers, the expert's words); `UPDATE` with the excerpt rewritten to state the expert's value (the value
 * span replaced, the rest verbatim; the expert's sentence when no value can be placed); `DELETE` when the
 * document is a superseded copy of one that keeps: older by its date or name, and its excerpt the same
 * text as the kept one's but for the value.
 */
export function draftRecommendations(expertAnswer: string, answers: readonly ExtractedAnswer[], passages: readonly Passage[]): DraftRecommendation[] {
  const answer = expertAnswer.trim();
  const language = detectLanguage(`${answer} ${answers.map((a) => a.text).join(' ')}`);
  const expertValues = extractValues(answer, language);
  const byDocument = new Map<string, ExtractedAnswer>();
  for (const a of [...answers].sort((x, y) => y.confidence - x.confidence)) if (!byDocument.has(a.documentId)) byDocument.set(a.documentId, a);
  const passageOf = (a: ExtractedAnswer) => passages.find((p) => p.id === a.passageId);

  const drafts = [...byDocument.values()].map((a) => {
    const expertValue = expertValues.find((v) => v.kind === a.kind) ?? (a.kind === 'named' || a.kind === 'yes-no' ? undefined : expertValues[0]);
    const keeps = agrees(a, answer, expertValue, language);
    return { a, expertValue, keeps };
  });
  const kept = drafts.filter((d) => d.keeps);

  return drafts
    .map(({ a, expertValue, keeps }): DraftRecommendation => {
      if (keeps) {
        return draft(a, 'KEEP', null, `It already states the expert's answer (${a.display}).`);
      }
      const passage = passageOf(a);
      const supersededBy = kept.find((k) => isSupersededBy(a, passage, k.a, passageOf(k.a)));
      if (supersededBy) {
        return draft(a, 'DELETE', null, `It is an older copy of "${documentLabel(passageOf(supersededBy.a)) ?? supersededBy.a.documentId}", which already states the expert's answer; it still says ${a.display}.`);
      }
      return draft(a, 'UPDATE', rewrite(a, passage, expertValue, answer), `It says ${a.display}; the expert's answer is ${expertValue?.text ?? answer}.`);
    })
    .sort((x, y) => order(x.action) - order(y.action) || x.documentId.localeCompare(y.documentId));
}

function order(action: DraftRecommendation['action']): number {
  return action === 'UPDATE' ? 0 : action === 'DELETE' ? 1 : 2;
}

function draft(a: ExtractedAnswer, action: DraftRecommendation['action'], proposedText: string | null, reason: string): DraftRecommendation {
  return { documentId: a.documentId, passageId: a.passageId, action, excerpt: a.text, proposedText, reason, estimatedSeconds: estimateEditSeconds(action, a.text, proposedText) };
}

function agrees(a: ExtractedAnswer, answer: string, expertValue: TypedValue | undefined, language: 'en' | 'fr'): boolean {
  if (expertValue) return a.key.split('+').some((k) => k.split('/')[0] === expertValue.key);
  if (a.kind === 'yes-no') {
    const negative = /\b(no|not|never|non|pas|jamais)\b/iu.test(answer);
    return a.key === `yes-no:${negative ? 'no' : 'yes'}`;
  }
  const said = new Set(foldedWords(a.display));
  const words = foldedWords(answer).filter((w) => w.length > 2);
  void language;
  return words.length > 0 && words.filter((w) => said.has(w)).length / words.length >= 0.5;
}

/** The excerpt with the expert's value in place of the one it states; the expert's answer when no value can be placed. */
function rewrite(a: ExtractedAnswer, passage: Passage | undefined, expertValue: TypedValue | undefined, answer: string): string {
  if (passage && expertValue && a.valueStart !== undefined && a.valueEnd !== undefined && a.valueStart >= a.start && a.valueEnd <= a.end) {
    const from = a.valueStart - a.start;
    const to = a.valueEnd - a.start;
    const sentence = passage.text.slice(a.start, a.end);
    const stated = sentence.slice(from, to);
    // Only the first value of the span is replaced when it holds several (days and hours): keep the others.
    const firstValueEnd = extractValues(stated, detectLanguage(sentence))[0]?.end ?? stated.length;
    return sentence.slice(0, from) + expertValue.text + sentence.slice(from + firstValueEnd);
  }
  return answer;
}

function isSupersededBy(a: ExtractedAnswer, passage: Passage | undefined, newer: ExtractedAnswer, newerPassage: Passage | undefined): boolean {
  if (a.documentId === newer.documentId) return false;
  const older = olderThan(passage, newerPassage);
  if (!older) return false;
  return similarText(a.text, newer.text);
}

function olderThan(a: Passage | undefined, b: Passage | undefined): boolean {
  if (!a || !b) return false;
  if (a.documentDate && b.documentDate) return a.documentDate < b.documentDate;
  const label = (p: Passage) => `${p.documentName ?? ''} ${p.documentUrl ?? ''}`;
  const yearA = /(?:19|20)\d{2}/u.exec(label(a))?.[0];
  const yearB = /(?:19|20)\d{2}/u.exec(label(b))?.[0];
  if (yearA && yearB && yearA !== yearB) return yearA < yearB;
  return OLD_EDITION.test(label(a)) && !OLD_EDITION.test(label(b));
}

/** The same sentence but for its figures (Jaccard of words without digits ≥ 0.7). */
function similarText(a: string, b: string): boolean {
  const words = (t: string) => new Set(foldedWords(t).filter((w) => !/\d/u.test(w)));
  const x = words(a);
  const y = words(b);
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.max(1, x.size + y.size - shared) >= 0.7;
}

function documentLabel(p: Passage | undefined): string | undefined {
  return p?.documentName;
}
