export const MANDATORY_QUESTION_STATES = ['PENDING', 'ANALYZING', 'CONFLICTS', 'NO_CONFLICT', 'REFUSED', 'MANAGED', 'IGNORED'] as const;
export type MandatoryQuestionState = (typeof MANDATORY_QUESTION_STATES)[number];

export interface MandatoryQuestion {
  id: string;
  instanceId: string;
  organizationId: string;
  question: string;
  state: MandatoryQuestionState;
  /** The expert's answer, or null. */
  answer: string | null;
  /** The narrower questions the last analysis probed too. */
  companionQuestions: string[];
  /** Documents the last analysis read (its retrieval): a change to one of them re-analyses the question. */
  retrievedDocumentIds: string[];
  createdAt: Date;
  updatedAt: Date;
  analyzedAt: Date | null;
  version: number;
}

export interface MandatoryQuestionView {
  id: string;
  instance_id: string;
  question: string;
  state: MandatoryQuestionState;
  answer: string | null;
  conflict_count: number;
  compagnon_questions: string[];
  created_at: string;
  updated_at: string;
  analyzed_at: string | null;
  version: number;
}

export function questionView(q: MandatoryQuestion, conflictCount: number): MandatoryQuestionView {
  return {
    id: q.id,
    instance_id: q.instanceId,
    question: q.question,
    state: q.state,
    answer: q.answer,
    conflict_count: conflictCount,
    compagnon_questions: q.companionQuestions,
    created_at: q.createdAt.toISOString(),
    updated_at: q.updatedAt.toISOString(),
    analyzed_at: q.analyzedAt?.toISOString() ?? null,
    version: q.version,
  };
}
