import { DomainError } from './domain-error';
import type { LanguageModel, StructuredCall, StructuredResult } from './language-model';
import { loggableError } from './loggable-error';

/**
 * Why one model call gave nothing a capability can use, so that its rule-based adapter answered it:
 * - `declined`: the model declined the call (a refusal);
 * - `invalid-response`: its reply stayed malformed after the transport's one repeat (`LLM.INVALID_RESPONSE`);
 * - `unusable-output`: the reply matched the schema but the capability's own check set it aside
 *   (`UnusableModelOutput`: a document without a heading, a rewrite that changes more than its span...);
 * - `failed`: any other failure (an outage), for the capabilities that answer without the model rather than
 *   fail (`onFailure: 'fall-back'`); the others let it through, so a job retries.
 */
export type ModelFallbackReason = 'declined' | 'invalid-response' | 'unusable-output' | 'failed';

/** What a fallback is logged through (a Nest Logger, a pino logger, a test's recorder). */
export interface FallbackLogger {
  warn(details: object, message: string): unknown;
}

/**
 * Thrown by a capability's `use` of a model's output that matched the schema but is not usable (its own check):
 * `callOrFallBack` then answers with the rule-based adapter, reason `unusable-output`, with `problem` logged.
 */
export class UnusableModelOutput extends Error {
  constructor(readonly problem: string) {
    super(`The model's output is not usable: ${problem}.`);
    this.name = 'UnusableModelOutput';
  }
}

/**
 * Whether a model call's failure means "nothing usable for this call" (then the capability's rule-based adapter
 * answers it), as opposed to an outage the job should ride out by retrying. Null for any other failure.
 */
export function unusableModelReply(error: unknown): ModelFallbackReason | null {
  return error instanceof DomainError && error.code === 'LLM.INVALID_RESPONSE' ? 'invalid-response' : null;
}

/**
 * How many calls of each capability (`answer-extractor`, `companion-question-writer`, ...) the rule-based adapter
 * answered because the model gave nothing usable, since the process started: the count each fallback's log line
 * carries, so an operator sees a model that keeps declining or answers in plain text.
 */
export class ModelFallbacks {
  private static readonly counts = new Map<string, number>();

  /** Counts `calls` fallbacks of `capability` (one by default); returns the count so far. */
  static count(capability: string, calls = 1): number {
    const next = (ModelFallbacks.counts.get(capability) ?? 0) + calls;
    ModelFallbacks.counts.set(capability, next);
    return next;
  }

  static of(capability: string): number {
    return ModelFallbacks.counts.get(capability) ?? 0;
  }
}

export const MODEL_FALLBACK_MESSAGE = 'the model gave nothing usable for this call; the rule-based adapter answered it';

/**
 * Logs and counts one fallback (or `calls` of them) of a capability: every model adapter logs its fallbacks with
 * these fields, `{ capability, model, reason, fallbacks }` (the process's count so far), plus `details` (the
 * problem, the error, a batch id...). For the fallbacks `callOrFallBack` cannot see (a batch's results, a part of
 * one output set aside).
 */
export function noteModelFallback(capability: string, model: Pick<LanguageModel, 'name'>, logger: FallbackLogger, reason: ModelFallbackReason, details: object = {}, calls = 1): void {
  logger.warn({ capability, model: model.name, reason, fallbacks: ModelFallbacks.count(capability, calls), ...details }, MODEL_FALLBACK_MESSAGE);
}

export interface CallOrFallBackOptions {
  /**
   * What any other failure (an outage, after the transport's own retries) does: `throw` (the default: a job
   * retries, a request answers 503) or `fall-back` (the rule-based adapter answers, reason `failed`), for a
   * capability whose callers cannot wait (a full scan's judge, a draft an expert asked for).
   */
  onFailure?: 'throw' | 'fall-back';
}

/**
 * One model call of a capability, or, when the model gives nothing usable for it (it declines, its reply stays
 * malformed after the transport's one repeat, or `use` throws `UnusableModelOutput`), the capability's rule-based
 * adapter for that call, logged with the reason and counted (`noteModelFallback`). Other failures are thrown (the
 * job retries) unless `onFailure` is `fall-back`.
 */
export async function callOrFallBack<T, R>(
  capability: string,
  model: LanguageModel,
  logger: FallbackLogger,
  call: StructuredCall,
  use: (output: T) => R,
  fallback: () => Promise<R>,
  options: CallOrFallBackOptions = {},
): Promise<R> {
  let result: StructuredResult<T>;
  let reason: ModelFallbackReason;
  let details: object = {};
  try {
    result = await model.complete<T>(call);
    if (result.kind === 'output') return use(result.output);
    reason = 'declined';
  } catch (error) {
    if (error instanceof UnusableModelOutput) {
      reason = 'unusable-output';
      details = { problem: error.problem };
    } else {
      const unusable = unusableModelReply(error);
      if (unusable) reason = unusable;
      else if (options.onFailure === 'fall-back') {
        reason = 'failed';
        details = { error: loggableError(error) };
      } else throw error;
    }
  }
  noteModelFallback(capability, model, logger, reason, details);
  return fallback();
}
