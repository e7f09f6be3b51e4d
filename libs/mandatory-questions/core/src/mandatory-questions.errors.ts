import { DomainError } from '@svc/kernel';
import type { MandatoryQuestionState } from './mandatory-question';
import type { QuestionMove } from './mandatory-question.states';

export const questionNotFound = (questionId: string) =>
  questionId.startsWith('msq_')
    ? DomainError.notFound('MISSING_SUBJECT_QUESTION.NOT_FOUND', `Missing-subject question ${questionId} does not exist.`)
    : DomainError.notFound('MANDATORY_QUESTION.NOT_FOUND', `Mandatory question ${questionId} does not exist.`);

const ALLOWED: Record<QuestionMove, string> = {
  'set-answer': 'an open question (not MANAGED or IGNORED)',
  'set-managed': 'any state',
  'set-ignored': 'any state',
  'force-analyze': 'REFUSED',
  'analysis-start': 'an open question',
};

export const forbiddenQuestionMove = (questionId: string, move: QuestionMove, state: MandatoryQuestionState) =>
  DomainError.conflict('MANDATORY_QUESTION.INVALID_TRANSITION', `Mandatory question ${questionId} is ${state}: ${move} is allowed only for ${ALLOWED[move]}.`);

export const concurrentQuestionEdit = (questionId: string) =>
  DomainError.conflict('MANDATORY_QUESTION.CONCURRENT_EDIT', `Mandatory question ${questionId} was changed by another request meanwhile; nothing was saved.`, {
    hint: 'List the questions again and repeat the change if it still applies.',
  });
