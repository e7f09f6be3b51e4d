import { AnswerRequest, DomainError, GroundedAnswer } from '@svc/kernel';

export const INVALID_REQUEST = 'LLM.INVALID_REQUEST';

/** The checks every adapter makes before answering: a question, and excerpt ids that can be cited unambiguously. */
export function validateAnswerRequest(request: AnswerRequest): void {
  if (typeof request.question !== 'string' || request.question.trim() === '') {
    throw DomainError.invalid(INVALID_REQUEST, 'The question is empty.', { errors: [{ field: 'question', message: 'must not be blank' }] });
  }
  const seen = new Set<string>();
  for (const excerpt of request.excerpts) {
    if (seen.has(excerpt.id)) {
      throw DomainError.invalid(INVALID_REQUEST, 'Two excerpts have the same id, so a citation would be ambiguous.', {
        errors: [{ field: 'excerpts', message: 'ids must be unique' }],
      });
    }
    seen.add(excerpt.id);
  }
}

/** The answer when the excerpts do not answer: nothing quoted, nothing cited, confidence 0. */
export function noAnswer(reason: string, usage?: GroundedAnswer['usage']): GroundedAnswer {
  return usage ? { answer: '', reason, confidence: 0, citedExcerptIds: [], usage } : { answer: '', reason, confidence: 0, citedExcerptIds: [] };
}

/** `fr` for a French language tag, `en` for any other tag; undefined when no tag was given. */
export function requestedLanguage(language: string | undefined): 'en' | 'fr' | undefined {
  if (!language || language.trim() === '') return undefined;
  return language.trim().toLowerCase().startsWith('fr') ? 'fr' : 'en';
}
