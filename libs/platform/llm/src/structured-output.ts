import { Logger } from '@nestjs/common';
import Ajv, { ValidateFunction } from 'ajv';
import { DomainError, LanguageModel, LanguageModelUsage, StructuredCall, StructuredResult } from '@svc/kernel';

export const LLM_UNAVAILABLE = 'LLM.UNAVAILABLE';
export const LLM_INVALID_RESPONSE = 'LLM.INVALID_RESPONSE';
export const LLM_REQUEST_REFUSED = 'LLM.REQUEST_REFUSED';
export const LLM_INVALID_REQUEST = 'LLM.INVALID_REQUEST';
export const LLM_NOT_CONFIGURED = 'LLM.NOT_CONFIGURED';

/** Calls made for one structured call when the reply is malformed: the first, and one more. */
export const OUTPUT_ATTEMPTS = 2;

const OUTPUT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The checks every transport makes before sending: messages to answer, an output name providers accept. */
export function validateCall(call: StructuredCall): void {
  if (!Array.isArray(call.messages) || call.messages.length === 0 || call.messages.some((m) => typeof m.content !== 'string' || m.content.trim() === '')) {
    throw DomainError.invalid(LLM_INVALID_REQUEST, 'A language model call needs at least one non-empty message.', {
      errors: [{ field: 'messages', message: 'must hold at least one non-empty message' }],
    });
  }
  if (!OUTPUT_NAME.test(call.output?.name ?? '')) {
    throw DomainError.invalid(LLM_INVALID_REQUEST, 'The output name must be 1 to 64 letters, digits, "_" or "-".', { errors: [{ field: 'output.name', message: 'bad name' }] });
  }
}

const ajv = new Ajv({ allErrors: false, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Whether a model's output matches the call's schema (compiled once per schema object). */
export function matchesSchema(schema: Record<string, unknown>, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) === true;
}

/** Checks a provider's base URL: http(s), no credentials in it (keys go in their own variable). */
export function checkedBaseUrl(baseUrl: string, keyVariable: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw DomainError.invalid('LLM.INVALID_BASE_URL', 'The language model URL is not a valid URL.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw DomainError.invalid('LLM.INVALID_BASE_URL', `The language model URL must be http(s) without credentials (put the key in ${keyVariable}).`);
  }
  return trimmed;
}

/** Tokens consumed since the adapter was created, successful calls only. */
export interface TokenUsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export function addUsage(a: LanguageModelUsage, b: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0),
    cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0),
  };
}

export const NO_USAGE: LanguageModelUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A non-negative token count, 0 for anything else. */
export function tokenCount(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * Token accounting of one adapter: per-call totals for `tokenUsage()`, and one log line per answered
 * call (Nest logger, `LanguageModel` context) with its attempts, duration and tokens, never the prompt.
 */
export class UsageMeter {
  private readonly logger = new Logger('LanguageModel');
  private readonly totals: TokenUsageTotals = { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(private readonly name: string) {}

  record(usage: LanguageModelUsage, attempts: number, startedAt: number): void {
    this.totals.requests++;
    this.totals.inputTokens += usage.inputTokens;
    this.totals.outputTokens += usage.outputTokens;
    this.totals.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.totals.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    this.logger.log(
      `${this.name}: ${attempts} attempt${attempts === 1 ? '' : 's'}, ${Date.now() - startedAt} ms, input ${usage.inputTokens} tokens ` +
        `(cache read ${usage.cacheReadTokens ?? 0}, cache write ${usage.cacheWriteTokens ?? 0}), output ${usage.outputTokens} tokens`,
    );
  }

  snapshot(): TokenUsageTotals {
    return { ...this.totals };
  }
}

/** What one model reply gave, as a provider reads it (before the schema check). */
export type ModelReply =
  | { kind: 'output'; value: unknown; usage: LanguageModelUsage; mismatch: string }
  | { kind: 'declined'; usage: LanguageModelUsage }
  | { kind: 'unusable'; problem: string; usage: LanguageModelUsage };

/**
 * The contract every transport shares: ask (`ask` sends one call, with the provider's own transport
 * retries, and reads the reply), check the output against the call's schema, ask once more when the
 * reply is unusable, then report `LLM.INVALID_RESPONSE`. Tokens of every reply count; the meter
 * records the call once, when it succeeds or is declined.
 */
export async function completeWithValidation<T>(
  call: StructuredCall,
  model: string,
  meter: UsageMeter,
  ask: () => Promise<ModelReply>,
  attempts: () => number,
): Promise<StructuredResult<T>> {
  validateCall(call);
  const started = Date.now();
  let usage = NO_USAGE;
  let problem = '';
  for (let round = 1; round <= OUTPUT_ATTEMPTS; round++) {
    const reply = await ask();
    usage = addUsage(usage, reply.usage);
    if (reply.kind === 'declined') {
      meter.record(usage, attempts(), started);
      return { kind: 'declined', usage, model };
    }
    if (reply.kind === 'unusable') {
      problem = reply.problem;
      continue;
    }
    if (!matchesSchema(call.output.schema, reply.value)) {
      problem = reply.mismatch;
      continue;
    }
    meter.record(usage, attempts(), started);
    return { kind: 'output', output: reply.value as T, usage, model };
  }
  throw DomainError.unavailable(LLM_INVALID_RESPONSE, problem);
}

/** What both remote transports share: token accounting and the validated structured call over their `ask`. */
export abstract class RemoteLanguageModel extends LanguageModel {
  readonly configured = true;
  private meterOfModel?: UsageMeter;

  /** Tokens consumed by this adapter's successful calls so far (a copy). */
  tokenUsage(): TokenUsageTotals {
    return this.meter().snapshot();
  }

  complete<T>(call: StructuredCall): Promise<StructuredResult<T>> {
    const attempts = { count: 0 };
    return completeWithValidation<T>(call, this.name, this.meter(), () => this.ask(call, attempts), () => attempts.count);
  }

  /** One call to the provider (with its transport retries, counted in `attempts`), read into a reply. */
  protected abstract ask(call: StructuredCall, attempts: { count: number }): Promise<ModelReply>;

  private meter(): UsageMeter {
    this.meterOfModel ??= new UsageMeter(this.name);
    return this.meterOfModel;
  }
}
