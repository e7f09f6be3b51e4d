import { Logger } from '@nestjs/common';
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, type Middleware } from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { AnswerExcerpt, AnswerRequest, DomainError, GroundedAnswer, isDomainError, LanguageModel, LanguageModelUsage, retryAfterSeconds } from '@svc/kernel';
import { ANSWER_SYSTEM_PROMPT, ANSWER_TOOL, ANSWER_TOOL_NAME, orderedExcerpts, readAnswerToolInput, renderAnswerPrompt } from './answer-prompt';
import { noAnswer, requestedLanguage, validateAnswerRequest } from './answer-request';
import { guessLanguage } from './text-analysis';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/**
 * Sonnet 4.6: accepts a forced tool choice and runs without thinking unless asked, so one short call
 * answers. Newer models work too (see `acceptsForcedToolChoice`); set ANTHROPIC_MODEL.
 */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_LLM_TIMEOUT_MS = 10_000;
export const DEFAULT_LLM_MAX_RETRIES = 3;

export const LLM_UNAVAILABLE = 'LLM.UNAVAILABLE';
export const LLM_INVALID_RESPONSE = 'LLM.INVALID_RESPONSE';
export const LLM_REQUEST_REFUSED = 'LLM.REQUEST_REFUSED';

/** Excerpts sent at most (the best ones), and characters of one excerpt: a bound on the cost of one call. */
export const MAX_PROMPT_EXCERPTS = 40;
export const MAX_EXCERPT_CHARS = 8_000;
/** Output budget: an answer of a few sentences with its reason; more for models that think first. */
const MAX_TOKENS_FORCED = 1_024;
const MAX_TOKENS_THINKING = 8_192;
/** Confidence kept when the model cited ids it was not given (they are dropped): a sign of a careless answer. */
const INVENTED_CITATION_FACTOR = 0.8;

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

