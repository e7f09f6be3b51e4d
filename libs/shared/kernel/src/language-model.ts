/** Tokens one call consumed, for cost accounting. */
export interface LanguageModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache (billed at a fraction of the input price). */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache (billed above the input price, once). */
  cacheWriteTokens?: number;
}

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** The shape the model must answer with: a JSON Schema (draft 2020-12 subset: objects, arrays, strings, numbers, enums). */
export interface StructuredOutputSpec {
  /** `[a-zA-Z0-9_-]{1,64}`: the tool name (Anthropic) or the response-format name (chat completions). */
  name: string;
  /** What the output is, for the model. */
  description: string;
  schema: Record<string, unknown>;
}

export interface StructuredCall {
  /**
   * The fixed instructions. Keep them identical across calls of one capability: providers that cache
   * prompts (Anthropic) cache them.
   */
  system: string;
  /** The conversation so far, ending with the user's turn; at least one message. */
  messages: ModelMessage[];
  output: StructuredOutputSpec;
  /** Output budget of one attempt; the adapter's default when unset. */
  maxTokens?: number;
}

export type StructuredResult<T> =
  /** The model answered, and its output matches the schema. */
  | { kind: 'output'; output: T; usage: LanguageModelUsage; model: string }
  /** The model declined to answer (a safety refusal): an outcome the capability turns into "no answer". */
  | { kind: 'declined'; usage: LanguageModelUsage; model: string };

/** One call of a batch, named by the caller (`[a-zA-Z0-9_-]{1,64}`, unique in the batch). */
export interface BatchCall {
  id: string;
  call: StructuredCall;
}

/** What one call of an ended batch gave. */
export type BatchCallResult<T> =
  /** The model answered, and its output matches the schema. */
  | { kind: 'output'; output: T; usage: LanguageModelUsage }
  /** The model declined to answer. */
  | { kind: 'declined'; usage: LanguageModelUsage }
  /** Errored, expired, canceled, or answered with something unusable: the caller keeps its fallback. */
  | { kind: 'failed'; problem: string };

/** A batch in progress (with how many of its calls are answered), or ended with every call's result by id. */
export type BatchState<T> = { ended: false; answered: number; total: number } | { ended: true; results: Map<string, BatchCallResult<T>> };

/**
 * Message batches (Anthropic's Message Batches API): many structured calls submitted at once and
 * answered together later, within 24 hours, at about half the price of the same calls one by one.
 * Nothing is asked again inside a batch: a call whose answer is unusable is `failed`, and the caller
 * keeps its own fallback. Errors of `submit` and `poll` are those of `complete`.
 */
export interface LanguageModelBatches {
  /** Submits the calls; returns the provider's batch id, to poll. */
  submit(calls: BatchCall[]): Promise<string>;
  /** The batch's progress; once ended, each call's result, validated against `output` (the calls' shared output shape). */
  poll<T>(batchId: string, output: StructuredOutputSpec): Promise<BatchState<T>>;
}

/**
 * A language model as transport: one generic structured call (system text, messages, an output
 * schema) that returns output validated against the schema, with the tokens it cost. Prompts and
 * schemas belong to the capability ports of the contexts that ask (for instance the repository's
 * `AnswerComposer`); an adapter is transport, retries and validation only.
 *
 * Contract, for every adapter (`languageModelContract`, `@svc/llm/testing`, checks what a test can):
 * - Validated: `output` matches `call.output.schema`. A reply that is not JSON or does not match is
 *   asked again once, then reported as `LLM.INVALID_RESPONSE`; it is never returned.
 * - Stateless: calls are independent; the same call may be sent again (retries are safe).
 * - A refusal by the model (a safety refusal) is a `declined` result with its usage, not an error.
 * - Errors are DomainErrors, never a raw SDK or network error: `invalid` (`LLM.INVALID_REQUEST`, not
 *   sent) for a call without messages, with a message whose content is blank (empty or whitespace), or
 *   with an output name outside `[a-zA-Z0-9_-]{1,64}`; `unavailable` (`LLM.UNAVAILABLE`) when the model
 *   cannot be reached (connection refused, DNS), stays down, overloaded, rate-limited or silent after the
 *   adapter's own retries, with `retryAfterSeconds` the provider's last Retry-After (DomainError's
 *   default, 5, only when it named none); `unavailable` (`LLM.INVALID_RESPONSE`) when it answers with
 *   something unusable; `unavailable` or `internal` (`LLM.REQUEST_REFUSED`) when it refuses the request
 *   (credentials, model name, URL, which an operator fixes, as 401, 403, 404: `unavailable`; another
 *   4xx, a request the adapter built wrong: `internal`); `unavailable` (`LLM.NOT_CONFIGURED`)
 *   when no model is configured. Messages never hold a key, a URL or a body.
 */
export abstract class LanguageModel {
  /** `none`, `anthropic:<model>`, `openai-compatible:<model>`: names the model in logs. */
  abstract readonly name: string;
  /** False for the `none` provider: capabilities then use their rule-based adapters. */
  abstract readonly configured: boolean;
  /** Message batches, where the provider has them (Anthropic); null otherwise. */
  readonly batches: LanguageModelBatches | null = null;
  abstract complete<T>(call: StructuredCall): Promise<StructuredResult<T>>;
}
