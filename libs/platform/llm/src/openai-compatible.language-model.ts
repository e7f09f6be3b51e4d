import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, LanguageModelUsage, retryAfterSeconds, StructuredCall } from '@svc/kernel';
import {
  checkedBaseUrl,
  LLM_INVALID_RESPONSE,
  LLM_REQUEST_REFUSED,
  LLM_UNAVAILABLE,
  ModelReply,
  RemoteLanguageModel,
  tokenCount,
} from './structured-output';

export interface OpenAiCompatibleLanguageModelOptions {
  /** API root including the version segment, e.g. `http://127.0.0.1:11434/v1` (Ollama), `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; local servers usually need none. */
  apiKey?: string;
  /** Deadline of one HTTP attempt. Default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt on 408, 409, 429, 5xx, network errors and timeouts. Default 3. */
  maxRetries?: number;
  /** First retry delay, doubled at each retry, jittered. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts, also the cap of a server's Retry-After. Default 8 s. */
  retryMaxDelayMs?: number;
}

const DEFAULT_MAX_TOKENS = 1_024;

interface ChatCompletion {
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } };
}

/** What one HTTP exchange gave: a completion, or a failure worth retrying. */
type Exchange = { completion: ChatCompletion } | Retryable;
/** A failure worth retrying: what happened, how long the server asked to wait (ms, for the next attempt), and its Retry-After for the caller. */
interface Retryable {
  retryable: string;
  waitMs?: number;
  retryAfterSeconds?: number;
}

/**
 * The LanguageModel transport on the chat-completions API that vLLM, Ollama, llama.cpp's server,
 * OpenAI and Azure OpenAI speak (`POST {baseUrl}/chat/completions`). The call's system text is the
 * first message; the output schema goes as `response_format: {type: "json_schema", json_schema:
 * {name, schema, strict: true}}`, so servers with constrained decoding only emit matching JSON. The
 * reply's content is parsed (a Markdown code fence around it is tolerated) and validated against the
 * schema; unusable content (not JSON, not matching, cut by `finish_reason: length`) is asked again
 * once, then reported as `LLM.INVALID_RESPONSE`. A non-null `refusal` is a declined call.
 *
 * Transport: plain `fetch` with a per-attempt deadline; 408, 409, 429, 5xx, connection errors and
 * timeouts are retried `maxRetries` times with exponential backoff (jittered), waiting at least what
 * `retry-after-ms` or `retry-after` asks, within `retryMaxDelayMs`; after them, `LLM.UNAVAILABLE`
 * with `retryAfterSeconds` from the last response. 401/403/404 are `LLM.REQUEST_REFUSED`
 * (`unavailable`: an operator fixes the key, model or URL), another 4xx is `internal` (a bug here).
 * Messages never hold the key, the URL or a response body.
 */
export class OpenAiCompatibleLanguageModel extends RemoteLanguageModel {
  readonly name: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly retryMaxDelayMs: number;

