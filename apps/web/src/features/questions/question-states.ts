import type { AuditResult } from '@/lib/api-client';
import { allOf } from '@/lib/exhaustive';

export type MandatoryQuestion = AuditResult<'/audit/mandatory-question/list'>['items'][number];
export type QuestionState = MandatoryQuestion['state'];

export const QUESTION_STATES = allOf<QuestionState>()(['PENDING', 'ANALYZING', 'CONFLICTS', 'NO_CONFLICT', 'REFUSED', 'MANAGED', 'IGNORED']);

/** States in which the analysis is still running: the list polls until none is left. */
export const ANALYSIS_RUNNING: readonly QuestionState[] = ['PENDING', 'ANALYZING'];
