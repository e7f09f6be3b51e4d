import { generateApiKey } from '@svc/identity-core';
import { ChatCompletionsRequestBody, FakeAnthropicMessagesServer, FakeChatCompletionsServer, MessagesRequestBody } from '@svc/llm/testing';
import { Json, post, RunningService, ServiceMode, startService, waitFor } from '@svc/test-kit';
import { extractAnswers, Passage } from '@svc/text';

const unescape = (s: string) => s.replace(/&(lt|gt|quot|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e]!);

/** The excerpts of a prompt the service sends: `<excerpt id=".." document="..">text</excerpt>`. */
function excerptsOf(prompt: string): Passage[] {
  return [...prompt.matchAll(/<excerpt id="([^"]*)" document="([^"]*)"[^>]*>([\s\S]*?)<\/excerpt>/g)].map(([, id, document, text]) => ({ id: unescape(id), documentId: unescape(document), text: unescape(text) }));
}

/**
 * What the protocol servers' model answers, from the system text and the prompt the service sent, so a
 * wrong prompt gives a wrong analysis: extraction quotes the sentences that answer (read with the text
 * library, verbatim from the excerpts it was given), no companion questions, and recommendations that
 * keep an excerpt already stating the expert's figure and rewrite the figure elsewhere.
 */
function groundedModel(system: string, prompt: string): unknown {
  if (system.startsWith('You read excerpts')) {
    const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
    return { answers: extractAnswers(question, excerptsOf(prompt)).map((a) => ({ excerpt_id: a.passageId, quote: a.text, value: a.display, scope: a.scope, confidence: a.confidence })) };
  }
  if (system.startsWith('An auditor')) return { questions: [] };
  if (system.startsWith('You check candidate contradictions')) {
    // The full audit's judge: every pair is a contradiction, except statements of a draft (a case the rules cannot tell).
    const pairs = [...prompt.matchAll(/<pair id="([^"]*)"[^>]*>([\s\S]*?)<\/pair>/g)];
    return { verdicts: pairs.map(([, id, body]) => ({ pair_id: unescape(id), contradiction: !/draft/i.test(body), reason: /draft/i.test(body) ? 'A draft states no rule.' : 'Same case, different values.' })) };
  }
  if (system.startsWith('You help a company')) {
    const figure = /^Expert answer: .*?(\d+)/m.exec(prompt)?.[1] ?? '';
    return {
      recommendations: excerptsOf(prompt).map((e) =>
        e.text.includes(figure)
          ? { excerpt_id: e.id, action: 'KEEP', proposed_text: '', reason: 'It already states the expert answer.' }
          : { excerpt_id: e.id, action: 'UPDATE', proposed_text: e.text.replace(/\d+/, figure), reason: 'It states another figure.' },
      ),
    };
  }
  if (system.startsWith('You write a short internal company document')) {
    // The companion document: the subject as title and the answers, as the model was given them.
    const subject = /Subject: (.*)/.exec(prompt)?.[1] ?? '';
    const answers = [...prompt.matchAll(/<answer>([\s\S]*?)<\/answer>/g)].map(([, a]) => unescape(a));
    return { markdown: `# ${subject}\n\nDrafted by the model from the experts' answers.\n\n${answers.map((a) => `- ${a}`).join('\n')}` };
  }
  throw new Error(`unexpected system text: ${system.slice(0, 60)}`);
}

interface Provider {
  name: 'anthropic' | 'openai-compatible';
  mode: ServiceMode;
  server: FakeAnthropicMessagesServer | FakeChatCompletionsServer;
  env: (baseUrl: string) => Record<string, string>;
  malformed: unknown;
  outage: unknown;
  /** The prompts (system, user) of every request so far. */
  prompts: () => { system: string; user: string }[];
}

