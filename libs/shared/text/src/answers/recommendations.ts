import { foldedWords } from '../fold';
import type { Language } from '../language';
import { stopwordsOf } from '../stopwords';
import { extractValues, TypedValue } from '../values';
import { AnsweringSpan, answeringSpan, checkRewrite, counterpart, expertValues } from './answering-span';
import type { DraftRecommendation, ExtractedAnswer, Passage } from './question-analysis.types';
import { renderValue, sameReading, statesValue } from './render-value';

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
 * What each document of a conflict should do once an expert has answered (ANALYSIS.md §3), rule-based, one
 * recommendation per document (its surest answer):
 *
 * - `KEEP` when its answering span already states the expert's answer: the same value however written ("two
 *   weeks" and "14 days", a date with or without its year), or, for named and yes/no answers, the expert's words;
 * - `DELETE` when the document is a superseded copy of one that keeps: older by its date or name, and its
 *   excerpt the same text as the kept one's but for the value;
 * - `UPDATE` otherwise. Its `proposedText` is the excerpt with only the answering span rewritten: each value the
 *   expert's answer gives in place of the one the sentence states, written in the sentence's language and form
 *   (`renderValue`), or, for a named answer, the expert's words in place of the name; the rest verbatim, and
 *   checked by `checkRewrite`, which the model-backed writer applies too.
 *
 * When nothing can be placed in the span (the expert's answer holds no value of the span's kind, a value that
 * cannot be written in the sentence's form, a yes/no statement, an answer too long to stand for a name), the
 * draft is an `UPDATE` with `proposedText` null and a reason saying what the expert answered and why the
 * sentence was not rewritten: the document still needs the change, and pasting the bare answer in place of the
 * sentence would lose the rest of it (docs/decisions/0045). An excerpt that does not state the answer it is
 * filed under where it can be read (`answeringSpan`) is not one of the conflict's answers: it gets no draft,
 * never an UPDATE.
 */
export function draftRecommendations(expertAnswer: string, answers: readonly ExtractedAnswer[], passages: readonly Passage[]): DraftRecommendation[] {
  const answer = expertAnswer.trim();
  const byDocument = new Map<string, ExtractedAnswer>();
  for (const a of [...answers].sort((x, y) => y.confidence - x.confidence)) if (!byDocument.has(a.documentId)) byDocument.set(a.documentId, a);
  const passageOf = (a: ExtractedAnswer) => passages.find((p) => p.id === a.passageId);

  const drafts = [...byDocument.values()].flatMap((a) => {
    const passage = passageOf(a);
    const span = answeringSpan(a, passage);
    return span ? [{ a, passage, span, keeps: agrees(a, span, answer) }] : [];
  });
  const kept = drafts.filter((d) => d.keeps);

  return drafts
    .map(({ a, passage, span, keeps }): DraftRecommendation => {
      if (keeps) {
        return draft(a, 'KEEP', null, `It already states the expert's answer (${a.display}).`);
      }
      const supersededBy = kept.find((k) => isSupersededBy(a, passage, k.a, k.passage));
      if (supersededBy) {
        return draft(a, 'DELETE', null, `It is an older copy of "${documentLabel(supersededBy.passage) ?? supersededBy.a.documentId}", which already states the expert's answer; it still says ${a.display}.`);
      }
      const byHand = (why: string) => draft(a, 'UPDATE', null, `It says ${a.display}; the expert's answer is "${answer}". Change it by hand: ${why}.`);
      const rewritten = rewrite(a, span, answer);
      if ('why' in rewritten) return byHand(rewritten.why);
      const checked = checkRewrite(a, rewritten.text, answer, passage);
      if (!checked.ok) return byHand(checked.reason);
      return draft(a, 'UPDATE', rewritten.text, `It says ${a.display}; the expert's answer is ${rewritten.value}.`);
    })
    .sort((x, y) => order(x.action) - order(y.action) || x.documentId.localeCompare(y.documentId));
}

function order(action: DraftRecommendation['action']): number {
  return action === 'UPDATE' ? 0 : action === 'DELETE' ? 1 : 2;
}

function draft(a: ExtractedAnswer, action: DraftRecommendation['action'], proposedText: string | null, reason: string): DraftRecommendation {
  return { documentId: a.documentId, passageId: a.passageId, action, excerpt: a.text, proposedText, reason, estimatedSeconds: estimateEditSeconds(action, a.text, proposedText) };
}

/** Whether the answering span states the expert's answer: each of its values the answer gives, the same; named and yes/no answers by the expert's words. */
function agrees(a: ExtractedAnswer, span: AnsweringSpan, answer: string): boolean {
  if (a.kind === 'yes-no') {
    const negative = /\b(no|not|never|non|pas|jamais)\b/iu.test(answer);
    return a.key === `yes-no:${negative ? 'no' : 'yes'}`;
  }
  if (a.kind === 'named') {
    const said = new Set(foldedWords(a.display));
    // Content words only: "the" shared by "The CFO" and "the finance head" says nothing.
    const words = foldedWords(answer).filter((w) => w.length > 2 && !stopwordsOf(span.language).has(w));
    return words.length > 0 && words.filter((w) => said.has(w)).length / words.length >= 0.5;
  }
  const expert = expertValues(answer, span.language);
  const pairs = span.values.flatMap((stated) => {
    const value = counterpart(stated, expert);
    return value ? [{ stated, value }] : [];
  });
  return pairs.length > 0 && pairs.every(({ stated, value }) => (value.kind === 'number' ? statesValue(stated.text, value, span.language) : sameReading(stated, value)));
}

/**
 * The excerpt with the expert's answer in its answering span, the rest verbatim; or why it cannot be written.
 * Each value of the span the expert's answer gives a counterpart for is written in the sentence's form, else as
 * the expert wrote it when that reads as the same value in the sentence's language.
 */
function rewrite(a: ExtractedAnswer, span: AnsweringSpan, answer: string): { text: string; value: string } | { why: string } {
  if (a.kind === 'yes-no') return { why: 'a yes/no statement is not rewritten automatically, since its wording carries the rule' };
  if (a.kind === 'named') {
    const words = answer.replace(/[.;:!]+$/u, '').trim();
    if (a.text.slice(span.start, span.end).toLowerCase() !== a.display.toLowerCase()) return { why: `the sentence does not write the name it was read as (${a.display})` };
    if (words === '' || words.split(/\s+/u).length > 8) return { why: "the expert's answer is not a name that can stand in place of the one the sentence gives" };
    const before = a.text.slice(0, span.start);
    const name = /(?:^|\s)(?:the|la|le|les|l['’])\s*$/iu.test(before) ? words.replace(/^(?:the|la|le|les|l['’])\s*/iu, '') : before.trim() === '' ? words : words.replace(/^(The|La|Le|Les)(?=\s)/u, (w) => w.toLowerCase());
    return { text: before + name + a.text.slice(span.end), value: words };
  }
  const expert = expertValues(answer, span.language);
  let text = a.text;
  const placed: string[] = [];
  for (const stated of [...span.values].reverse()) {
    const value = counterpart(stated, expert);
    if (!value) continue;
    if (value.kind === 'number' ? statesValue(stated.text, value, span.language) : sameReading(stated, value)) continue;
    const written = renderValue(value, stated, span.language) ?? asWritten(value, stated, span.language);
    // A value of another kind that does not convert ("10 working days" for "every four years") is no counterpart.
    if (written === undefined && value.kind !== stated.kind) continue;
    if (written === undefined) return { why: `"${value.text}" cannot be written in the sentence's form of ${stated.text}` };
    text = text.slice(0, stated.start) + written + text.slice(stated.end);
    placed.unshift(value.text);
  }
  if (placed.length === 0) return { why: `the expert's answer gives no value of the kind the sentence states (${a.display})` };
  return { text, value: placed.join(', ') };
}

/** The expert's value as they wrote it, when the sentence's language reads it as that value and it is of the stated kind ("every 6 months" for "once a year"). */
function asWritten(value: TypedValue, stated: TypedValue, language: Language): string | undefined {
  if (value.kind !== stated.kind || !extractValues(value.text, language).some((v) => sameReading(v, value))) return undefined;
  return /^\p{Lu}/u.test(stated.text) ? value.text.charAt(0).toUpperCase() + value.text.slice(1) : value.text;
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
