import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer } from '@svc/test-kit';

/** What the server does with one request; requests beyond the script get `ok`. */
export type ScriptedReply =
  /** A message whose tool call holds the responder's answer. */
  | 'ok'
  /** Never answers (the client's timeout must fire). */
  | 'hang'
  /** A text block and `end_turn`: the model did not call the tool. */
  | 'text-only'
  /** `max_tokens` before the tool call. */
  | 'max-tokens'
  /** `refusal`: the model declined. */
  | 'refusal'
  /** A tool call with exactly this input (malformed inputs, invented citations...). */
  | { toolInput: unknown }
  /** An error response in the API's shape (`{type:'error', error:{type, message}}`), or any raw body. */
  | { status: number; errorType?: string; message?: string; headers?: Record<string, string>; body?: string };

/** How the server answers one request of a batch, by `custom_id`; others are answered as `/v1/messages` would. */
export type BatchScriptedResult = 'errored' | 'expired' | 'canceled' | 'refusal' | 'text-only' | { toolInput: unknown };

/** A batch the server holds: its requests, and how many polls it stays in progress. */
interface FakeBatch {
  id: string;
  requests: { custom_id: string; params: MessagesRequestBody }[];
  pollsLeft: number;
  createdAt: string;
}

interface SystemBlock {
  type: string;
  text: string;
  cache_control?: { type: string; ttl?: string };
}

/** The parts of a Messages API request the tests look at. */
export interface MessagesRequestBody {
  model?: string;
  max_tokens?: number;
  system?: string | SystemBlock[];
  tools?: { name: string; description?: string; input_schema?: JsonSchema }[];
  tool_choice?: { type: string; name?: string; disable_parallel_tool_use?: boolean };
  messages?: { role: string; content: string | { type: string; text?: string }[] }[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
}

export interface RecordedMessagesRequest {
  method: string;
  path: string;
  /** The key the request authenticated with: `Authorization: Bearer <key>` (SDK 1.x) or `x-api-key` (older clients). */
  apiKey?: string;
  authorization?: string;
  xApiKey?: string;
  anthropicVersion?: string;
  /** `x-stainless-retry-count`: 0 for a first attempt, n for the n-th retry. */
  retryCount?: number;
  body: MessagesRequestBody;
}

/**
 * How the server's model answers a request it does not fail: the tool input for the forced (or first)
 * tool, from the request body and its user text. The default fills the tool's input schema with
 * placeholder values (see `sampleOf`); tests that need meaningful answers set their own.
 */
export type MessagesResponder = (body: MessagesRequestBody, userText: string) => unknown;

/** About four characters a token, like the API's tokenizers on English prose. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * A local HTTP server speaking Anthropic's Messages API (`POST /v1/messages`), for tests. It calls
 * the requested tool with what `respond` gives (a text block first when the tool is not forced, as
 * thinking models do). It simulates prompt caching (the system blocks and tools up to
 * a `cache_control` mark are written once, then read) and reports usage. Failures are scripted:
 * 429 with `retry-after`, 529 `overloaded_error`, 500, 401 (scripted, or for a key other than
 * `expectedApiKey`), silence, malformed tool input. Every request is recorded (headers included) so
 * tests can assert on what the client sent and how often.
 */
export class FakeAnthropicMessagesServer extends LocalHttpServer {
  readonly requests: RecordedMessagesRequest[] = [];
  readonly script: ScriptedReply[] = [];
  /** When true, a forced `tool_choice` is refused with a 400, like models that think before answering. */
  rejectsForcedToolChoice = false;
  /** When set, a request authenticated with another key (or none) gets a 401 `authentication_error`. */
  expectedApiKey?: string;
  /** The model's answers; reset to placeholder values matching the tool's schema. */
  respond: MessagesResponder = sampleResponder;
  /** Message Batches: how many retrieves answer `in_progress` before a batch has ended. */
  batchPollsInProgress = 0;
  /** Message Batches: scripted results by `custom_id`. */
  readonly batchScript = new Map<string, BatchScriptedResult>();
  /** Message Batches created so far, by id. */
  readonly batches = new Map<string, FakeBatch>();
  private readonly cachedPrefixes = new Set<string>();
  private sequence = 0;
  private baseUrl = '';

  /** A 429 asking for `retryAfterSeconds`; `retry-after-ms` makes the SDK itself wait only 10 ms. */
  static rateLimited(retryAfterSeconds: number): ScriptedReply {
    return { status: 429, errorType: 'rate_limit_error', message: 'Rate limited', headers: { 'retry-after': String(retryAfterSeconds), 'retry-after-ms': '10' } };
  }