const anthropic = new FakeAnthropicMessagesServer();
const chat = new FakeChatCompletionsServer();
const anthropicSystem = (body: MessagesRequestBody) => (typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n'));
const chatSystem = (body: ChatCompletionsRequestBody) => (body.messages ?? []).find((m) => m.role === 'system')?.content ?? '';
anthropic.respond = (body, user) => groundedModel(anthropicSystem(body), user);
chat.respond = (body, user) => groundedModel(chatSystem(body), user);

const PROVIDERS: Provider[] = [
  {
    name: 'anthropic',
    mode: 'embedded',
    server: anthropic,
    env: (baseUrl) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: baseUrl, FULL_AUDIT_MODEL_DISCOVERY: 'off' }),
    malformed: { toolInput: { answers: 'none' } },
    outage: FakeAnthropicMessagesServer.overloaded(),
    prompts: () => anthropic.requests.map((r) => ({ system: anthropicSystem(r.body), user: JSON.stringify(r.body.messages ?? []) })),
  },
  {
    name: 'openai-compatible',
    mode: 'distributed',
    server: chat,
    env: (baseUrl) => ({ LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: baseUrl, OPENAI_COMPATIBLE_MODEL: 'local-model', OPENAI_COMPATIBLE_API_KEY: 'sk-local', FULL_AUDIT_MODEL_DISCOVERY: 'off' }),
    malformed: { content: 'The refund takes a while, I think.' },
    outage: FakeChatCompletionsServer.serverError(503),
    prompts: () => chat.requests.map((r) => ({ system: chatSystem(r.body), user: JSON.stringify(r.body.messages ?? []) })),
  },
];

/**
 * The question analysis and set-answer with a language model (ANALYSIS.md §2, issue 11): the
 * model-backed extractor and recommendation writer through each provider's real protocol, spoken by a
 * local server; a malformed or declined answer (asked again once if malformed, then the rule-based extractor answers that call), an outage (the
 * question waits in ANALYZING and completes after recovery; set-answer saves the answer and returns an
 * empty list) and a process killed in the middle of an analysis (it completes after the restart, with
 * no duplicate conflict).
 */
