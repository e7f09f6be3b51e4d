import { foldText } from '../fold';
import { detectLanguage } from '../language';
import type { ExtractedAnswer } from './question-analysis.types';

/** Companion questions written at most (ANALYSIS.md §2 step 1). */
export const MAX_COMPANION_QUESTIONS = 5;

/**
 * Narrower questions that probe the same subject (ANALYSIS.md §2 step 1), rule-based: one per scope the
 * answers name ("for Paris and London", "for part-time staff"), written from the answers' own words, in
 * the question's language, at most five, most supported scope first. A scope no answer names is not
 * invented: without scopes there are no companion questions.
 */
export function companionQuestions(question: string, answers: readonly ExtractedAnswer[]): string[] {
  const language = detectLanguage(question);
  const support = new Map<string, { label: string; documents: Set<string> }>();
  for (const a of answers) {
    if (a.scope.length === 0) continue;
    const key = a.scope.join(' ');
    const entry = support.get(key) ?? { label: scopeLabel(a), documents: new Set<string>() };
    entry.documents.add(a.documentId);
    support.set(key, entry);
  }
  const base = question.trim().replace(/[?？\s]+$/u, '');
  const seen = new Set<string>([foldText(base)]);
  const out: string[] = [];
  for (const { label } of [...support.values()].sort((x, y) => y.documents.size - x.documents.size || x.label.localeCompare(y.label))) {
    const companion = `${base} (${language === 'fr' ? 'pour' : 'for'} ${label})?`;
    if (seen.has(foldText(companion))) continue;
    seen.add(foldText(companion));
    out.push(companion);
    if (out.length >= MAX_COMPANION_QUESTIONS) break;
  }
  return out;
}

/** The scope as the excerpt writes it: the excerpt's words whose folded stems start like the scope's. */
function scopeLabel(a: ExtractedAnswer): string {
  const words: string[] = a.text.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
  const picked = words.filter((w, i) => words.indexOf(w) === i && a.scope.some((s) => foldText(w).startsWith(s.slice(0, Math.max(3, s.length - 1)))));
  return picked.length > 0 ? picked.join(', ') : a.scope.join(', ');
}