/** Tokens consumed since the adapter was created, successful calls only. */
export interface TokenUsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
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
 * The LanguageModel on Anthropic's Messages API (`@anthropic-ai/sdk`). One call per question: the
 * instructions as a cached system block (`cache_control: ephemeral`; the API caches them once tools
 * and system reach the model's minimum cacheable length, and ignores the mark below it), the question
 * and the excerpts in the user message, and a single tool, `submit_answer`, whose input is the
 * structured answer; `tool_choice` forces it where the model allows.
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
 * Validation: cited ids must be among the excerpts (others are dropped, and the confidence lowered);
 * an answer that cites no given excerpt is discarded as ungrounded; confidence is clamped to 0..1; an
 * empty answer has confidence 0. No excerpts: no call, an empty answer.
 *
 * Accounting: each answer carries the call's `usage` (input, output, cache read, cache write tokens);
 * `tokenUsage()` sums them since the adapter was created (the process, in practice), and each call
 * logs one line (Nest logger, `LanguageModel` context) with its attempts, duration and tokens.
 */
export class AnthropicLanguageModel extends LanguageModel {
  readonly name: string;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly timeoutMs: number;
  private forceToolChoice: boolean;
  private readonly logger = new Logger('LanguageModel');
  private readonly totals: TokenUsageTotals = { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(options: AnthropicLanguageModelOptions) {
    super();
    const baseUrl = (options.baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw DomainError.invalid('LLM.INVALID_BASE_URL', 'The language model URL is not a valid URL.');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
      throw DomainError.invalid(
        'LLM.INVALID_BASE_URL',
        'The language model URL must be http(s) without credentials (put the key in ANTHROPIC_API_KEY).',
      );
    }
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

  /** Tokens consumed by this adapter's successful calls so far (a copy). */
  tokenUsage(): TokenUsageTotals {
    return { ...this.totals };
  }

  async answer(request: AnswerRequest): Promise<GroundedAnswer> {
    validateAnswerRequest(request);
    const language = requestedLanguage(request.language) ?? guessLanguage(request.question);
    if (request.excerpts.length === 0) {
      return noAnswer(language === 'fr' ? "Aucun extrait n'a été fourni : il n'y a rien sur quoi répondre." : 'No excerpts were given, so there is nothing to answer from.');
    }
    const excerpts = orderedExcerpts(request)
      .slice(0, MAX_PROMPT_EXCERPTS)
      .map((e) => (e.text.length > MAX_EXCERPT_CHARS ? { ...e, text: `${e.text.slice(0, MAX_EXCERPT_CHARS)}…` } : e));
    const prompt = renderAnswerPrompt(request.question, excerpts, request.language?.trim() || undefined);

    const attempts = { count: 0 };
    const started = Date.now();
    let message: Message;
    try {
      message = await this.send(prompt, this.forceToolChoice, attempts);
    } catch (error) {
      if (!(this.forceToolChoice && isForcedToolChoiceRefusal(error))) throw this.failure(error, attempts.count);
      this.forceToolChoice = false;
      try {
        message = await this.send(prompt, false, attempts);
      } catch (again) {
        throw this.failure(again, attempts.count);
      }
    }
    const usage = this.account(message);
    // Cost accounting for operators: one line per answered call, tokens only (never the prompt).
    this.logger.log(
      `${this.name}: ${attempts.count} attempt${attempts.count === 1 ? '' : 's'}, ${Date.now() - started} ms, input ${usage.inputTokens} tokens ` +
        `(cache read ${usage.cacheReadTokens ?? 0}, cache write ${usage.cacheWriteTokens ?? 0}), output ${usage.outputTokens} tokens`,
    );
    return this.groundedAnswer(message, excerpts, usage);
  }

  /** One Messages API call, with the SDK's retries; counts the HTTP attempts (retries included). */
  private send(prompt: string, forceTool: boolean, attempts: { count: number }): Promise<Message> {
    const toolChoice: ToolChoice = forceTool
      ? { type: 'tool', name: ANSWER_TOOL_NAME, disable_parallel_tool_use: true }
      : { type: 'auto', disable_parallel_tool_use: true };
    const params: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: forceTool ? MAX_TOKENS_FORCED : MAX_TOKENS_THINKING,
      system: [{ type: 'text', text: ANSWER_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
      tools: [ANSWER_TOOL as Tool],
      tool_choice: toolChoice,
      messages: [{ role: 'user', content: prompt }],
    };
    const countAttempts: Middleware = (request, next) => {
      attempts.count++;
      return next(request);
    };
    return this.client.messages.create(params, { middleware: [countAttempts] });
  }

  private account(message: Message): LanguageModelUsage {
    const u = typeof message === 'object' && message !== null ? message.usage : undefined;
    const usage: LanguageModelUsage = {
      inputTokens: count(u?.input_tokens),
      outputTokens: count(u?.output_tokens),
      cacheReadTokens: count(u?.cache_read_input_tokens),
      cacheWriteTokens: count(u?.cache_creation_input_tokens),
    };
    this.totals.requests++;
    this.totals.inputTokens += usage.inputTokens;
    this.totals.outputTokens += usage.outputTokens;
    this.totals.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.totals.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    return usage;
  }

  private groundedAnswer(message: Message, excerpts: AnswerExcerpt[], usage: LanguageModelUsage): GroundedAnswer {
    if (typeof message !== 'object' || message === null || !Array.isArray(message.content)) {
      // A proxy's HTML page or another API's JSON, answered with 200.
      throw DomainError.unavailable(LLM_INVALID_RESPONSE, 'The language model answered with something other than a message.');
    }
    const call = message.content.find((block) => block?.type === 'tool_use' && block.name === ANSWER_TOOL_NAME);
    if (!call || call.type !== 'tool_use') {
      if (message.stop_reason === 'refusal') return noAnswer('The language model declined to answer this question.', usage);
      const why = message.stop_reason === 'max_tokens' ? 'it ran out of output tokens' : `it stopped (${message.stop_reason ?? 'no reason'}) without calling ${ANSWER_TOOL_NAME}`;
      throw DomainError.unavailable(LLM_INVALID_RESPONSE, `The language model gave no usable answer: ${why}.`);
    }
    const input = readAnswerToolInput(call.input);
    if (!input) {
      throw DomainError.unavailable(LLM_INVALID_RESPONSE, `The language model called ${ANSWER_TOOL_NAME} with input that does not match its schema.`);
    }
    const known = new Set(excerpts.map((e) => e.id));
    const cited = [...new Set(input.cited_excerpt_ids.map((id) => id.trim()))].filter((id) => known.has(id));
    const invented = input.cited_excerpt_ids.some((id) => !known.has(id.trim()));
    const answer = input.answer.trim();
    const reason = input.reason.trim();
    if (answer === '') return noAnswer(reason || 'The excerpts do not answer the question.', usage);
    if (cited.length === 0) {
      return noAnswer('The language model answered without citing any of the given excerpts, so its answer was discarded as ungrounded.', usage);
    }
    const confidence = Math.min(1, Math.max(0, input.confidence)) * (invented ? INVENTED_CITATION_FACTOR : 1);
    return { answer, reason: reason || 'Answered from the cited excerpts.', confidence: Math.round(confidence * 1000) / 1000, citedExcerptIds: cited, usage };
  }

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

function count(n: number | null | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
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
