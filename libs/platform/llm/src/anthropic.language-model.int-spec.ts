import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { isDomainError } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { AnthropicLanguageModel, AnthropicLanguageModelOptions, MAX_EXCERPT_CHARS, MAX_PROMPT_EXCERPTS } from './anthropic.language-model';
import { ANSWER_SYSTEM_PROMPT } from './answer-prompt';
import { FakeAnthropicMessagesServer } from './testing/anthropic-messages.server';
import { CONTRACT_EXCERPTS, expectWellFormed, languageModelContract } from './testing/language-model.contract';

const KEY = 'sk-ant-test-0123456789abcdef';
const QUESTION = { question: 'How long does a refund take?', excerpts: CONTRACT_EXCERPTS };


describe('AnthropicLanguageModel against a local Messages API server', () => {
  const server = new FakeAnthropicMessagesServer();
  let baseUrl: string;
  const model = (options: Partial<AnthropicLanguageModelOptions> = {}) =>
    new AnthropicLanguageModel({ apiKey: KEY, baseUrl, model: 'claude-sonnet-4-6', timeoutMs: 2000, maxRetries: 2, ...options });

  beforeAll(async () => {
    // The adapter's per-call accounting lines (asserted end to end) would flood the test output.
    Logger.overrideLogger(false);
    baseUrl = await server.start();
  });
  afterAll(async () => {
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']);
    await server.stop();
  });
  beforeEach(() => server.reset());

  languageModelContract('AnthropicLanguageModel (local Messages API server)', () => model());

  it('sends one Messages call: key and version headers, cached system prompt, one forced tool, excerpts best first', async () => {
    server.expectedApiKey = KEY;
    const answer = await model().answer({ ...QUESTION, excerpts: [...CONTRACT_EXCERPTS].reverse(), language: 'en' });
    expect(answer.answer).toContain('30 days');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    // SDK 1.x speaks API version 2026-10-21 and sends the key as a bearer token, not as x-api-key.
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', apiKey: KEY, authorization: `Bearer ${KEY}`, anthropicVersion: '2026-10-21', retryCount: 0 });
    expect(request.xApiKey).toBeUndefined();
    const body = request.body;
    expect(body.model).toBe('claude-sonnet-4-6');
    expect(body.max_tokens).toBe(1024);
    expect(body.system).toEqual([{ type: 'text', text: ANSWER_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }]);
    expect(body.tools?.map((t) => t.name)).toEqual(['submit_answer']);
    expect(body.tools?.[0].input_schema?.required).toEqual(['answer', 'reason', 'confidence', 'cited_excerpt_ids']);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'submit_answer', disable_parallel_tool_use: true });
    // API version 2026-10-21 rejects sampling parameters, even at their defaults.
    expect([body.temperature, body.top_p, body.top_k]).toEqual([undefined, undefined, undefined]);
    expect(body.messages).toHaveLength(1);
    const prompt = body.messages?.[0].content as string;
    expect(prompt.startsWith('<question>How long does a refund take?</question>')).toBe(true);
    expect(prompt.indexOf('id="kn_refund"')).toBeLessThan(prompt.indexOf('id="kn_hotel"'));
    expect(prompt).toContain('Answer in the language tagged "en"');
  });

  it('reports each call’s tokens and sums them: the cached prompt is written once, then read', async () => {
    const llm = model();
    const first = await llm.answer(QUESTION);
    const second = await llm.answer({ question: 'Are gift cards refundable?', excerpts: CONTRACT_EXCERPTS });
    expect(first.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), cacheReadTokens: 0, cacheWriteTokens: expect.any(Number) });
    expect(first.usage?.cacheWriteTokens).toBeGreaterThan(500);
    expect(second.usage?.cacheReadTokens).toBe(first.usage?.cacheWriteTokens);
    expect(second.usage?.cacheWriteTokens).toBe(0);
    const usage = [first.usage!, second.usage!];
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

  it('makes no call when there are no excerpts', async () => {
    const llm = model();
    expect(await llm.answer({ question: 'How long does a refund take?', excerpts: [] })).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    expect(server.requests).toHaveLength(0);
    expect(llm.tokenUsage().requests).toBe(0);
  });

  it('retries after a 429 and succeeds', async () => {
    server.script.push(FakeAnthropicMessagesServer.rateLimited(7));
    const answer = await model().answer(QUESTION);
    expect(answer.answer).toContain('30 days');
    expect(server.requests.map((r) => r.retryCount)).toEqual([0, 1]);
  });

  it('reports a model that stays overloaded (529) as unavailable, with the retry-after it asked for', async () => {
    server.script.push(...Array.from({ length: 3 }, () => FakeAnthropicMessagesServer.overloaded(7)));
    const error = await domainErrorOf(model({ maxRetries: 2 }).answer(QUESTION));
    expect([error.kind, error.code, error.retryAfterSeconds]).toEqual(['unavailable', 'LLM.UNAVAILABLE', 7]);
    expect(error.message).toBe('The language model is unavailable (HTTP 529 overloaded_error, 3 attempts).');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after its retries on persistent 500s; retry-after-ms counts too, 5 s is the default', async () => {
    server.script.push(...Array.from({ length: 2 }, () => FakeAnthropicMessagesServer.serverError()));
    const error = await domainErrorOf(model({ maxRetries: 1 }).answer(QUESTION));
    expect([error.kind, error.code, error.retryAfterSeconds]).toEqual(['unavailable', 'LLM.UNAVAILABLE', 1]);
    expect(error.message).toBe('The language model is unavailable (HTTP 500 api_error, 2 attempts).');
    server.script.push({ status: 503, errorType: 'api_error' });
    const noHint = await domainErrorOf(model({ maxRetries: 0 }).answer(QUESTION));
    expect(noHint.retryAfterSeconds).toBe(5);
  });

  it('does not retry a refused key, and never repeats it', async () => {
    server.expectedApiKey = 'sk-ant-the-right-one';
    const wrongKey = await domainErrorOf(model().answer(QUESTION));
    expect([wrongKey.kind, wrongKey.code]).toEqual(['unavailable', 'LLM.REQUEST_REFUSED']);
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.script.push(FakeAnthropicMessagesServer.unauthorized(`invalid x-api-key: ${KEY}`));
    const error = await domainErrorOf(model().answer(QUESTION));
    expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.REQUEST_REFUSED']);
    expect(error.message).toBe('The language model refused the request (HTTP 401 authentication_error): check ANTHROPIC_API_KEY.');
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    const everything = JSON.stringify({ message: error.message, hint: error.hint, cause: String(error.cause), errors: error.errors });
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(baseUrl);
    expect(String(error.cause)).toMatch(/AuthenticationError 401 authentication_error \(request req_fake_\d+\)/);
  });

  it('reports a malformed request as an internal refusal, and an unknown model as a configuration problem', async () => {
    server.script.push({ status: 400, errorType: 'invalid_request_error', message: 'messages: field required' });
    const bad = await domainErrorOf(model().answer(QUESTION));
    expect([bad.kind, bad.code, bad.message]).toEqual(['internal', 'LLM.REQUEST_REFUSED', 'The language model refused the request (HTTP 400 invalid_request_error).']);
    server.script.push({ status: 404, errorType: 'not_found_error', message: 'model: claude-nope' });
    const missing = await domainErrorOf(model().answer(QUESTION));
    expect([missing.kind, missing.message]).toEqual(['unavailable', 'The language model refused the request (HTTP 404 not_found_error): check ANTHROPIC_MODEL and ANTHROPIC_BASE_URL.']);
  });

  it('times out an attempt that gets no answer, retries, then reports unavailable', async () => {
    server.script.push('hang', 'hang');
    const started = Date.now();
    const error = await domainErrorOf(model({ timeoutMs: 200, maxRetries: 1 }).answer(QUESTION));
    expect([error.kind, error.code]).toEqual(['unavailable', 'LLM.UNAVAILABLE']);
    expect(error.message).toBe('The language model did not answer within 200 ms (2 attempts).');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('recovers when a timed-out attempt is followed by an answer', async () => {
    server.script.push('hang');
    // 1 s: the hang times out whatever the limit; the answer after it must not, even on a busy machine.
    const answer = await model({ timeoutMs: 1000, maxRetries: 1 }).answer(QUESTION);
    expect(answer.answer).toContain('30 days');
  });

  it('reports an unreachable server as unavailable after its retries', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const error = await domainErrorOf(model({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 }).answer(QUESTION));
    expect([error.code, error.message, error.retryAfterSeconds]).toEqual(['LLM.UNAVAILABLE', 'The language model is unreachable (2 attempts).', 5]);
  });

  it('turns a reply without a usable tool call into LLM.INVALID_RESPONSE, never a crash', async () => {
    const malformed = [
      { toolInput: 'the answer is 30 days' },
      { toolInput: { answer: 42, reason: 'r', confidence: 0.9, cited_excerpt_ids: ['kn_refund'] } },
      { toolInput: { answer: '30 days', reason: 'r', confidence: 'high', cited_excerpt_ids: ['kn_refund'] } },
      { toolInput: { answer: '30 days', reason: 'r', confidence: 0.9 } },
    ];
    for (const reply of malformed) {
      server.script.push(reply);
      const error = await domainErrorOf(model().answer(QUESTION));
      expect([error.kind, error.code, error.message]).toEqual([
        'unavailable',
        'LLM.INVALID_RESPONSE',
        'The language model called submit_answer with input that does not match its schema.',
      ]);
    }
    server.script.push('text-only');
    expect((await domainErrorOf(model().answer(QUESTION))).message).toBe('The language model gave no usable answer: it stopped (end_turn) without calling submit_answer.');
    server.script.push('max-tokens');
    expect((await domainErrorOf(model().answer(QUESTION))).message).toBe('The language model gave no usable answer: it ran out of output tokens.');
    server.script.push({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy login</html>' });
    expect((await domainErrorOf(model().answer(QUESTION))).message).toBe('The language model answered with something other than a message.');
    server.script.push({ status: 200, body: JSON.stringify({ data: [] }) });
    expect((await domainErrorOf(model().answer(QUESTION))).code).toBe('LLM.INVALID_RESPONSE');
    server.script.push({ status: 200, body: '{"truncated": ' });
    expect((await domainErrorOf(model().answer(QUESTION))).kind).toBe('unavailable');
    server.script.push('refusal');
    expect(await model().answer(QUESTION)).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [], reason: 'The language model declined to answer this question.' });
  });

  it('keeps only citations of given excerpts, clamps the confidence, and discards an ungrounded answer', async () => {
    server.script.push({ toolInput: { answer: '30 days.', reason: 'From the policy.', confidence: 1.7, cited_excerpt_ids: ['kn_refund', 'kn_refund', 'kn_invented'] } });
    const invented = await model().answer(QUESTION);
    expect(invented).toMatchObject({ answer: '30 days.', reason: 'From the policy.', confidence: 0.8, citedExcerptIds: ['kn_refund'] });
    expectWellFormed(invented, QUESTION);

    server.script.push({ toolInput: { answer: '  30 days.  ', reason: '', confidence: -3, cited_excerpt_ids: [' kn_refund '] } });
    expect(await model().answer(QUESTION)).toMatchObject({ answer: '30 days.', reason: 'Answered from the cited excerpts.', confidence: 0, citedExcerptIds: ['kn_refund'] });

    server.script.push({ toolInput: { answer: 'Refunds take a month.', reason: 'General knowledge.', confidence: 0.9, cited_excerpt_ids: ['kn_elsewhere'] } });
    const ungrounded = await model().answer(QUESTION);
    expect(ungrounded).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    expect(ungrounded.reason).toBe('The language model answered without citing any of the given excerpts, so its answer was discarded as ungrounded.');
    expect(ungrounded.usage?.inputTokens).toBeGreaterThan(0);

    server.script.push({ toolInput: { answer: '', reason: 'The excerpts do not cover this.', confidence: 0.6, cited_excerpt_ids: ['kn_refund'] } });
    expect(await model().answer(QUESTION)).toMatchObject({ answer: '', reason: 'The excerpts do not cover this.', confidence: 0, citedExcerptIds: [] });
  });

  it('lets models that think first choose the tool themselves, and reads the tool call after their text', async () => {
    const answer = await model({ model: 'claude-sonnet-5-5' }).answer(QUESTION);
    expect(answer.answer).toContain('30 days');
    expect(server.requests[0].body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(server.requests[0].body.max_tokens).toBe(8192);
  });

  it('switches to an unforced tool choice once when a model refuses the forced one, and remembers it', async () => {
    server.rejectsForcedToolChoice = true;
    const llm = model({ model: 'claude-future-1' });
    expect((await llm.answer(QUESTION)).answer).toContain('30 days');
    expect((await llm.answer(QUESTION)).answer).toContain('30 days');
    expect(server.requests.map((r) => r.body.tool_choice?.type)).toEqual(['tool', 'auto', 'auto']);
    expect(llm.tokenUsage().requests).toBe(2);
  });

  it('bounds what it sends: the best excerpts, each cut to a maximum length', async () => {
    const many = Array.from({ length: MAX_PROMPT_EXCERPTS + 5 }, (_, i) => ({
      id: `kn_${String(i).padStart(2, '0')}`,
      documentId: 'doc',
      documentName: 'Handbook',
      text: i === 0 ? `Refunds are processed within 30 days. ${'x'.repeat(MAX_EXCERPT_CHARS + 100)}` : `Policy number ${i}.`,
      score: 1 - i / 100,
    }));
    await model().answer({ question: 'How long does a refund take?', excerpts: many });
    const prompt = server.requests[0].body.messages?.[0].content as string;
    expect(prompt.match(/<excerpt /g)).toHaveLength(MAX_PROMPT_EXCERPTS);
    expect(prompt).toContain('id="kn_00"');
    expect(prompt).not.toContain(`id="kn_${MAX_PROMPT_EXCERPTS}"`);
    expect(prompt).toContain(`${'x'.repeat(100)}…`);
    expect(prompt.length).toBeLessThan(MAX_EXCERPT_CHARS + 5000);
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
});
