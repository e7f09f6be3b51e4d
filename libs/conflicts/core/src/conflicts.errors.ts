import { DomainError } from '@svc/kernel';
import type { QuestionConflictState } from './question-conflict';
import { ConflictMove, statesAllowing } from './question-conflict.states';

export const conflictNotFound = (conflictId: string) => DomainError.notFound('QUESTION_CONFLICT.NOT_FOUND', `Question conflict ${conflictId} does not exist.`);

export const documentNotFound = (documentId: string) => DomainError.notFound('REPOSITORY.DOCUMENT_NOT_FOUND', `Document ${documentId} does not exist.`);

export const forbiddenMove = (conflictId: string, move: ConflictMove, state: QuestionConflictState) =>
  DomainError.conflict('QUESTION_CONFLICT.INVALID_TRANSITION', `Question conflict ${conflictId} is ${state}: ${move} is allowed only from ${statesAllowing(move).join(', ')}.`, {
    hint: move === 'close' && state === 'OPEN' ? 'Record the expert answer first (audit_question_conflict_set_answer), then close.' : undefined,
  });

export const concurrentEdit = (conflictId: string) =>
  DomainError.conflict('QUESTION_CONFLICT.CONCURRENT_EDIT', `Question conflict ${conflictId} was changed by another request meanwhile; nothing was saved.`, {
    hint: 'Read the conflict again (audit_question_conflict_get) and repeat the change if it still applies.',
  });
