import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { isDomainError } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { AnthropicLanguageModel, AnthropicLanguageModelOptions } from './anthropic.language-model';
import { FakeAnthropicMessagesServer } from './testing/anthropic-messages.server';
import { Delay, DELAY_OUTPUT, DELAY_SYSTEM, delayCall, outputOf, serveDelays } from './testing/structured-call.fixture';

const KEY = 'sk-ant-test-0123456789abcdef';
const CALL = delayCall();

describe('AnthropicLanguageModel against a local Messages API server', () => {
  const server = new FakeAnthropicMessagesServer();
  const url = serveDelays(server);
  const model = (options: Partial<AnthropicLanguageModelOptions> = {}) =>
    new AnthropicLanguageModel({ apiKey: KEY, baseUrl: url(), model: 'claude-sonnet-4-6', timeoutMs: 2000, maxRetries: 2, ...options });
  const complete = (llm = model(), call = CALL) => llm.complete<Delay>(call);


  it('sends one Messages call: key and version headers, cached system text, the output schema as one forced tool', async () => {
    server.expectedApiKey = KEY;
    const result = await complete();
    expect(outputOf(result)).toEqual({ days: 30, unit: 'days', quote: '30 days' });
    expect(result.model).toBe('anthropic:claude-sonnet-4-6');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    // SDK 1.x speaks API version 2026-10-21 and sends the key as a bearer token, not as x-api-key.
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', apiKey: KEY, authorization: `Bearer ${KEY}`, anthropicVersion: '2026-10-21', retryCount: 0 });
    expect(request.xApiKey).toBeUndefined();
    const body = request.body;
    expect(body.model).toBe('claude-sonnet-4-6');
    expect(body.max_tokens).toBe(1024);
    expect(body.system).toEqual([{ type: 'text', text: DELAY_SYSTEM, cache_control: { type: 'ephemeral' } }]);
    expect(body.tools).toEqual([{ name: 'submit_delay', description: DELAY_OUTPUT.description, input_schema: DELAY_OUTPUT.schema }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'submit_delay', disable_parallel_tool_use: true });
    // API version 2026-10-21 rejects sampling parameters, even at their defaults.
    expect([body.temperature, body.top_p, body.top_k]).toEqual([undefined, undefined, undefined]);
    expect(body.messages).toEqual([{ role: 'user', content: 'Refunds are processed within 30 days of the request.' }]);
  });

  it('sends the whole conversation and the call’s output budget', async () => {
    const call = { ...CALL, maxTokens: 300, messages: [...CALL.messages, { role: 'assistant' as const, content: 'Which delay?' }, { role: 'user' as const, content: 'Within 14 days.' }] };
    await complete(model(), call);
    expect(server.requests[0].body.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(server.requests[0].body.max_tokens).toBe(300);
  });

  it('reports each call’s tokens and sums them: the cached system text is written once, then read', async () => {
    const llm = model();
    const longSystem = `${DELAY_SYSTEM}\n${'Policies are written by the company. '.repeat(120)}`;
    const first = await llm.complete<Delay>({ ...CALL, system: longSystem });
    const second = await llm.complete<Delay>({ ...delayCall('Gift cards expire after 365 days.'), system: longSystem });
    expect(first.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), cacheReadTokens: 0, cacheWriteTokens: expect.any(Number) });
    expect(first.usage.cacheWriteTokens).toBeGreaterThan(500);
    expect(second.usage.cacheReadTokens).toBe(first.usage.cacheWriteTokens);
    expect(second.usage.cacheWriteTokens).toBe(0);
    const usage = [first.usage, second.usage];
    const sum = (pick: (u: (typeof usage)[number]) => number | undefined) => usage.reduce((s, u) => s + (pick(u) ?? 0), 0);
    expect(llm.tokenUsage()).toEqual({
      requests: 2,
      inputTokens: sum((u) => u.inputTokens),
      outputTokens: sum((u) => u.outputTokens),
      cacheReadTokens: sum((u) => u.cacheReadTokens),
      cacheWriteTokens: sum((u) => u.cacheWriteTokens),
    });
    expect(llm.tokenUsage().inputTokens).toBeGreaterThan(0);
    // A copy: callers cannot change the counters.
    llm.tokenUsage().requests = 99;
    expect(llm.tokenUsage().requests).toBe(2);
  });

  it('refuses a call without messages or with a bad output name, without calling', async () => {
    for (const call of [{ ...CALL, messages: [] }, { ...CALL, messages: [{ role: 'user' as const, content: '  ' }] }, { ...CALL, output: { ...DELAY_OUTPUT, name: 'submit delay!' } }]) {
      const error = await domainErrorOf(complete(model(), call));
      expect([error.kind, error.code]).toEqual(['invalid', 'LLM.INVALID_REQUEST']);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('retries after a 429 and succeeds', async () => {
    server.script.push(FakeAnthropicMessagesServer.rateLimited(7));
    expect(outputOf(await complete()).days).toBe(30);
    expect(server.requests.map((r) => r.retryCount)).toEqual([0, 1]);
  });

  it('reports a model that stays overloaded (529) as unavailable, with the retry-after it asked for', async () => {
    server.script.push(...Array.from({ length: 3 }, () => FakeAnthropicMessagesServer.overloaded(7)));
    const error = await domainErrorOf(complete(model({ maxRetries: 2 })));
    expect([error.kind, error.code, error.retryAfterSeconds]).toEqual(['unavailable', 'LLM.UNAVAILABLE', 7]);
    expect(error.message).toBe('The language model is unavailable (HTTP 529 overloaded_error, 3 attempts).');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after its retries on persistent 500s; retry-after-ms counts too, 5 s is the default', async () => {
    server.script.push(...Array.from({ length: 2 }, () => FakeAnthropicMessagesServer.serverError()));
    const error = await domainErrorOf(complete(model({ maxRetries: 1 })));
    expect([error.kind, error.code, error.retryAfterSeconds]).toEqual(['unavailable', 'LLM.UNAVAILABLE', 1]);
    expect(error.message).toBe('The language model is unavailable (HTTP 500 api_error, 2 attempts).');
    server.script.push({ status: 503, errorType: 'api_error' });
    const noHint = await domainErrorOf(complete(model({ maxRetries: 0 })));
    expect(noHint.retryAfterSeconds).toBe(5);
  });

  it('does not retry a refused key, and never repeats it', async () => {
    server.expectedApiKey = 'sk-ant-the-right-one';
    const wrongKey = await domainErrorOf(complete());
    expect([wrongKey.kind, wrongKey.code]).toEqual(['unavailable', 'LLM.REQUEST_REFUSED']);
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.script.push(FakeAnthropicMessagesServer.unauthorized(`invalid x-api-key: ${KEY}`));
    const error = await domainErrorOf(complete());
    expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.REQUEST_REFUSED']);
    expect(error.message).toBe('The language model refused the request (HTTP 401 authentication_error): check ANTHROPIC_API_KEY.');
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    const everything = JSON.stringify({ message: error.message, hint: error.hint, cause: String(error.cause), errors: error.errors });
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(url());
    expect(String(error.cause)).toMatch(/AuthenticationError 401 authentication_error \(request req_fake_\d+\)/);
  });

  it('reports a malformed request as an internal refusal, and an unknown model as a configuration problem', async () => {
    server.script.push({ status: 400, errorType: 'invalid_request_error', message: 'messages: field required' });
    const bad = await domainErrorOf(complete());
    expect([bad.kind, bad.code, bad.message]).toEqual(['internal', 'LLM.REQUEST_REFUSED', 'The language model refused the request (HTTP 400 invalid_request_error).']);
    server.script.push({ status: 404, errorType: 'not_found_error', message: 'model: claude-nope' });
    const missing = await domainErrorOf(complete());
    expect([missing.kind, missing.message]).toEqual(['unavailable', 'The language model refused the request (HTTP 404 not_found_error): check ANTHROPIC_MODEL and ANTHROPIC_BASE_URL.']);
  });

  it('times out an attempt that gets no answer, retries, then reports unavailable', async () => {
    server.script.push('hang', 'hang');
    const started = Date.now();
    const error = await domainErrorOf(complete(model({ timeoutMs: 200, maxRetries: 1 })));
    expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.UNAVAILABLE']);
    expect(error.message).toBe('The language model did not answer within 200 ms (2 attempts).');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('recovers when a timed-out attempt is followed by an answer', async () => {
    server.script.push('hang');
    // 1 s: the hang times out whatever the limit; the answer after it must not, even on a busy machine.
    expect(outputOf(await complete(model({ timeoutMs: 1000, maxRetries: 1 }))).days).toBe(30);
  });

  it('reports an unreachable server as unavailable after its retries', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await domainErrorOf(complete(model({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 })));
    expect([error.code, error.message, error.retryAfterSeconds]).toEqual(['LLM.UNAVAILABLE', 'The language model is unreachable (2 attempts).', 5]);
  });

  it('asks once more when the tool input does not match the schema, and uses the second answer', async () => {
    server.script.push({ toolInput: { days: '30', unit: 'days', quote: '30 days' } });
    const llm = model();
    const result = await complete(llm);
    expect(outputOf(result).days).toBe(30);
    expect(server.requests).toHaveLength(2);
    // Both calls' tokens count: the malformed answer was paid for too.
    expect(llm.tokenUsage().requests).toBe(1);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('turns replies that stay unusable into LLM.INVALID_RESPONSE, never a crash, never a stored output', async () => {
    const malformed = [
      { toolInput: 'the delay is 30 days' },
      { toolInput: { days: 30, unit: 'months', quote: '30 days' } },
      { toolInput: { days: -1, unit: 'days', quote: '30 days' } },
      { toolInput: { days: 30, unit: 'days' } },
      { toolInput: { days: 30, unit: 'days', quote: '30 days', extra: true } },
    ];
    for (const reply of malformed) {
      server.script.push(reply, reply);
      const error = await domainErrorOf(complete());
      expect([error.kind, error.code, error.message]).toEqual(['unavailable', 'LLM.INVALID_RESPONSE', 'The language model called submit_delay with input that does not match its schema.']);
    }
    server.script.push('text-only', 'text-only');
    expect((await domainErrorOf(complete())).message).toBe('The language model gave no usable answer: it stopped (end_turn) without calling submit_delay.');
    server.script.push('max-tokens', 'max-tokens');
    expect((await domainErrorOf(complete())).message).toBe('The language model gave no usable answer: it ran out of output tokens.');
    server.script.push({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy login</html>' });
    expect((await domainErrorOf(complete())).message).toBe('The language model answered with something other than a message.');
    server.script.push({ status: 200, body: JSON.stringify({ data: [] }) });
    expect((await domainErrorOf(complete())).code).toBe('LLM.INVALID_RESPONSE');
    server.script.push({ status: 200, body: '{"truncated": ' });
    expect((await domainErrorOf(complete())).kind).toBe('unavailable');
  });

  it('reports a refusal as a declined call, with its tokens', async () => {
    server.script.push('refusal');
    const result = await complete();
    expect(result).toEqual({ kind: 'declined', usage: expect.objectContaining({ inputTokens: expect.any(Number) }), model: 'anthropic:claude-sonnet-4-6' });
  });

  it('lets models that think first choose the tool themselves, and reads the tool call after their text', async () => {
    expect(outputOf(await complete(model({ model: 'claude-sonnet-5-5' }))).days).toBe(30);
    expect(server.requests[0].body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(server.requests[0].body.max_tokens).toBe(8192);
  });

  it('switches to an unforced tool choice once when a model refuses the forced one, and remembers it', async () => {
    server.rejectsForcedToolChoice = true;
    const llm = model({ model: 'claude-future-1' });
    expect(outputOf(await complete(llm)).days).toBe(30);
    expect(outputOf(await complete(llm)).days).toBe(30);
    expect(server.requests.map((r) => r.body.tool_choice?.type)).toEqual(['tool', 'auto', 'auto']);
    expect(llm.tokenUsage().requests).toBe(2);
  });

  it('refuses a base URL carrying credentials and a missing key, without repeating them', () => {
    for (const options of [{ baseUrl: 'https://user:hunter2@api.example.com' }, { baseUrl: 'ftp://api.example.com' }, { apiKey: ' ' }]) {
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

  describe('Message Batches', () => {
    const texts = ['Refunds are processed within 30 days.', 'Gift cards expire after 365 days.', 'Returns are accepted within 14 days.', 'Exchanges take 7 days.'];
    const calls = texts.map((text, i) => ({ id: `c${i}`, call: delayCall(text) }));

    it('submits every call as the request complete would send, under its id, and reads the results once the batch has ended', async () => {
      server.expectedApiKey = KEY;
      server.batchPollsInProgress = 1;
      const llm = model();
      const batchId = await llm.batches.submit(calls);
      expect(batchId).toMatch(/^msgbatch_/);
      const [create] = server.requests;
      expect(create).toMatchObject({ method: 'POST', path: '/v1/messages/batches', apiKey: KEY });
      const sent = (create.body as unknown as { requests: { custom_id: string; params: Record<string, unknown> }[] }).requests;
      expect(sent.map((r) => r.custom_id)).toEqual(['c0', 'c1', 'c2', 'c3']);
      expect(sent[0].params).toMatchObject({
        model: 'claude-sonnet-4-6',
        max_tokens: 1024,
        system: [{ type: 'text', text: DELAY_SYSTEM, cache_control: { type: 'ephemeral' } }],
        tools: [{ name: 'submit_delay', input_schema: DELAY_OUTPUT.schema }],
        tool_choice: { type: 'tool', name: 'submit_delay', disable_parallel_tool_use: true },
        messages: [{ role: 'user', content: texts[0] }],
      });

      expect(await llm.batches.poll<Delay>(batchId, DELAY_OUTPUT)).toEqual({ ended: false, answered: 0, total: 4 });
      const ended = await llm.batches.poll<Delay>(batchId, DELAY_OUTPUT);
      if (!ended.ended) throw new Error('the batch should have ended');
      expect([...ended.results.keys()].sort()).toEqual(['c0', 'c1', 'c2', 'c3']);
      expect(ended.results.get('c1')).toEqual({ kind: 'output', output: { days: 365, unit: 'days', quote: '365 days' }, usage: expect.objectContaining({ inputTokens: expect.any(Number) }) });
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /v1/messages/batches',
        `GET /v1/messages/batches/${batchId}`,
        `GET /v1/messages/batches/${batchId}`,
        `GET /v1/messages/batches/${batchId}`,
        `GET /v1/messages/batches/${batchId}/results`,
      ]);
    });

    it('reads errored, expired and canceled requests, refusals and answers off the schema as failed or declined, never asking again', async () => {
      server.batchScript.set('c0', 'errored');
      server.batchScript.set('c1', 'expired');
      server.batchScript.set('c2', { toolInput: { days: -3, unit: 'fortnights', quote: '' } });
      server.batchScript.set('c3', 'refusal');
      const llm = model();
      const state = await llm.batches.poll<Delay>(await llm.batches.submit(calls), DELAY_OUTPUT);
      if (!state.ended) throw new Error('the batch should have ended');
      expect(state.results.get('c0')).toEqual({ kind: 'failed', problem: 'The batch request failed (invalid_request_error).' });
      expect(state.results.get('c1')).toEqual({ kind: 'failed', problem: 'The batch request was expired.' });
      expect(state.results.get('c2')).toEqual({ kind: 'failed', problem: 'The language model called submit_delay with input that does not match its schema.' });
      expect(state.results.get('c3')).toMatchObject({ kind: 'declined' });
      expect(server.requests.filter((r) => r.path === '/v1/messages')).toEqual([]);
    });

    it('retries an overloaded API, then reports failures as the port says, without the key', async () => {
      server.script.push(FakeAnthropicMessagesServer.overloaded());
      const llm = model();
      const batchId = await llm.batches.submit(calls);
      expect(server.requests.map((r) => r.retryCount)).toEqual([0, 1]);

      server.script.push(FakeAnthropicMessagesServer.unauthorized(), FakeAnthropicMessagesServer.unauthorized());
      const refused = await domainErrorOf(llm.batches.poll(batchId, DELAY_OUTPUT));
      expect(refused).toMatchObject({ kind: 'unavailable', code: 'LLM.REQUEST_REFUSED' });
      expect(refused.message).toContain('check ANTHROPIC_API_KEY');
      expect(JSON.stringify(refused)).not.toContain(KEY);
      expect((await domainErrorOf(llm.batches.poll('msgbatch_unknown', DELAY_OUTPUT))).code).toBe('LLM.REQUEST_REFUSED');

      server.script.push(...Array.from({ length: 3 }, () => FakeAnthropicMessagesServer.serverError()));
      expect(await domainErrorOf(llm.batches.submit(calls))).toMatchObject({ kind: 'unavailable', code: 'LLM.UNAVAILABLE' });
      expect((await domainErrorOf(llm.batches.submit([{ id: 'not valid!', call: CALL }]))).code).toBe('LLM.INVALID_REQUEST');
      expect((await domainErrorOf(llm.batches.submit([]))).code).toBe('LLM.INVALID_REQUEST');
    });
  });
});