describe.each(PROVIDERS.map((p) => [p.name, p] as const))('question analysis through %s', (_name, provider) => {
  const adminKey = generateApiKey();
  let service: RunningService;
  let instanceId: string;
  let instanceKey: string;
  let refundQuestion: string;
  let conflictId: string;
  const { server } = provider;

  const audit = (path: string, body: unknown) => post(`${service.urls.audit}${path}`, body, adminKey);
  const ingest = (name: string, content_text: string) =>
    post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, content_text }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
  const stateOf = async (id: string) => (await audit('/audit/mandatory-question/list', { instance_id: instanceId, limit: 1000 })).body.response.items.find((q: Json) => q.id === id)?.state as string | undefined;
  const settled = (id: string, timeoutMs = 60000) => waitFor(async () => { const s = await stateOf(id); return s && !['PENDING', 'ANALYZING'].includes(s) ? s : undefined; }, timeoutMs, `question ${id} analysed`);
  const conflictsOf = async (id: string) => (await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, question_id_in: [id], state_in: [] })).body.response.items as Json[];
  const extractionCalls = () => provider.prompts().filter((p) => p.system.startsWith('You read excerpts')).length;

  beforeAll(async () => {
    const baseUrl = await server.start();
    service = await startService(provider.mode, {
      BOOTSTRAP_ADMIN_API_KEY: adminKey,
      ...provider.env(baseUrl),
      LLM_TIMEOUT_MS: '2000',
      LLM_MAX_RETRIES: '1',
      // A killed process's job is claimed again once its lease runs out.
      JOBS_LEASE_SECONDS: '5',
    });
    instanceId = (await audit('/audit/instance/create', { name: 'Handbook' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    await ingest('refund-policy.md', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.');
    await ingest('customer-faq.md', '# Customer FAQ\n\nThe refund of an order takes 14 days.');
    await ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon and serves soup on Mondays.');
    await waitFor(async () => ((await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' })).body.response === 3 ? true : undefined), 60000, 'documents indexed');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
    await server.stop();
  });

  it('analyses a question with the model: the conflict, its excerpts grouped by the answers the model quoted', async () => {
    refundQuestion = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long does the refund of an order take?' })).body.response.id;
    expect(await settled(refundQuestion)).toBe('CONFLICTS');
    const [conflict] = await conflictsOf(refundQuestion);
    conflictId = conflict.id;
    expect(conflict.answer_groups.map((g: Json) => g.excerpts[0].extracted_answer).sort()).toEqual([
      'Refunds of an order are processed within 30 days of the request.',
      'The refund of an order takes 14 days.',
    ]);
    // The model was asked, with the question and the excerpts in its prompt.
    const extraction = provider.prompts().find((p) => p.system.startsWith('You read excerpts'));
    expect(extraction?.user).toContain('How long does the refund of an order take?');
    expect(extraction?.user).toContain('The refund of an order takes 14 days.');
  }, 90000);

  it('set-answer drafts the recommendations with the model: keep the document that states the answer, update the other', async () => {
    const res = await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflictId, answer: 'Refunds take 14 days.' });
    expect(res.status).toBe(200);
    const byAction = Object.fromEntries(res.body.response.recommendations.map((r: Json) => [r.action, r]));
    expect(byAction.KEEP.document_name).toBe('customer-faq.md');
    expect(byAction.UPDATE).toMatchObject({ document_name: 'refund-policy.md', proposed_text: 'Refunds of an order are processed within 14 days of the request.', estimated_seconds: expect.any(Number) });
    expect(provider.prompts().some((p) => p.system.startsWith('You help a company') && p.user.includes('Refunds take 14 days.'))).toBe(true);
  }, 30000);

  it('a malformed model answer is asked again, then the rule-based extractor answers that call, logged with the reason', async () => {
    const before = extractionCalls();
    server.script.push(provider.malformed as never, provider.malformed as never);
    const question = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How many days does a refund of an order take?' })).body.response.id;
    expect(await settled(question)).toBe('CONFLICTS');
    // Two malformed replies (the call and its one repeat), then no retried job: the analysis completed on the first attempt.
    expect(extractionCalls() - before).toBeGreaterThanOrEqual(2);
    expect(extractionCalls() - before).toBeLessThanOrEqual(3);
    await waitFor(async () => (service.output().split('\n').some((line) => line.includes('the rule-based adapter answered it') && line.includes('invalid-response')) ? true : undefined), 5000, 'the fallback logged with its reason');
  }, 90000);

  it('a model that declines: the rule-based extractor answers that call, and the question gets its conflict', async () => {
    const before = extractionCalls();
    server.script.push('refusal' as never);
    const question = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long is the refund period for an order?' })).body.response.id;
    expect(await settled(question)).toBe('CONFLICTS');
    expect(extractionCalls() - before).toBeGreaterThanOrEqual(1);
    await waitFor(async () => (service.output().split('\n').some((line) => line.includes('the rule-based adapter answered it') && line.includes('declined')) ? true : undefined), 5000, 'the fallback logged with its reason');
  }, 90000);

  it('an outage: the question waits in ANALYZING and completes after recovery; set-answer meanwhile saves the answer and returns an empty list', async () => {
    for (let i = 0; i < 200; i++) server.script.push(provider.outage as never);
    const question = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long do refunds of orders take?' })).body.response.id;
    await waitFor(async () => (provider.server.requests.length > 0 && (await stateOf(question)) === 'ANALYZING' && server.script.length < 198 ? true : undefined), 30000, 'the analysis to meet the outage');
    const during = await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflictId, answer: 'Refunds take 30 days.' });
    expect(during.status).toBe(200);
    expect(during.body.response.recommendations).toEqual([]);
    expect((await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflictId })).body.response.answer).toBe('Refunds take 30 days.');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await stateOf(question)).toBe('ANALYZING');
    server.script.length = 0;
    expect(await settled(question, 90000)).toBe('CONFLICTS');
    // Called again after recovery, set-answer drafts.
    const after = await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflictId, answer: 'Refunds take 30 days.' });
    expect(after.body.response.recommendations.map((r: Json) => r.action).sort()).toEqual(['KEEP', 'UPDATE']);
  }, 150000);

  it('a process killed in the middle of an analysis: after the restart the analysis completes, with no duplicate conflict', async () => {
    const conflictsBefore = (await conflictsOf(refundQuestion)).map((c) => c.id);
    expect(conflictsBefore).toHaveLength(1);
    // The model stays silent, so the re-analysis a document change starts is in flight when the process dies.
    for (let i = 0; i < 50; i++) server.script.push('hang');
    const requestsBefore = server.requests.length;
    await ingest('customer-faq.md', '# Customer FAQ\n\nThe refund of an order takes 14 days.\n\nGift cards cannot be refunded.');
    await waitFor(async () => (server.requests.length > requestsBefore && (await stateOf(refundQuestion)) === 'ANALYZING' ? true : undefined), 60000, 'the re-analysis to reach the model');
    const jobsProcess = provider.mode === 'embedded' ? 'standalone' : 'workers';
    process.kill(service.pids()[jobsProcess], 'SIGKILL');
    server.script.length = 0;
    await service.restart();
    expect(await settled(refundQuestion, 90000)).toBe('CONFLICTS');
    expect((await conflictsOf(refundQuestion)).map((c) => c.id)).toEqual(conflictsBefore);
  }, 180000);

  it("a missing subject's companion document is drafted by the model from the experts' answers", async () => {
    const question = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How many weeks of sabbatical leave can employees take?' })).body.response.id;
    expect(await settled(question, 90000)).toBe('REFUSED');
    const subject = await waitFor(async () => ((await audit('/audit/missing-subject/list', { instance_id: instanceId })).body.response.items as Json[]).find((s) => /sabbatical/i.test(s.subject)), 60000, 'the sabbatical subject');
    for (const q of (await audit('/audit/missing-subject/questions', { instance_id: instanceId, subject_id: subject.id })).body.response as Json[]) {
      expect((await audit('/audit/mandatory-question/set-answer', { instance_id: instanceId, question_id: q.id, answer: 'Up to twelve weeks of unpaid sabbatical leave after five years of service.' })).status).toBe(200);
    }
    const drafted = await audit('/audit/missing-subject/generate-compagnon-document', { instance_id: instanceId, subject_id: subject.id });
    expect(drafted.status).toBe(200);
    expect(drafted.body.response.cached).toBe(false);
    expect(drafted.body.response.compagnon_proposition).toContain("Drafted by the model from the experts' answers.");
    expect(drafted.body.response.compagnon_proposition).toContain('- Up to twelve weeks of unpaid sabbatical leave after five years of service.');
    const prompt = provider.prompts().find((p) => p.system.startsWith('You write a short internal company document'));
    expect(prompt?.user).toContain('twelve weeks of unpaid sabbatical leave');
  }, 180000);

  it('the full audit asks the model to confirm its candidates: a confirmed pair is raised, a rejected one is not', async () => {
    await ingest('parking.md', '# Parking\n\nVisitor parking costs 4 EUR per hour.');
    await ingest('reception.md', '# Parking\n\nVisitor parking costs 6 EUR per hour.');
    await ingest('lockers.md', '# Lockers\n\nIn the draft plan a locker rental costs 2 EUR per day.');
    await ingest('facilities.md', '# Lockers\n\nIn the draft plan a locker rental costs 3 EUR per day.');
    const list = async () => (await audit('/audit/full-audit/list', { instance_id: instanceId, state_in: [] })).body.response.items as Json[];
    const about = (items: Json[], text: string) => items.filter((c) => c.excerpts.some((e: Json) => e.text.includes(text)));
    await waitFor(async () => (about(await list(), 'parking').length > 0 ? true : undefined), 90000, 'the parking conflict');
    // Both pairs reached the model; only the confirmed one is in the worklist.
    await waitFor(async () => (provider.prompts().some((p) => p.system.startsWith('You check candidate contradictions') && p.user.includes('locker rental')) ? true : undefined), 90000, 'the locker pair judged by the model');
    await new Promise((r) => setTimeout(r, 2000));
    const items = await list();
    expect(about(items, 'parking')).toHaveLength(1);
    expect(about(items, 'locker')).toHaveLength(0);
  }, 180000);
});
