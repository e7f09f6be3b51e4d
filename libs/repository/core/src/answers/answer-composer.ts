import { DomainError, LanguageModelUsage } from '@svc/kernel';

/** One retrieved passage the answer may quote: a semantic node and the document it comes from. */
export interface AnswerExcerpt {
  /** The semantic node id (`kn_`); cited back in `GroundedAnswer.citedExcerptIds`. Unique within a request. */
  id: string;
  documentId: string;
  /** The document's display name, used in the reason ("Quoted from "Refund policy"..."). */
  documentName: string;
  text: string;
  /**
   * The retriever's score, higher is better. Its scale depends on the retriever (cosine similarity,
   * reciprocal rank fusion...), so composers compare scores within one request, never with a constant.
   */
  score: number;
}

export interface AnswerRequest {
  question: string;
  /** The retrieved excerpts, any order. May be empty. */
  excerpts: AnswerExcerpt[];
  /** BCP 47 tag of the language to answer in (`en`, `fr-FR`); unset: the question's language. */
  language?: string;
}

export interface GroundedAnswer {
  /** The answer, built only from the excerpts; '' when they do not answer the question. */
  answer: string;
  /** One or two sentences for people: where the answer comes from and why, or why there is none. */
  reason: string;
  /** 0..1, how likely the answer is right and complete given the excerpts; 0 when `answer` is ''. */
  confidence: number;
  /** Ids of the excerpts the answer rests on, each one of the request's ids, no repeats; [] when `answer` is ''. */
  citedExcerptIds: string[];
  /** Tokens a language model spent on it; absent for the rule-based composer. */
  usage?: LanguageModelUsage;
}

/**
 * The search-answer capability: answers a question from retrieved excerpts, and only from them.
 * Two adapters: `RuleBasedAnswerComposer` (extractive, offline, the default) and
 * `ModelAnswerComposer` (the configured language model through the generic structured call, with
 * this context's prompt and output schema). The configuration picks one per deployment.
 *
 * Contract, for every adapter (`testing/answer-composer.contract.ts` checks it):
 * - Grounded: the answer never states a fact absent from the excerpts, and cites the excerpts it rests
 *   on (ids among the request's, no repeats). When the excerpts do not answer (or there are none),
 *   the answer is '' with confidence 0, no citations and a reason saying so. That is an outcome, not an
 *   error.
 * - Bounded: `confidence` is a finite number in 0..1.
 * - Stateless: requests are independent; the same request may be sent again (retries are safe).
 * - Errors are DomainErrors: `invalid` (`LLM.INVALID_REQUEST`) for a blank question or repeated
 *   excerpt ids; a model-backed composer passes the transport's outages on (the search answer is then a
 *   503 with Retry-After, and the search is logged unanswered), but answers a reply that stays malformed
 *   (`LLM.INVALID_RESPONSE`) with the rule-based composer, and a declined request with no answer.
 */
export abstract class AnswerComposer {
  /** Identifies the composer in logs (`local-extractive-v1`, `anthropic:<model>`). */
  abstract readonly name: string;
  abstract compose(request: AnswerRequest): Promise<GroundedAnswer>;
}


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
