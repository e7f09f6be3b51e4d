import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, type Middleware } from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { Logger } from '@nestjs/common';
import { BatchCall, BatchCallResult, BatchState, DomainError, isDomainError, LanguageModelBatches, LanguageModelUsage, retryAfterSeconds, StructuredCall, StructuredOutputSpec } from '@svc/kernel';
import {
  addUsage,
  checkedBaseUrl,
  LLM_INVALID_REQUEST,
  LLM_INVALID_RESPONSE,
  LLM_REQUEST_REFUSED,
  LLM_UNAVAILABLE,
  matchesSchema,
  ModelReply,
  NO_USAGE,
  RemoteLanguageModel,
  tokenCount,
  validateCall,
} from './structured-output';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/**
 * Sonnet 4.6: accepts a forced tool choice and runs without thinking unless asked, so one short call
 * answers. Newer models work too (see `acceptsForcedToolChoice`); set ANTHROPIC_MODEL.
 */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_LLM_TIMEOUT_MS = 10_000;
export const DEFAULT_LLM_MAX_RETRIES = 3;

/** Output budget when the call sets none; models that think first get at least the thinking budget. */
const DEFAULT_MAX_TOKENS = 1_024;
const MIN_TOKENS_THINKING = 8_192;

export interface AnthropicLanguageModelOptions {
  apiKey: string;
  /** API root without `/v1` (default https://api.anthropic.com). */
  baseUrl?: string;
  model?: string;
  /** Deadline of one HTTP attempt. Default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, by the SDK, on 408, 409, 429, 5xx (529 overloaded), network errors and timeouts. Default 3. */
  maxRetries?: number;
}

/**
 * Models that reject a forced `tool_choice` with a 400 (they think before answering): Opus 5.5,
 * Sonnet 5.5 and the Fable/Mythos 5.1+ models, per Anthropic's migration guides. They get
 * `tool_choice: auto` and the prompt's instruction to call the tool; should another model refuse the
 * forced choice, the adapter learns it from the 400 and switches once.
 */
export function acceptsForcedToolChoice(model: string): boolean {
  return !/^claude-(?:opus-5-[5-9]|sonnet-5-[5-9]|haiku-5-[5-9]|fable-5-[1-9]|mythos-5-[1-9]|(?:opus|sonnet|haiku|fable|mythos)-[6-9])/.test(model);
}

/**
 * The LanguageModel transport on Anthropic's Messages API (`@anthropic-ai/sdk`). One structured call
 * is one Messages call: the call's system text as a cached block (`cache_control: ephemeral`; the API
 * caches it once tools and system reach the model's minimum cacheable length, and ignores the mark
 * below it), the messages, and a single tool named after the call's output whose `input_schema` is
 * the output schema; `tool_choice` forces it where the model allows. The tool call's input is the
 * output, validated against the schema; a reply without a usable tool call or with input that does
 * not match is asked again once, then reported. `stop_reason: refusal` is a declined call.
 *
 * Transport: the SDK's client with `timeout` (per attempt) and `maxRetries`; it retries 408, 409,
 * 429, 5xx including 529 `overloaded_error`, connection errors and timeouts with exponential backoff
 * (0.5 s doubling to 8 s, jittered), honouring `retry-after`. After them, every failure is a
 * DomainError (see the port): `LLM.UNAVAILABLE` with `retryAfterSeconds` from the last response's
 * `retry-after`; `LLM.REQUEST_REFUSED` for 4xx (`unavailable` for credentials, model and billing,
 * which an operator fixes; `internal` for a malformed request, which is a bug here);
 * `LLM.INVALID_RESPONSE` when the reply has no usable tool call. Messages name the HTTP status and
 * the API's error type at most, never the key, the URL or the body; the cause names the request id.
 *
 * Accounting: each result carries the call's `usage` (input, output, cache read, cache write tokens);
 * `tokenUsage()` sums them since the adapter was created (the process, in practice), and each call
 * logs one line (Nest logger, `LanguageModel` context) with its attempts, duration and tokens.
 */
