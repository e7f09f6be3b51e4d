import { generateApiKey } from '@svc/identity-core';
import { FakeAnthropicMessagesServer } from '@svc/llm/testing';
import { answerExtractively, readAnswerPrompt } from '@svc/repository-core';
import { Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

/**
 * `/api/search/query` with LLM_PROVIDER=anthropic: the retrieval app answers through Anthropic's
 * Messages API, here a local HTTP server that speaks it (its answers come from the excerpts the
 * service sends, so a wrong prompt gives a wrong answer), with its overload, rate-limit, error and
 * silence responses. Embedded only (the rule at BOTH_MODES in @svc/test-kit): the retrieval app answers within the
 * request, through the same adapter, in either mode (no job, no other app); the distributed retrieval app answers
 * in ingestion-and-search, which also checks its value models are loaded before it takes requests.
 */
describe('search answers through the Anthropic Messages API (embedded)', () => {
  const adminKey = generateApiKey();
  const llmKey = `sk-ant-test-${generateApiKey().slice(-24)}`;
  const messages = new FakeAnthropicMessagesServer();
  let service: RunningService;
  let instanceId: string;
  let instanceKey: string;

  const api = (path: string, body: unknown) => post(`${service.urls.retrieval}${path}`, body, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
  const ask = (query: string, user = 'alice') => api('/api/search/query', { query, user });
  const count = async (what: string) => (await api(`/api/search/stats/${what}`, {})).body.response as number;
  /** The child process's log line may reach this process just after the response: wait up to 5 s for it. */
  const outputContains = (expected: string | RegExp) =>
    waitFor(async () => ((typeof expected === 'string' ? service.output().includes(expected) : expected.test(service.output())) ? true : undefined), 5000, `the log line ${expected}`);

  beforeAll(async () => {
    messages.expectedApiKey = llmKey;
    const baseUrl = await messages.start();
    service = await startService('embedded', {
      BOOTSTRAP_ADMIN_API_KEY: adminKey,
      LLM_PROVIDER: 'anthropic',
      // Model-led discovery (ADR 0048) would send the full audit's own calls to this server; this test is about another path.
      FULL_AUDIT_MODEL_DISCOVERY: 'off',
      ANTHROPIC_API_KEY: llmKey,
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_MODEL: 'claude-sonnet-4-6',
      // Long enough that a real answer on a busy machine never times out (a retry would break the request counts).
      LLM_TIMEOUT_MS: '3000',
      LLM_MAX_RETRIES: '2',
      // Info: the adapter's per-call accounting line is asserted below.
      LOG_LEVEL: 'info',
      TEXT_PRELOAD_LANGUAGES: 'en',
    });
    // The value models were built before the standalone took requests.
    expect(service.output()).toMatch(/"milliseconds":\{"en":\d+\}.*"msg":"value models loaded"/u);
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Handbook' }, adminKey)).body.response.instance_id;
    instanceKey = (await post(`${service.urls.audit}/audit/instance/get-svc-instances`, { instance_id: instanceId }, adminKey)).body.response[0].api_key;
    await api('/api/documents/upsert', {
      external_id: 'refunds.md',
      name: 'refunds.md',
      url: 'https://intranet.example/refunds',
      content_text: '# Refund policy\n\nRefunds are processed within 30 days of the request.\n\nCard payments are refunded to the card.\n',
    });
    await api('/api/documents/upsert', { external_id: 'cafeteria.md', name: 'cafeteria.md', content_text: '# Cafeteria\n\nThe cafeteria opens at noon and closes at 3 pm.\n' });
    await waitFor(async () => ((await api('/api/documents/progress', {})).body.response.done === true ? true : undefined), 60000, 'the indexation to finish');
  }, 120000);
  beforeEach(() => {
    messages.reset();
    // The server's model answers like a grounded one: from the question and excerpts the service sent.
    messages.respond = (_body, text) => {
      const answer = answerExtractively(readAnswerPrompt(text));
      return { answer: answer.answer, reason: answer.reason, confidence: answer.confidence, cited_excerpt_ids: answer.citedExcerptIds };
    };
  });
  afterAll(async () => {
    await service?.destroy();
    await messages.stop();
  });

  it('answers from the excerpts it sends to the Messages API, with the cached instructions and the forced answer tool', async () => {
    const res = await ask('How long do refunds take?');
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ query: 'How long do refunds take?', got_answer: true, answer: expect.stringContaining('30 days'), reason: expect.any(String) });
    expect(res.body.response.confident_rate).toBeGreaterThanOrEqual(0.5);
    expect(res.body.response.documents).toEqual([{ id: expect.stringMatching(/^kd_/), name: 'refunds.md', url: 'https://intranet.example/refunds' }]);

    expect(messages.requests).toHaveLength(1);
    const [request] = messages.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', apiKey: llmKey, retryCount: 0 });
    expect(request.body.model).toBe('claude-sonnet-4-6');
    expect(request.body.system).toEqual([expect.objectContaining({ type: 'text', cache_control: { type: 'ephemeral' } })]);
    expect(request.body.tool_choice).toMatchObject({ type: 'tool', name: request.body.tools?.[0].name });
    // The user message carries the question and the repository's excerpts, the answering one first.
    const content = request.body.messages?.[0].content;
    const prompt = readAnswerPrompt(typeof content === 'string' ? content : (content?.map((b) => b.text ?? '').join('') ?? ''));
    expect(prompt.question).toBe('How long do refunds take?');
    expect(prompt.excerpts[0]).toMatchObject({ documentName: 'refunds.md', text: expect.stringContaining('30 days') });
    // Token accounting: one log line per call with the tokens the API reported (the first call writes the prompt cache).
    const accounting = /anthropic:claude-sonnet-4-6: 1 attempt, \d+ ms, input \d+ tokens \(cache read \d+, cache write \d+\), output \d+ tokens/;
    await outputContains(accounting);
    expect(service.output()).toMatch(accounting);
    expect(service.output()).not.toContain('Refunds are processed within 30 days');
  });

  it('rides out overload and rate limiting with retries, and logs the search once', async () => {
    const before = await count('count-search');
    messages.script.push(FakeAnthropicMessagesServer.overloaded(), FakeAnthropicMessagesServer.rateLimited(1));
    const res = await ask('When does the cafeteria open?', 'bob');
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ got_answer: true, answer: expect.stringContaining('noon') });
    expect(messages.requests.map((r) => r.retryCount)).toEqual([0, 1, 2]);
    expect(await count('count-search')).toBe(before + 1);
  });

  it('answers 503 with Retry-After when the model stays overloaded, logs the query unanswered, and never leaks the key', async () => {
    const [searches, answered] = [await count('count-search'), await count('count-answered-search')];
    messages.script.push(FakeAnthropicMessagesServer.overloaded(7), FakeAnthropicMessagesServer.overloaded(7), FakeAnthropicMessagesServer.overloaded(7));
    const res = await ask('How long do refunds take?', 'carol');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'LLM.UNAVAILABLE', detail: expect.stringContaining('529') });
    expect(res.headers.get('retry-after')).toBe('7');
    expect(messages.requests).toHaveLength(3);
    expect(await count('count-search')).toBe(searches + 1);
    expect(await count('count-answered-search')).toBe(answered);
    const logged: Json[] = (await api('/api/search/stats/list-search', { offset: 0, limit: 100 })).body.response;
    expect(logged.at(-1)).toMatchObject({ query: 'How long do refunds take?', user_id: 'carol', answer_text: '' });
    expect(JSON.stringify(res.body)).not.toContain(llmKey);
    // Operators see the outage in the logs (warn), without the key.
    await outputContains('The language model is unavailable (HTTP 529 overloaded_error, 3 attempts)');
    expect(service.output()).toContain('The language model is unavailable (HTTP 529 overloaded_error, 3 attempts)');
    expect(service.output()).not.toContain(llmKey);
  });

  it('gives up on a silent model after its timeout and retries, with a 503', async () => {
    messages.script.push('hang', 'hang', 'hang');
    const started = Date.now();
    const res = await ask('How long do refunds take?');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('LLM.UNAVAILABLE');
    expect(res.body.detail).toMatch(/did not answer within 3000 ms/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(messages.requests).toHaveLength(3);
    // Three attempts of 3 s and the SDK's backoff between them: bounded, well under the client's patience.
    expect(Date.now() - started).toBeLessThan(30000);
  });

  it('reports a refused credential as a configuration problem, not as a bad request', async () => {
    messages.script.push(FakeAnthropicMessagesServer.unauthorized());
    const res = await ask('How long do refunds take?');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'LLM.REQUEST_REFUSED', detail: expect.stringContaining('ANTHROPIC_API_KEY') });
    expect(JSON.stringify(res.body)).not.toContain(llmKey);
    expect(messages.requests).toHaveLength(1);
  });

  it('does not pass off an ungrounded or declined answer as an answer', async () => {
    messages.script.push({ toolInput: { answer: 'Refunds take 90 days.', reason: 'From memory.', confidence: 0.95, cited_excerpt_ids: ['kn_invented'] } });
    const invented = await ask('How long do refunds take?');
    expect(invented.status).toBe(200);
    expect(invented.body.response).toMatchObject({ got_answer: false, answer: '', confident_rate: 0, documents: [] });
    expect(invented.body.response.reason).toMatch(/ungrounded/);

    messages.script.push('refusal');
    const declined = await ask('How long do refunds take?');
    expect(declined.body.response).toMatchObject({ got_answer: false, answer: '', reason: expect.stringMatching(/declined/) });
  });

  it('asks nothing of the model when the instance has nothing to answer from', async () => {
    const empty = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Empty' }, adminKey)).body.response.instance_id;
    const key = (await post(`${service.urls.audit}/audit/instance/get-svc-instances`, { instance_id: empty }, adminKey)).body.response[0].api_key;
    const res = await post(`${service.urls.retrieval}/api/search/query`, { query: 'How long do refunds take?', user: 'alice' }, undefined, { 'instance-id': empty, 'api-key': key });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ got_answer: false, answer: '', confident_rate: 0, documents: [] });
    expect(messages.requests).toHaveLength(0);
  });
});
