import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer } from '@svc/test-kit';
import { JsonSchema, sampleOf } from './anthropic-messages.server';

/** What the server does with one request; requests beyond the script get `ok`. */
export type ChatScriptedReply =
  /** A completion whose content is the responder's answer as JSON. */
  | 'ok'
  /** Never answers (the client's timeout must fire). */
  | 'hang'
  /** `finish_reason: length`, content cut mid-JSON. */
  | 'length'
  /** A refusal (OpenAI's structured-output refusal field). */
  | 'refusal'
  /** A completion with exactly this content string (prose, fenced JSON, JSON of the wrong shape...). */
  | { content: string }
  /** An error response in OpenAI's shape (`{error:{message, type, code}}`), or any raw body. */
  | { status: number; message?: string; headers?: Record<string, string>; body?: string };

export interface ChatCompletionsRequestBody {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; description?: string; schema?: JsonSchema; strict?: boolean } };
  max_tokens?: number;
  stream?: boolean;
}

export interface RecordedChatRequest {
  method: string;
  path: string;
  authorization?: string;
  body: ChatCompletionsRequestBody;
}

/** The model's answer (a JSON value) to a request it does not fail, from the body and the last user message. */
export type ChatResponder = (body: ChatCompletionsRequestBody, userText: string) => unknown;

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * A local HTTP server speaking the chat-completions API (`POST <base>/chat/completions`) as vLLM,
 * Ollama, llama.cpp's server and OpenAI do, for tests: structured output through `response_format`,
 * `usage` with `prompt_tokens` and `completion_tokens`, and scripted failures (429 with Retry-After,
 * 500/503, 401, silence, cut or refused completions, malformed content). Every request is recorded.
 */
export class FakeChatCompletionsServer extends LocalHttpServer {
  readonly requests: RecordedChatRequest[] = [];
  readonly script: ChatScriptedReply[] = [];
  /** When set, a request with another bearer key (or none) gets a 401. */
  expectedApiKey?: string;
  respond: ChatResponder = sampleChatResponder;
  private sequence = 0;

  /** A 429 asking for `retryAfterSeconds`; `retry-after-ms` makes the client itself wait only 10 ms. */
  static rateLimited(retryAfterSeconds: number): ChatScriptedReply {
    return { status: 429, message: 'Rate limit reached', headers: { 'retry-after': String(retryAfterSeconds), 'retry-after-ms': '10' } };
  }

  static serverError(status = 500): ChatScriptedReply {
    return { status, message: 'The server had an error', headers: { 'retry-after-ms': '10' } };
  }

  /** Listens on 127.0.0.1, on a free port; returns the base URL to configure (with `/v1`). */
  start(): Promise<string> {
    return this.listen('/v1');
  }

  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    this.expectedApiKey = undefined;
    this.respond = sampleChatResponder;
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A body that is not JSON is recorded as empty: the test asserts on it.
    const body = await this.readJson<ChatCompletionsRequestBody>(req, {});
    const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', authorization, body });
    this.sequence++;
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') return this.error(res, { status: 404, message: 'Not found' });
    if (this.expectedApiKey !== undefined && authorization !== `Bearer ${this.expectedApiKey}`) {
      return this.error(res, { status: 401, message: 'Incorrect API key provided' });
    }
    const reply = this.script.shift() ?? 'ok';
    if (reply === 'hang') {
      this.hang(res);
      return;
    }
    if (typeof reply === 'object' && 'status' in reply) return this.error(res, reply);
    const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
    let content: string | null = null;
    let refusal: string | null = null;
    let finish = 'stop';
    if (reply === 'refusal') refusal = "I'm sorry, I can't help with that.";
    else if (reply === 'length') {
      content = '{"answer": "Refunds are processed wit';
      finish = 'length';
    } else content = typeof reply === 'object' ? reply.content : JSON.stringify(this.respond(body, user));
    const prompt = JSON.stringify(body.messages ?? []);
    const completion = {
      id: `chatcmpl-fake-${this.sequence}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'unknown',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: finish, logprobs: null }],
      usage: { prompt_tokens: tokensOf(prompt), completion_tokens: tokensOf(content ?? refusal ?? ''), total_tokens: tokensOf(prompt) + tokensOf(content ?? '') },
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion));
  }

  private error(res: ServerResponse, reply: { status: number; message?: string; headers?: Record<string, string>; body?: string }): void {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body ?? JSON.stringify({ error: { message: reply.message ?? 'scripted failure', type: 'invalid_request_error', code: null } }));
  }
}

function sampleChatResponder(body: ChatCompletionsRequestBody): unknown {
  return sampleOf(body.response_format?.json_schema?.schema);
}
