import type { AuditResult } from '@/lib/api-client';
import { allOf } from '@/lib/exhaustive';

export type QuestionConflict = AuditResult<'/audit/conflict/get'>;
export type ConflictState = QuestionConflict['state'];
export type AnswerGroup = QuestionConflict['answer_groups'][number];
export type Excerpt = AnswerGroup['excerpts'][number];
export type Recommendation = QuestionConflict['recommendations'][number];

export const CONFLICT_STATES = allOf<ConflictState>()(['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY', 'MANAGED', 'IGNORED']);
/** What is left to do on a conflict (the dashboard's "unresolved" counter). */
export const UNRESOLVED_CONFLICT_STATES: readonly ConflictState[] = ['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY'];
/** The list's filter: the unresolved ones by default, one state, or all of them. */
export const CONFLICT_FILTERS = ['unresolved', ...CONFLICT_STATES, 'all'] as const;
export type ConflictFilter = (typeof CONFLICT_FILTERS)[number];

export function statesOf(filter: ConflictFilter): ConflictState[] {
  if (filter === 'unresolved') return [...UNRESOLVED_CONFLICT_STATES];
  if (filter === 'all') return [...CONFLICT_STATES];
  return [filter];
}

/** Close is allowed once the expert answered (spec: ANSWERED or RECOMMENDATIONS_READY). */
export const canClose = (state: ConflictState) => state === 'ANSWERED' || state === 'RECOMMENDATIONS_READY';
export const isOpenForWork = (state: ConflictState) => UNRESOLVED_CONFLICT_STATES.includes(state);