  constructor(private readonly options: OpenAiCompatibleLanguageModelOptions) {
    super();
    this.url = `${checkedBaseUrl(options.baseUrl, 'OPENAI_COMPATIBLE_API_KEY')}/chat/completions`;
    if (!options.model || options.model.trim() === '') {
      throw DomainError.invalid('LLM.MISSING_MODEL', 'The OpenAI-compatible language model needs a model name (OPENAI_COMPATIBLE_MODEL).');
    }
    this.name = `openai-compatible:${options.model}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.retryMaxDelayMs = options.retryMaxDelayMs ?? 8_000;
  }

  /** One chat completion (with retries on overload), read: the JSON content, a refusal, or why it is unusable. */
  protected async ask(call: StructuredCall, attempts: { count: number }): Promise<ModelReply> {
    const completion = await this.withRetries(call, attempts);
    const usage = usageOf(completion);
    const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
    if (!choice || typeof choice !== 'object') {
      // Another API's JSON answered with 200: not a model's reply, so asking again would not help.
      throw DomainError.unavailable(LLM_INVALID_RESPONSE, 'The language model answered with something other than a chat completion.');
    }
    if (typeof choice.message?.refusal === 'string' && choice.message.refusal.trim() !== '') return { kind: 'declined', usage };
    const read = readContent(choice.message?.content, choice.finish_reason);
    if ('problem' in read) return { kind: 'unusable', problem: read.problem, usage };
    return { kind: 'output', value: read.value, usage, mismatch: `The language model answered ${call.output.name} with JSON that does not match its schema.` };
  }

  private async withRetries(call: StructuredCall, attempts: { count: number }): Promise<ChatCompletion> {
    const allowed = this.maxRetries + 1;
    let last: Retryable = { retryable: 'no attempt' };
    for (let attempt = 1; attempt <= allowed; attempt++) {
      attempts.count++;
      const exchange = await this.exchange(call);
      if ('completion' in exchange) return exchange.completion;
      last = exchange;
      if (attempt < allowed) await sleep(this.delayBefore(attempt, exchange.waitMs));
    }
    const tries = `${attempts.count} attempt${attempts.count === 1 ? '' : 's'}`;
    const retryAfterSeconds = last.retryAfterSeconds;
    throw DomainError.unavailable(LLM_UNAVAILABLE, `The language model is unavailable (${last.retryable}, ${tries}).`, retryAfterSeconds !== undefined ? { retryAfterSeconds } : undefined);
  }

  /** One HTTP exchange: a completion, a retryable failure, or a thrown DomainError no retry can fix. */
  private async exchange(call: StructuredCall): Promise<Exchange> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body = {
      model: this.options.model,
      messages: [{ role: 'system', content: call.system }, ...call.messages.map((m) => ({ role: m.role, content: m.content }))],
      response_format: { type: 'json_schema', json_schema: { name: call.output.name, description: call.output.description, schema: call.output.schema, strict: true } },
      max_tokens: call.maxTokens ?? DEFAULT_MAX_TOKENS,
      stream: false,
    };
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      text = await response.text();
    } catch {
      // Decided on the signal, not the error: fetch's errors come from another realm in some runtimes.
      return { retryable: signal.aborted ? `no answer within ${this.timeoutMs} ms` : 'unreachable' };
    }
    const status = response.status;
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      return { retryable: `HTTP ${status}`, ...serverWait(response.headers) };
    }
    if (status >= 400) {
      const hint =
        status === 401 || status === 403 ? ': check OPENAI_COMPATIBLE_API_KEY' : status === 404 ? ': check OPENAI_COMPATIBLE_MODEL and OPENAI_COMPATIBLE_BASE_URL' : '';
      throw new DomainError(hint ? 'unavailable' : 'internal', LLM_REQUEST_REFUSED, `The language model refused the request (HTTP ${status})${hint}.`);
    }
    try {
      const completion = JSON.parse(text) as unknown;
      if (typeof completion === 'object' && completion !== null) return { completion: completion as ChatCompletion };
    } catch {
      // reported below
    }
    throw DomainError.unavailable(LLM_INVALID_RESPONSE, 'The language model answered with something other than a chat completion.');
  }

  /** Exponential backoff with equal jitter; the server's wish wins when longer, within the cap. */
  private delayBefore(retry: number, retryAfterMs: number | undefined): number {
    const ceiling = Math.min(this.retryMaxDelayMs, this.retryBaseDelayMs * 2 ** (retry - 1));
    const backoff = ceiling / 2 + (Math.random() * ceiling) / 2;
    return Math.min(this.retryMaxDelayMs, Math.max(backoff, retryAfterMs ?? 0));
  }
}

/** The JSON value of a reply's content, or why there is none. */
function readContent(content: unknown, finishReason: unknown): { value: unknown } | { problem: string } {
  if (finishReason === 'length') return { problem: 'The language model gave no usable answer: it ran out of output tokens.' };
  if (typeof content !== 'string' || content.trim() === '') return { problem: 'The language model gave no usable answer: its reply is empty.' };
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(content);
  try {
    return { value: JSON.parse(fenced ? fenced[1] : content) };
  } catch {
    return { problem: 'The language model gave no usable answer: its reply is not JSON.' };
  }
}

function usageOf(completion: ChatCompletion): LanguageModelUsage {
  const u = completion.usage;
  return {
    inputTokens: tokenCount(u?.prompt_tokens),
    outputTokens: tokenCount(u?.completion_tokens),
    cacheReadTokens: tokenCount(u?.prompt_tokens_details?.cached_tokens),
    cacheWriteTokens: 0,
  };
}

/**
 * What a 429/5xx asks: the wait before the next attempt (`retry-after-ms`, else `retry-after`), and the
 * Retry-After to report (`retry-after`, else `retry-after-ms` rounded up to whole seconds).
 */
function serverWait(headers: Headers): Pick<Retryable, 'waitMs' | 'retryAfterSeconds'> {
  const millisHeader = headers.get('retry-after-ms');
  const millis = millisHeader && /^\s*\d+(\.\d+)?\s*$/.test(millisHeader) ? Number(millisHeader) : undefined;
  const seconds = retryAfterSeconds(headers.get('retry-after'));
  const waitMs = millis ?? (seconds !== undefined ? seconds * 1000 : undefined);
  const reported = seconds ?? (millis !== undefined ? Math.min(3600, Math.max(1, Math.ceil(millis / 1000))) : undefined);
  return { ...(waitMs !== undefined ? { waitMs } : {}), ...(reported !== undefined ? { retryAfterSeconds: reported } : {}) };
}
