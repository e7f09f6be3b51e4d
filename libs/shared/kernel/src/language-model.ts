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
   * reciprocal rank fusion...), so adapters compare scores within one request, never with a constant.
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

/** Tokens one call consumed, for cost accounting. Local models report none. */
export interface LanguageModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache (billed at a fraction of the input price). */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache (billed above the input price, once). */
  cacheWriteTokens?: number;
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
  usage?: LanguageModelUsage;
}

/**
 * Answers a question from retrieved excerpts, and only from them: a capability, not a chat API.
 * Prompts and output schemas belong to the use cases; an adapter is transport and validation.
 *
 * Contract, for every adapter:
 * - Grounded: the answer never states a fact absent from the excerpts, and cites the excerpts it rests
 *   on (ids among the request's, no repeats). When the excerpts do not answer (or there are none),
 *   the answer is '' with confidence 0, no citations and a reason saying so. That is an outcome, not an
 *   error.
 * - Bounded: `confidence` is a finite number in 0..1.
 * - Stateless: requests are independent; the same request may be sent again (retries are safe).
 * - Errors are DomainErrors, never a raw SDK or network error: `invalid` (`LLM.INVALID_REQUEST`) for
 *   a blank question or repeated excerpt ids; `unavailable` (`LLM.UNAVAILABLE`, with
 *   `retryAfterSeconds`) when a remote model stays down, overloaded, rate-limited or silent after the
 *   adapter's own retries; `unavailable` (`LLM.INVALID_RESPONSE`) when it answers with something
 *   unusable; `unavailable` or `internal` (`LLM.REQUEST_REFUSED`) when it refuses the request
 *   (credentials, model name, malformed request). Messages never hold a key, a URL or a response body.
 */
export abstract class LanguageModel {
  /** Identifies the model in logs and stored answers (`local-extractive-v1`, `anthropic:<model>`). */
  abstract readonly name: string;
  abstract answer(request: AnswerRequest): Promise<GroundedAnswer>;
}
