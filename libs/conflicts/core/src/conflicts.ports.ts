import type { Page, PageRequest } from '@svc/kernel';
import type { DraftRecommendation, ExtractedAnswer, Passage } from '@svc/text';
import type { QuestionConflict, QuestionConflictState, Recommendation, RecommendationStatus } from './question-conflict';

/** Which documents the caller may see: all, or only these (the owner-visibility rule). */
export type Visible = 'all' | string[];

export interface ConflictListFilter {
  states: QuestionConflictState[];
  questionIds?: string[];
  documentIds?: string[];
  visible: Visible;
}

/** The fields of a conflict an edit may change; the version column guards it. */
export type ConflictChanges = Partial<Pick<QuestionConflict, 'state' | 'answer' | 'answeredAt' | 'closedAt' | 'closedBy' | 'updatedAt'>>;

export abstract class QuestionConflictRepository {
  /** Inserts the conflict unless its question already has one with this fingerprint (any state); true when inserted. */
  abstract insertIfNew(conflict: QuestionConflict): Promise<boolean>;
  abstract get(instanceId: string, id: string): Promise<QuestionConflict | null>;
  /** Newest first, ties by id. */
  abstract list(instanceId: string, filter: ConflictListFilter, page: PageRequest): Promise<Page<QuestionConflict>>;
  abstract ofQuestion(instanceId: string, questionId: string, states?: QuestionConflictState[]): Promise<QuestionConflict[]>;
  /** Applies the changes if the conflict is still at `version`; false when another edit won. */
  abstract update(key: { id: string; version: number }, changes: ConflictChanges): Promise<boolean>;
  /** Conflicts per question (any state), counted over visible documents. */
  abstract countByQuestion(instanceId: string, questionIds: string[], visible: Visible): Promise<Map<string, number>>;
  /** Conflicts in these states touching at least one of the documents. */
  abstract touching(instanceId: string, documentIds: string[], states: QuestionConflictState[]): Promise<QuestionConflict[]>;
}

export abstract class RecommendationRepository {
  /** The conflict's drafts are discarded and these become its drafts. */
  abstract replaceDrafts(conflictId: string, drafts: Recommendation[]): Promise<void>;
  abstract moveStatus(conflictId: string, from: RecommendationStatus, to: RecommendationStatus): Promise<void>;
  abstract ofConflict(conflictId: string, statuses: RecommendationStatus[]): Promise<Recommendation[]>;
  /** Pending recommendations of a document across the instance's closed conflicts, newest first. */
  abstract pendingForDocument(instanceId: string, documentId: string): Promise<Recommendation[]>;
  /** PENDING → APPLIED for these ids (others are left as they are); the ids really moved. */
  abstract markApplied(ids: string[], at: Date): Promise<string[]>;
}

/** A document's text as the repository holds it now: null when it is gone or not indexed (yet). */
export abstract class CurrentDocumentText {
  abstract read(instanceId: string, documentId: string): Promise<string | null>;
}

export interface RecommendationRequest {
  question: string;
  expertAnswer: string;
  /** The answers of the conflict's excerpts and the passages they come from. */
  answers: ExtractedAnswer[];
  passages: Passage[];
}

/**
 * Capability port (ANALYSIS.md §3): what each document of a conflict should do once an expert has
 * answered: KEEP, UPDATE with proposed text, or DELETE a superseded copy. Rule-based (offline default)
 * or model-backed.
 */
export abstract class RecommendationWriter {
  abstract readonly name: string;
  abstract write(request: RecommendationRequest): Promise<DraftRecommendation[]>;
}
