import { DomainError } from './domain-error';
import type { LanguageModel, StructuredCall, StructuredResult } from './language-model';

/** Why one model call gave nothing a capability can use: it declined, or its reply stayed malformed after the repeat. */
export type ModelFallbackReason = 'declined' | 'invalid-response';

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

  /** Counts one fallback of `capability`; returns the count so far. */
  static count(capability: string): number {
    const next = (ModelFallbacks.counts.get(capability) ?? 0) + 1;
    ModelFallbacks.counts.set(capability, next);
    return next;
  }

  static of(capability: string): number {
    return ModelFallbacks.counts.get(capability) ?? 0;
  }
}

/**
 * One model call of a capability, or, when the model gives nothing usable for it (it declines, or its reply
 * stays malformed after the transport's one repeat), the capability's rule-based adapter for that call, logged
 * with the reason and counted. Other failures (an outage) are thrown: the job retries.
 */
export async function callOrFallBack<T, R>(capability: string, model: LanguageModel, logger: { warn(details: object, message: string): unknown }, call: StructuredCall, use: (output: T) => R, fallback: () => Promise<R>): Promise<R> {
  let result: StructuredResult<T>;
  let reason: ModelFallbackReason;
  try {
    result = await model.complete<T>(call);
    if (result.kind === 'output') return use(result.output);
    reason = 'declined';
  } catch (error) {
    const unusable = unusableModelReply(error);
    if (!unusable) throw error;
    reason = unusable;
  }
  logger.warn({ capability, model: model.name, reason, fallbacks: ModelFallbacks.count(capability) }, 'the model gave nothing usable for this call; the rule-based adapter answered it');
  return fallback();
}