  static overloaded(retryAfterSeconds?: number): ScriptedReply {
    const headers: Record<string, string> = { 'retry-after-ms': '10' };
    if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
    return { status: 529, errorType: 'overloaded_error', message: 'Overloaded', headers };
  }

  static serverError(): ScriptedReply {
    return { status: 500, errorType: 'api_error', message: 'Internal server error', headers: { 'retry-after-ms': '10' } };
  }

  static unauthorized(message = 'invalid x-api-key'): ScriptedReply {
    return { status: 401, errorType: 'authentication_error', message };
  }

  /** Listens on 127.0.0.1, on a free port; returns the base URL to configure (without `/v1`). */
  async start(): Promise<string> {
    this.baseUrl = await this.listen('');
    return this.baseUrl;
  }

  /** Forgets requests, script, cache and settings between tests. */
  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    this.cachedPrefixes.clear();
    this.rejectsForcedToolChoice = false;
    this.expectedApiKey = undefined;
    this.respond = sampleResponder;
    this.batchPollsInProgress = 0;
    this.batchScript.clear();
    this.batches.clear();
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A body that is not JSON is recorded as empty: the test asserts on it.
    const body = await this.readJson<MessagesRequestBody>(req, {});
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const retryCount = header('x-stainless-retry-count');
    const authorization = header('authorization');
    const xApiKey = header('x-api-key');
    const apiKey = xApiKey ?? /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    this.requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      apiKey,
      authorization,
      xApiKey,
      anthropicVersion: header('anthropic-version'),
      retryCount: retryCount === undefined ? undefined : Number(retryCount),
      body,
    });
    const requestId = `req_fake_${++this.sequence}`;
    const path = req.url?.split('?')[0] ?? '';
    const batchPath = /^\/v1\/messages\/batches(?:\/([^/]+)(\/results)?)?$/u.exec(path);
    if (!batchPath && (req.method !== 'POST' || path !== '/v1/messages')) {
      return this.error(res, requestId, { status: 404, errorType: 'not_found_error', message: 'Not found' });
    }
    if (this.expectedApiKey !== undefined && apiKey !== this.expectedApiKey) {
      return this.error(res, requestId, { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' });
    }
    const reply = this.script.shift() ?? 'ok';
    if (reply === 'hang') {
      this.hang(res);
      return;
    }
    if (typeof reply === 'object' && 'status' in reply) return this.error(res, requestId, reply);
    if (batchPath) return this.batchRoute(req.method ?? '', batchPath[1], Boolean(batchPath[2]), body, res, requestId);
    const message = this.messageFor(body, reply);
    if (message.status !== undefined) return this.error(res, requestId, { ...message, status: message.status });
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
    res.end(JSON.stringify(message));
  }

  /** The Message Batches API: create, retrieve (in progress for `batchPollsInProgress` retrieves, then ended), results as JSONL. */
  private batchRoute(method: string, id: string | undefined, results: boolean, body: unknown, res: ServerResponse, requestId: string): void {
    if (method === 'POST' && !id) {
      const requests = (body as { requests?: FakeBatch['requests'] }).requests ?? [];
      const batch: FakeBatch = { id: `msgbatch_fake_${this.sequence}`, requests, pollsLeft: this.batchPollsInProgress, createdAt: new Date().toISOString() };
      this.batches.set(batch.id, batch);
      return this.json(res, requestId, this.batchObject(batch, false));
    }
    const batch = id ? this.batches.get(id) : undefined;
    if (method !== 'GET' || !batch) return this.error(res, requestId, { status: 404, errorType: 'not_found_error', message: 'Not found' });
    if (!results) {
      const ended = batch.pollsLeft <= 0;
      batch.pollsLeft--;
      return this.json(res, requestId, this.batchObject(batch, ended));
    }
    const lines = batch.requests.map((r) => {
      const scripted = this.batchScript.get(r.custom_id);
      if (scripted === 'errored') return { custom_id: r.custom_id, result: { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'scripted' }, request_id: null } } };
      if (scripted === 'expired' || scripted === 'canceled') return { custom_id: r.custom_id, result: { type: scripted } };
      const message = this.messageFor(r.params, scripted ?? 'ok');
      if (message.status !== undefined) return { custom_id: r.custom_id, result: { type: 'errored', error: { type: 'error', error: { type: message.errorType, message: message.message }, request_id: null } } };
      return { custom_id: r.custom_id, result: { type: 'succeeded', message } };
    });
    res.writeHead(200, { 'content-type': 'application/binary', 'request-id': requestId });
    res.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  }

  private batchObject(batch: FakeBatch, ended: boolean) {
    const n = batch.requests.length;
    const failed = (kind: string) => (ended ? batch.requests.filter((r) => this.batchScript.get(r.custom_id) === kind).length : 0);
    const [errored, expired, canceled] = [failed('errored'), failed('expired'), failed('canceled')];
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : 'in_progress',
      request_counts: { processing: ended ? 0 : n, succeeded: ended ? n - errored - expired - canceled : 0, errored, canceled, expired },
      created_at: batch.createdAt,
      ended_at: ended ? new Date().toISOString() : null,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${this.baseUrl}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  private json(res: ServerResponse, requestId: string, body: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
    res.end(JSON.stringify(body));
  }

  /** The message the model answers `body` with (or the 400 of a refused forced tool choice). */
  private messageFor(body: MessagesRequestBody, reply: Exclude<ScriptedReply, 'hang' | { status: number }> | BatchScriptedResult) {
    if (this.rejectsForcedToolChoice && body.tool_choice?.type === 'tool') {
      return {
        status: 400,
        errorType: 'invalid_request_error',
        message: 'Forced tool use is not supported for this model: use tool_choice "auto" or "none".',
      };
    }
    const prompt = userText(body);
    const forced = body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'any';
    const toolName = body.tool_choice?.name ?? body.tools?.[0]?.name ?? 'unnamed_tool';
    const content: unknown[] = [];
    let stopReason = 'tool_use';
    if (reply === 'text-only') {
      content.push({ type: 'text', text: 'I think the refund takes about a month.', citations: null });
      stopReason = 'end_turn';
    } else if (reply === 'max-tokens') {
      content.push({ type: 'text', text: 'Let me look at the excerpts', citations: null });
      stopReason = 'max_tokens';
    } else if (reply === 'refusal') {
      stopReason = 'refusal';
    } else {
      if (!forced) content.push({ type: 'text', text: 'Reading the excerpts.', citations: null });
      const input = typeof reply === 'object' && 'toolInput' in reply ? reply.toolInput : this.respond(body, prompt);
      content.push({ type: 'tool_use', id: `toolu_fake_${this.sequence}`, name: toolName, input, caller: { type: 'direct' } });
    }
    return {
      id: `msg_fake_${this.sequence}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'unknown',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      container: null,
      usage: { ...this.usage(body, prompt), output_tokens: tokensOf(JSON.stringify(content)) },
    };
  }

  /** Input tokens, split as the API does between the cached prefix (written once, then read) and the rest. */
  private usage(body: MessagesRequestBody, prompt: string) {
    const system = Array.isArray(body.system) ? body.system : body.system ? [{ type: 'text', text: body.system }] : [];
    const marked = system.findLastIndex((b) => b.cache_control?.type === 'ephemeral');
    const prefix = marked >= 0 ? JSON.stringify({ tools: body.tools ?? [], system: system.slice(0, marked + 1) }) : '';
    const rest = JSON.stringify({ system: system.slice(marked + 1), messages: body.messages ?? [] }) + (marked >= 0 ? '' : JSON.stringify(body.tools ?? []));
    const prefixTokens = tokensOf(prefix);
    const hit = prefix !== '' && this.cachedPrefixes.has(`${body.model}\n${prefix}`);
    if (prefix !== '') this.cachedPrefixes.add(`${body.model}\n${prefix}`);
    return {
      input_tokens: tokensOf(rest) || tokensOf(prompt),
      cache_creation_input_tokens: prefix !== '' && !hit ? prefixTokens : 0,
      cache_read_input_tokens: hit ? prefixTokens : 0,
      cache_creation: null,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    };
  }

  private error(res: ServerResponse, requestId: string, reply: { status: number; errorType?: string; message?: string; headers?: Record<string, string>; body?: string }): void {
    res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': requestId, ...reply.headers });
    res.end(
      reply.body ??
        JSON.stringify({ type: 'error', error: { type: reply.errorType ?? 'api_error', message: reply.message ?? 'scripted failure' }, request_id: requestId }),
    );
  }
}

function userText(body: MessagesRequestBody): string {
  const user = body.messages?.find((m) => m.role === 'user');
  if (!user) return '';
  return typeof user.content === 'string' ? user.content : user.content.map((b) => b.text ?? '').join('\n');
}

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
}

/** A value matching a (simple) JSON Schema: first enum value, minimum or 0, '', [], and every property. */
export function sampleOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return null;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]));
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function sampleResponder(body: MessagesRequestBody): unknown {
  const name = body.tool_choice?.name ?? body.tools?.[0]?.name;
  return sampleOf(body.tools?.find((t) => t.name === name)?.input_schema);
}