export class AnthropicLanguageModel extends RemoteLanguageModel {
  readonly name: string;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly timeoutMs: number;
  private forceToolChoice: boolean;
  private readonly logger = new Logger('LanguageModel');

  constructor(options: AnthropicLanguageModelOptions) {
    super();
    const baseUrl = checkedBaseUrl(options.baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL, 'ANTHROPIC_API_KEY');
    if (!options.apiKey || options.apiKey.trim() === '') {
      throw DomainError.invalid('LLM.MISSING_API_KEY', 'The Anthropic language model needs an API key (ANTHROPIC_API_KEY).');
    }
    this.model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
    this.name = `anthropic:${this.model}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    this.forceToolChoice = acceptsForcedToolChoice(this.model);
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: baseUrl,
      timeout: this.timeoutMs,
      maxRetries: Math.max(0, options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES),
      // Failures are mapped and reported by the caller; the SDK's own console lines would bypass the
      // service's logger, and tracing is configured by the platform, not by the environment.
      logLevel: 'off',
      openTelemetry: false,
    });
  }

  /** One Messages call, read: the forced tool's input, a refusal, or why the reply is unusable. */
  protected async ask(call: StructuredCall, attempts: { count: number }): Promise<ModelReply> {
    const message = await this.sendOnce(call, attempts);
    if (typeof message !== 'object' || message === null || !Array.isArray(message.content)) {
      // A proxy's HTML page or another API's JSON, answered with 200: not a model's reply to retry.
      throw DomainError.unavailable(LLM_INVALID_RESPONSE, 'The language model answered with something other than a message.');
    }
    return readMessage(message, call.output);
  }

  /** One Messages call with the SDK's retries, switching once to an unforced tool choice when the model refuses a forced one. */
  private async sendOnce(call: StructuredCall, attempts: { count: number }): Promise<Message> {
    try {
      return await this.send(call, this.forceToolChoice, attempts);
    } catch (error) {
      if (!(this.forceToolChoice && isForcedToolChoiceRefusal(error))) throw this.failure(error, attempts.count);
      this.forceToolChoice = false;
      try {
        return await this.send(call, false, attempts);
      } catch (again) {
        throw this.failure(again, attempts.count);
      }
    }
  }

  /** One Messages API call, with the SDK's retries; counts the HTTP attempts (retries included). */
  private send(call: StructuredCall, forceTool: boolean, attempts: { count: number }): Promise<Message> {
    return this.client.messages.create(this.paramsOf(call, forceTool), { middleware: [countingAttempts(attempts)] });
  }

  /** The Messages request of one call: the system text cached, one tool whose input schema is the output's. */
  private paramsOf(call: StructuredCall, forceTool: boolean): MessageCreateParamsNonStreaming {
    const toolChoice: ToolChoice = forceTool
      ? { type: 'tool', name: call.output.name, disable_parallel_tool_use: true }
      : { type: 'auto', disable_parallel_tool_use: true };
    const maxTokens = call.maxTokens ?? DEFAULT_MAX_TOKENS;
    const tool = { name: call.output.name, description: call.output.description, input_schema: call.output.schema } as Tool;
    const params: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: forceTool ? maxTokens : Math.max(maxTokens, MIN_TOKENS_THINKING),
      system: [{ type: 'text', text: call.system, cache_control: { type: 'ephemeral' } }],
      tools: [tool],
      tool_choice: toolChoice,
      messages: call.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    return params;
  }

  /**
   * Message Batches (`POST /v1/messages/batches`): each call as the request `complete` would send,
   * under its id as `custom_id`. Results are read once the batch has ended, each as `complete` reads
   * a reply, without asking again: a reply without a usable tool call, or whose input does not match
   * the schema, and an errored, expired or canceled request are `failed`. Token usage of the answered
   * calls is recorded (batches are billed at about half the price; the figures are the API's).
   */
  override readonly batches: LanguageModelBatches = {
    submit: async (calls: BatchCall[]): Promise<string> => {
      if (calls.length === 0) throw DomainError.invalid(LLM_INVALID_REQUEST, 'A batch needs at least one call.');
      for (const { id, call } of calls) {
        if (!BATCH_CALL_ID.test(id)) throw DomainError.invalid(LLM_INVALID_REQUEST, `Batch call id "${id}" must match [a-zA-Z0-9_-]{1,64}.`);
        validateCall(call);
      }
      const attempts = { count: 0 };
      try {
        const batch = await this.client.messages.batches.create(
          { requests: calls.map(({ id, call }) => ({ custom_id: id, params: this.paramsOf(call, this.forceToolChoice) })) },
          // A batch of many prompts uploads for longer than one call; a retry after a timeout could create a second batch, so the deadline is generous.
          { middleware: [countingAttempts(attempts)], timeout: Math.max(this.timeoutMs, BATCH_TIMEOUT_MS) },
        );
        this.logger.log({ model: this.name, batch: batch.id, calls: calls.length, attempts: attempts.count }, 'message batch submitted');
        return batch.id;
      } catch (error) {
        throw this.failure(error, attempts.count);
      }
    },
    poll: async <T>(batchId: string, output: StructuredOutputSpec): Promise<BatchState<T>> => {
      const attempts = { count: 0 };
      try {
        const batch = await this.client.messages.batches.retrieve(batchId, {}, { middleware: [countingAttempts(attempts)] });
        const counts = batch.request_counts;
        const answered = counts.succeeded + counts.errored + counts.canceled + counts.expired;
        if (batch.processing_status !== 'ended') return { ended: false, answered, total: answered + counts.processing };
        const results = new Map<string, BatchCallResult<T>>();
        let usage = NO_USAGE;
        for await (const line of await this.client.messages.batches.results(batchId, {}, { middleware: [countingAttempts(attempts)], timeout: Math.max(this.timeoutMs, BATCH_TIMEOUT_MS) })) {
          const result = line.result;
          if (result.type !== 'succeeded') {
            results.set(line.custom_id, { kind: 'failed', problem: `The batch request ${result.type === 'errored' ? `failed (${result.error?.error?.type ?? 'error'})` : `was ${result.type}`}.` });
            continue;
          }
          const reply = readMessage(result.message, output);
          usage = addUsage(usage, reply.usage);
          if (reply.kind === 'declined') results.set(line.custom_id, { kind: 'declined', usage: reply.usage });
          else if (reply.kind === 'unusable') results.set(line.custom_id, { kind: 'failed', problem: reply.problem });
          else if (!matchesSchema(output.schema, reply.value)) results.set(line.custom_id, { kind: 'failed', problem: reply.mismatch });
          else results.set(line.custom_id, { kind: 'output', output: reply.value as T, usage: reply.usage });
        }
        this.logger.log({ model: this.name, batch: batchId, results: results.size, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, 'message batch read');
        return { ended: true, results };
      } catch (error) {
        throw this.failure(error, attempts.count);
      }
    },
  };

  /** The DomainError for a failed call, after the SDK's retries. */
  private failure(error: unknown, attempts: number): DomainError {
    if (isDomainError(error)) return error;
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    if (error instanceof APIConnectionTimeoutError) {
      return DomainError.unavailable(LLM_UNAVAILABLE, `The language model did not answer within ${this.timeoutMs} ms (${tries}).`, { cause: summary(error) });
    }
    if (error instanceof APIConnectionError) {
      return DomainError.unavailable(LLM_UNAVAILABLE, `The language model is unreachable (${tries}).`, { cause: summary(error) });
    }
    if (error instanceof APIError && typeof error.status === 'number') {
      const status = error.status;
      const what = `HTTP ${status}${error.type ? ` ${error.type}` : ''}`;
      if (status === 408 || status === 409 || status === 429 || status >= 500) {
        const retryAfterSeconds = retryAfterOf(error.headers);
        return DomainError.unavailable(LLM_UNAVAILABLE, `The language model is unavailable (${what}, ${tries}).`, {
          ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
          cause: summary(error),
        });
      }
      const hint =
        status === 401 || status === 403
          ? ': check ANTHROPIC_API_KEY'
          : status === 404
            ? ': check ANTHROPIC_MODEL and ANTHROPIC_BASE_URL'
            : status === 402
              ? ": check the Anthropic account's billing"
              : '';
      const kind = hint ? 'unavailable' : 'internal';
      return new DomainError(kind, LLM_REQUEST_REFUSED, `The language model refused the request (${what})${hint}.`, { cause: summary(error) });
    }
    return DomainError.unavailable(LLM_UNAVAILABLE, 'The language model client failed before getting an answer.', { cause: summary(error) });
  }
}

const BATCH_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/u;
/** Deadline of one attempt to upload a batch or download its results (megabytes, not one message). */
const BATCH_TIMEOUT_MS = 120_000;

/** A middleware counting the HTTP attempts of one SDK call (retries included). */
function countingAttempts(attempts: { count: number }): Middleware {
  return (request, next) => {
    attempts.count++;
    return next(request);
  };
}

/** A message, read: the output tool's input, a refusal, or why the reply is unusable. */
function readMessage(message: Message, output: StructuredOutputSpec): ModelReply {
  const usage = usageOf(message);
  if (message.stop_reason === 'refusal') return { kind: 'declined', usage };
  const tool = Array.isArray(message.content) ? message.content.find((block) => block?.type === 'tool_use' && block.name === output.name) : undefined;
  if (!tool || tool.type !== 'tool_use') {
    const problem =
      message.stop_reason === 'max_tokens'
        ? 'The language model gave no usable answer: it ran out of output tokens.'
        : `The language model gave no usable answer: it stopped (${message.stop_reason ?? 'no reason'}) without calling ${output.name}.`;
    return { kind: 'unusable', problem, usage };
  }
  return { kind: 'output', value: tool.input, usage, mismatch: `The language model called ${output.name} with input that does not match its schema.` };
}

function usageOf(message: Message): LanguageModelUsage {
  const u = message.usage;
  return {
    inputTokens: tokenCount(u?.input_tokens),
    outputTokens: tokenCount(u?.output_tokens),
    cacheReadTokens: tokenCount(u?.cache_read_input_tokens),
    cacheWriteTokens: tokenCount(u?.cache_creation_input_tokens),
  };
}

/** A 400 whose message names `tool_choice`: the model does not accept a forced tool. */
function isForcedToolChoiceRefusal(error: unknown): boolean {
  return error instanceof APIError && error.status === 400 && /tool_choice|forced tool/i.test(error.apiMessage ?? '');
}

/**
 * What a failure's cause keeps of an SDK error, for the logs: its class, status, error type and
 * request id (to look the call up with Anthropic), never headers, the API's message or the body.
 */
function summary(error: unknown): Error {
  if (error instanceof APIError) {
    return new Error(`${error.name}${error.status ? ` ${error.status}` : ''}${error.type ? ` ${error.type}` : ''}${error.requestID ? ` (request ${error.requestID})` : ''}`);
  }
  return new Error(error instanceof Error ? error.name : 'unknown error');
}

/** Seconds from `retry-after` (seconds or an HTTP date) or `retry-after-ms`, within 1..3600; undefined when absent. */
function retryAfterOf(headers: Headers | undefined): number | undefined {
  const seconds = retryAfterSeconds(headers?.get('retry-after'));
  if (seconds !== undefined) return seconds;
  const millis = headers?.get('retry-after-ms');
  return millis && /^\s*\d+(\.\d+)?\s*$/.test(millis) ? Math.min(3600, Math.max(1, Math.ceil(Number(millis) / 1000))) : undefined;
}
