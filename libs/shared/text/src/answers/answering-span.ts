import { foldedWords } from '../fold';
import { detectLanguage, Language } from '../language';
import { extractValues, TypedValue } from '../values';
import type { ExtractedAnswer, Passage } from './question-analysis.types';
import { canReplace, sameReading, statesValue } from './render-value';

/**
 * Where an excerpt states its answer (ANALYSIS.md §3): the part of the answer's text (`ExtractedAnswer.text`)
 * a recommendation may rewrite, and the values it states there.
 */
export interface AnsweringSpan {
  /** Offsets in the answer's text, end exclusive. */
  start: number;
  end: number;
  /** The values the span states, in order (value answers; empty for named and yes/no answers). */
  values: TypedValue[];
  /** The language the values were read in: the excerpt's. */
  language: Language;
}

const OTHER: Record<Language, Language> = { en: 'fr', fr: 'en' };

/**
 * The span of an excerpt that states its answer: for a value answer, the values whose keys make the answer's
 * key, read in the excerpt's language (then the other one), within the offsets the analysis found when the
 * passage is given with them (stored conflicts keep only the sentence: the values are found again by key);
 * for a named answer, its name as written (the whole sentence when it is not written there); for a yes/no
 * answer, the whole sentence. Undefined when the
 * excerpt does not state the answer it is filed under where it can be read: such an excerpt is not one of
 * the conflict's answers, and nothing may be rewritten in it.
 */
export function answeringSpan(answer: ExtractedAnswer, passage?: Passage): AnsweringSpan | undefined {
  const text = answer.text;
  const language = detectLanguage(passage && passage.text.length > text.length ? passage.text : text);
  if (answer.kind === 'yes-no') return { start: 0, end: text.length, values: [], language };
  if (answer.kind === 'named') {
    // A model may name the answer in its own words: then the sentence it quoted is the span.
    const at = text.indexOf(answer.display) >= 0 ? text.indexOf(answer.display) : text.toLowerCase().indexOf(answer.display.toLowerCase());
    return at >= 0 && answer.display.trim() !== '' ? { start: at, end: at + answer.display.length, values: [], language } : { start: 0, end: text.length, values: [], language };
  }
  const located = passage && answer.valueStart !== undefined && answer.valueEnd !== undefined && passage.text.slice(answer.start, answer.end) === text;
  const [from, to] = located ? [answer.valueStart! - answer.start, answer.valueEnd! - answer.start] : [0, text.length];
  const parts = answer.key.split('+');
  for (const lang of [language, OTHER[language]]) {
    const values = extractValues(text, lang).filter((v) => v.start >= from && v.end <= to);
    const matched: TypedValue[] = [];
    for (const part of parts) {
      const value = values.find((v) => !matched.includes(v) && keyMatches(v, part));
      if (value) matched.push(value);
    }
    if (matched.length === parts.length) {
      matched.sort((a, b) => a.start - b.start);
      return { start: matched[0].start, end: matched[matched.length - 1].end, values: matched, language: lang };
    }
  }
  return undefined;
}

/** A value read again against an answer's key part: the same key (its rate aside), the same year ("year:2025"), the same day with or without its year. */
function keyMatches(value: TypedValue, part: string): boolean {
  const key = part.replace(/\/[a-z]+$/u, '');
  if (value.key === key) return true;
  const year = /^year:(\d{4})$/u.exec(key);
  if (year) return (value.kind === 'date' || value.kind === 'date-range') && value.key.includes(year[1]);
  const kind = key.split(':')[0];
  return (kind === 'date' || kind === 'date-range') && sameReading(value, { kind, key, text: '', start: 0, end: 0, comparable: true });
}

/**
 * The values of an expert's answer, read in the excerpt's language, and in the other one when that reading finds
 * no value but bare numbers ("14 jours" is a duration in French, a bare number in English): the reading that
 * finds more of it wins, the excerpt's language on a tie. An answer the excerpt's language already reads is not
 * read again: the other language's models cost seconds the first time a process uses them.
 */
export function expertValues(answer: string, language: Language): TypedValue[] {
  const covered = (values: TypedValue[], typed: boolean) => values.filter((v) => !typed || v.kind !== 'number').reduce((n, v) => n + v.end - v.start, 0);
  const first = extractValues(answer, language);
  if (covered(first, true) > 0) return first;
  const second = extractValues(answer, OTHER[language]);
  const better = covered(second, true) > covered(first, true) || (covered(second, true) === covered(first, true) && covered(second, false) > covered(first, false));
  return better ? second : first;
}

/** The expert's value that stands for a stated one: of its kind first, then of a kind that can replace it (a date for a date range, a bare number). */
export function counterpart(stated: TypedValue, values: readonly TypedValue[]): TypedValue | undefined {
  return values.find((v) => v.kind === stated.kind) ?? values.find((v) => canReplace(v.kind, stated.kind));
}

export type RewriteCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether a rewrite of an excerpt may be proposed (ANALYSIS.md §3), for the rule-based writer and the model
 * alike: the excerpt states one of the conflict's answers (`answeringSpan`), the rewrite keeps the excerpt's
 * text before and after that span verbatim (surrounding spaces aside), changes what the span says, and, when the
 * expert's answer holds a value of the span's kind, states that value.
 */
export function checkRewrite(answer: ExtractedAnswer, proposed: string, expertAnswer: string, passage?: Passage): RewriteCheck {
  const span = answeringSpan(answer, passage);
  if (!span) return { ok: false, reason: 'the excerpt does not state the answer it is filed under, so it is not rewritten' };
  const before = answer.text.slice(0, span.start).trimStart();
  const after = answer.text.slice(span.end).trimEnd();
  const rewritten = proposed.trim();
  if (rewritten.length < before.length + after.length || !rewritten.startsWith(before) || !rewritten.endsWith(after)) {
    return { ok: false, reason: 'the rewrite changes the excerpt outside the words that answer the question' };
  }
  const from = before.length;
  const to = rewritten.length - after.length;
  const now = rewritten.slice(from, to);
  const was = answer.text.slice(span.start, span.end);
  if (span.values.length === 0) {
    return foldedWords(now).join(' ') === foldedWords(was).join(' ') ? { ok: false, reason: 'the rewrite says what the excerpt already says' } : { ok: true };
  }
  const read = extractValues(rewritten, span.language).filter((v) => v.start >= from && v.end <= to);
  if (span.values.every((old) => read.some((v) => sameReading(v, old)))) return { ok: false, reason: 'the rewrite states the same value as the excerpt' };
  const expected = expertValues(expertAnswer, span.language).filter((e) => span.values.some((old) => canReplace(e.kind, old.kind)));
  if (expected.length > 0 && !expected.some((e) => read.some((v) => sameReading(v, e)) || statesValue(now, e, span.language))) {
    return { ok: false, reason: "the rewrite does not state the expert's value" };
  }
  return { ok: true };
}
