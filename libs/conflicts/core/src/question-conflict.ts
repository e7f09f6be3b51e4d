import type { AnswerKind } from '@svc/text';

export const QUESTION_CONFLICT_STATES = ['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY', 'MANAGED', 'IGNORED'] as const;
export type QuestionConflictState = (typeof QUESTION_CONFLICT_STATES)[number];

/** One excerpt of a conflict: the passage, the answer span in it and the value it states. */
export interface ConflictExcerpt {
  semanticNodeId: string;
  documentId: string;
  /** As retrieval named it when the conflict was raised; reads show the repository's current name. */
  documentName: string;
  documentUrl: string | null;
  documentDate: string | null;
  /** The passage (semantic node) text. */
  text: string;
  /** The answer span, as written, and its offsets in `text` (end exclusive). */
  extractedAnswer: string;
  spanStart: number;
  spanEnd: number;
  kind: AnswerKind;
  /** Canonical value key and its display ("14 days"). */
  normalizedKey: string;
  normalizedValue: string;
  scope: string[];
  confidence: number;
}

/** Excerpts that give the same answer. */
export interface ConflictAnswerGroup {
  key: string;
  display: string;
  excerpts: ConflictExcerpt[];
}

/** A contradiction the analysis of a mandatory question found (what `RecordQuestionAnalysis` receives). */
export interface FoundConflict {
  fingerprint: string;
  scope: string[];
  groups: ConflictAnswerGroup[];
  newestDocumentId: string | null;
}

export interface QuestionConflict extends FoundConflict {
  id: string;
  instanceId: string;
  organizationId: string;
  questionId: string;
  /** The question (or companion question) text at analysis time. */
  question: string;
  companionQuestions: string[];
  documentIds: string[];
  state: QuestionConflictState;
  answer: string | null;
  createdAt: Date;
  updatedAt: Date;
  answeredAt: Date | null;
  closedAt: Date | null;
  /** Who closed it: `expert`, or `analysis` when a later analysis no longer found it. */
  closedBy: 'expert' | 'analysis' | null;
  version: number;
}

export type RecommendationAction = 'KEEP' | 'UPDATE' | 'DELETE';
/**
 * DRAFT after set-answer; PENDING work once the conflict is closed; APPLIED once its document no
 * longer holds the excerpt (updated or deleted as recommended); DISCARDED when replaced or ignored.
 */
export type RecommendationStatus = 'DRAFT' | 'PENDING' | 'APPLIED' | 'DISCARDED';

export interface Recommendation {
  id: string;
  instanceId: string;
  conflictId: string;
  documentId: string;
  action: RecommendationAction;
  excerpt: string;
  proposedText: string | null;
  reason: string;
  estimatedSeconds: number;
  status: RecommendationStatus;
  createdAt: Date;
}

export function documentIdsOf(groups: ConflictAnswerGroup[]): string[] {
  return [...new Set(groups.flatMap((g) => g.excerpts.map((e) => e.documentId)))].sort();
}
