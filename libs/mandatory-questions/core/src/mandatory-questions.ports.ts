import type { Page, PageRequest, Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import type { ExtractedAnswer, Passage } from '@svc/text';
import type { MandatoryQuestion, MandatoryQuestionState } from './mandatory-question';

export type QuestionChanges = Partial<Pick<MandatoryQuestion, 'state' | 'answer' | 'companionQuestions' | 'retrievedDocumentIds' | 'analyzedAt' | 'updatedAt'>>;

export abstract class MandatoryQuestionRepository {
  abstract insert(question: MandatoryQuestion): Promise<void>;
  abstract get(instanceId: string, id: string): Promise<MandatoryQuestion | null>;
  /** Newest first, ties by id; every state when `state` is unset. */
  abstract list(instanceId: string, state: MandatoryQuestionState | undefined, page: PageRequest): Promise<Page<MandatoryQuestion>>;
  /** Questions the analysis follows (not MANAGED or IGNORED), oldest first. */
  abstract open(instanceId: string): Promise<MandatoryQuestion[]>;
  /** Applies the changes if the question is still at `version`; false when another edit won. */
  abstract update(key: { id: string; version: number }, changes: QuestionChanges): Promise<boolean>;
}

/** A retrieval candidate with what a conflict excerpt shows of its document. */
export interface RetrievedPassage extends Passage {
  documentName: string;
}

/**
 * The repository's hybrid search, as the question analysis reads it (ANALYSIS.md §2 step 2): tens of
 * candidates, best first, only live documents of the instance. The analysis re-ranks them and keeps a
 * few per document (`selectPassages`).
 */
export abstract class QuestionRetrieval {
  abstract retrieve(instanceId: string, query: string, candidates: number): Promise<RetrievedPassage[]>;
  /** When each of these documents was last indexed; deleted or unknown ones are absent. */
  abstract indexedAt(instanceId: string, documentIds: string[]): Promise<Map<string, Date>>;
}

/** Capability port (ANALYSIS.md §2 step 3): the answer each passage gives, as spans with typed values. */
export abstract class AnswerExtractor {
  abstract readonly name: string;
  abstract extract(question: string, passages: Passage[]): Promise<ExtractedAnswer[]>;
}

/** Capability port (ANALYSIS.md §2 step 1): up to five narrower questions probing the same subject. */
export abstract class CompanionQuestionWriter {
  abstract readonly name: string;
  abstract write(question: string, answers: ExtractedAnswer[]): Promise<string[]>;
}

/** Re-indexation of documents of the repository (set-managed asks for it for every cited document). */
export abstract class DocumentReindexer {
  /** Queues the documents' re-indexation; unknown or deleted ones are skipped. Returns how many were queued. */
  abstract reindex(instanceId: string, documentIds: string[]): Promise<number>;
}

/**
 * Answers to questions another context owns that `set-answer` also takes (`msq_`, missing-subject
 * questions: BEHAVIOUR.md §4). Implemented by that context and passed by the composition, so this
 * context does not depend on it.
 */
export abstract class ForeignQuestionAnswers {
  /** Stores the answer; false when the question does not exist for this caller (404). */
  abstract answer(input: { principal: Principal; access: AuditInstanceAccess; questionId: string; answer: string }): Promise<boolean>;
}
