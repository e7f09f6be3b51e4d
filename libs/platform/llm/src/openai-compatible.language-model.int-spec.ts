import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isDomainError } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { OpenAiCompatibleLanguageModel, OpenAiCompatibleLanguageModelOptions } from './openai-compatible.language-model';
import { FakeChatCompletionsServer } from './testing/chat-completions.server';
import { Delay, DELAY_OUTPUT, DELAY_SYSTEM, delayCall, outputOf, serveDelays } from './testing/structured-call.fixture';

const KEY = 'sk-local-0123456789abcdef';
const CALL = delayCall();

describe('OpenAiCompatibleLanguageModel against a local chat-completions server', () => {
  const server = new FakeChatCompletionsServer();
  const url = serveDelays(server);
  const model = (options: Partial<OpenAiCompatibleLanguageModelOptions> = {}) =>
    new OpenAiCompatibleLanguageModel({ baseUrl: url(), model: 'qwen3-8b', apiKey: KEY, timeoutMs: 2000, maxRetries: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 50, ...options });
  const complete = (llm = model(), call = CALL) => llm.complete<Delay>(call);


  it('sends one chat completion: bearer key, the system text first, the output schema as a strict json_schema response format', async () => {
    server.expectedApiKey = KEY;
    const llm = model();
    const result = await complete(llm);
    expect(outputOf(result)).toEqual({ days: 30, unit: 'days', quote: '30 days' });
    expect(result.model).toBe('openai-compatible:qwen3-8b');
    expect(result.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${KEY}` });
    expect(request.body).toEqual({
      model: 'qwen3-8b',
      messages: [
        { role: 'system', content: DELAY_SYSTEM },
        { role: 'user', content: 'Refunds are processed within 30 days of the request.' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'submit_delay', description: DELAY_OUTPUT.description, schema: DELAY_OUTPUT.schema, strict: true } },
      max_tokens: 1024,
      stream: false,
    });
    expect(llm.tokenUsage()).toMatchObject({ requests: 1, inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens });
  });

  it('sends no authorization header when no key is configured (local servers)', async () => {
    await complete(model({ apiKey: undefined }));
    expect(server.requests[0].authorization).toBeUndefined();
  });

  it('retries after a 429 and succeeds', async () => {
    server.script.push(FakeChatCompletionsServer.rateLimited(7));
    expect(outputOf(await complete()).days).toBe(30);
    expect(server.requests).toHaveLength(2);
  });

  it('reports a server that stays overloaded as unavailable, with the Retry-After it asked for', async () => {
    server.script.push(...Array.from({ length: 3 }, () => FakeChatCompletionsServer.rateLimited(7)));
    const error = await domainErrorOf(complete(model({ maxRetries: 2 })));
    expect([error.kind, error.code, error.retryAfterSeconds, error.message]).toEqual(['unavailable', 'LLM.UNAVAILABLE', 7, 'The language model is unavailable (HTTP 429, 3 attempts).']);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up on persistent 5xx after its retries', async () => {
    server.script.push(FakeChatCompletionsServer.serverError(500), FakeChatCompletionsServer.serverError(503));
    const error = await domainErrorOf(complete(model({ maxRetries: 1 })));
    expect([error.code, error.message]).toEqual(['LLM.UNAVAILABLE', 'The language model is unavailable (HTTP 503, 2 attempts).']);
  });

  it('does not retry a refused key or an unknown model, and never repeats the key or the URL', async () => {
    server.expectedApiKey = 'the-right-one';
    const error = await domainErrorOf(complete());
    expect([error.kind, error.code, error.message]).toEqual(['unavailable', 'LLM.REQUEST_REFUSED', 'The language model refused the request (HTTP 401): check OPENAI_COMPATIBLE_API_KEY.']);
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify({ m: error.message, h: error.hint, c: String(error.cause) })).not.toMatch(new RegExp(`${KEY}|127\\.0\\.0\\.1`));
    server.reset();
    server.script.push({ status: 404, message: 'model "qwen3-8b" not found, try pulling it first' });
    const missing = await domainErrorOf(complete());
    expect(missing.message).toBe('The language model refused the request (HTTP 404): check OPENAI_COMPATIBLE_MODEL and OPENAI_COMPATIBLE_BASE_URL.');
    server.script.push({ status: 400, message: 'response_format: unsupported' });
    expect((await domainErrorOf(complete())).kind).toBe('internal');
  });

  it('times out a silent server, retries, then reports unavailable', async () => {
    server.script.push('hang', 'hang');
    const error = await domainErrorOf(complete(model({ timeoutMs: 200, maxRetries: 1 })));
    expect([error.code, error.message]).toEqual(['LLM.UNAVAILABLE', 'The language model is unavailable (no answer within 200 ms, 2 attempts).']);
  });

  it('reports an unreachable server as unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await domainErrorOf(complete(model({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 })));
    expect([error.code, error.message]).toEqual(['LLM.UNAVAILABLE', 'The language model is unavailable (unreachable, 2 attempts).']);
  });

  it('reads JSON wrapped in a Markdown fence, as small local models write it', async () => {
    server.script.push({ content: '```json\n{"days": 14, "unit": "days", "quote": "14 days"}\n```' });
    expect(outputOf(await complete()).days).toBe(14);
  });

  it('asks once more when the content is unusable, then reports LLM.INVALID_RESPONSE', async () => {
    server.script.push({ content: 'The delay is thirty days.' });
    expect(outputOf(await complete()).days).toBe(30);
    expect(server.requests).toHaveLength(2);
    const cases: [unknown, string][] = [
      [{ content: 'The delay is thirty days.' }, 'The language model gave no usable answer: its reply is not JSON.'],
      [{ content: '{"days": "30", "unit": "days", "quote": "30 days"}' }, 'The language model answered submit_delay with JSON that does not match its schema.'],
      [{ content: '' }, 'The language model gave no usable answer: its reply is empty.'],
      ['length', 'The language model gave no usable answer: it ran out of output tokens.'],
    ];
    for (const [reply, message] of cases) {
      server.script.push(reply as never, reply as never);
      const error = await domainErrorOf(complete());
      expect([error.kind, error.code, error.message]).toEqual(['unavailable', 'LLM.INVALID_RESPONSE', message]);
    }
    server.script.push({ status: 200, body: '<html>proxy login</html>' });
    expect((await domainErrorOf(complete())).message).toBe('The language model answered with something other than a chat completion.');
    server.script.push({ status: 200, body: JSON.stringify({ data: [] }) });
    expect((await domainErrorOf(complete())).code).toBe('LLM.INVALID_RESPONSE');
  });

  it('reports a refusal as a declined call', async () => {
    server.script.push('refusal');
    expect(await complete()).toEqual({ kind: 'declined', usage: expect.any(Object), model: 'openai-compatible:qwen3-8b' });
  });

  it('refuses a base URL with credentials and a missing model', () => {
    for (const options of [{ baseUrl: 'https://user:hunter2@llm.example.com/v1' }, { baseUrl: 'not a url' }, { model: ' ' }]) {
      let error: unknown;
      try {
        model(options);
      } catch (e) {
        error = e;
      }
      expect(isDomainError(error) && error.kind).toBe('invalid');
      expect(String((error as Error).message)).not.toContain('hunter2');
    }
  });
});
