import { generateApiKey } from '@svc/identity-core';
import { ChatCompletionsRequestBody, FakeAnthropicMessagesServer, FakeChatCompletionsServer, MessagesRequestBody } from '@svc/llm/testing';
import { BOTH_MODES, Json, RunningService, startService, waitFor } from '@svc/test-kit';
import { FullAuditInstance } from './full-audit-instance';

const unescape = (s: string) => s.replace(/&(lt|gt|quot|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e]!);
const toolOf = (body: MessagesRequestBody) => body.tools?.[0]?.name;
const systemOf = (body: MessagesRequestBody) => (typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n'));

/**
 * The scripted model. Reading passages, it states who approves expense claims ("... approved by the X.") with the
 * sentence as its quote, and, for every passage, one more approver quoted in words the passage does not hold (the
 * CFO): a quote that must be dropped. Judging, it confirms every pair of its own statements with a title, an
 * explanation and a question.
 */
function scriptedModel(tool: string | undefined, system: string, prompt: string): unknown {
  if (tool === 'submit_statements') {
    const passages = [...prompt.matchAll(/<passage id="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/passage>/g)];
    return {
      statements: passages.flatMap(([, id, escaped]) => {
        const text = unescape(escaped);
        const approval = /Expense claims are approved by the ([^.]+)\./.exec(text);
        if (!approval) return [];
        const statement = (value: string, span: string) => ({ passage_id: unescape(id), subject: 'Expense claim approval', attribute: 'approver', value, unit: null, scope: null, condition: null, modality: 'is', effective_date: null, span });
        return [statement(approval[1], approval[0]), statement('CFO', 'Expense claims are approved by the CFO.')];
      }),
    };
  }
  if (/short title/.test(system)) {
    const pairs = [...prompt.matchAll(/<pair id="([^"]*)">/g)];
    return { verdicts: pairs.map(([, id]) => ({ pair_id: id, contradiction: true, title: 'Expense claim approver', explanation: 'One names the Finance team and the other the line manager as the approver of the same claims.', question: 'Who approves expense claims?' })) };
  }
  return { verdicts: [] };
}

/**
 * Model-led discovery (issue 24 item 3, ADR 0048) through Anthropic's Messages API spoken by a local server: a
 * contradiction no rule can find (two approvers, no figure) is raised once the model extracts and confirms it; a
 * quote the passage does not hold is dropped; an outage, the day's budget outside scans and a scan's budget of one
 * call stop the model's work cleanly, and the next scan resumes where they stopped; a rescan of the unchanged
 * repository calls the model for nothing. Both modes (BOTH_MODES): the rescans of the two documents share the day's
 * budget, one job at a time in the embedded mode, concurrently on BullMQ.
 */
describe.each(BOTH_MODES)('full audit with model-led discovery (%s)', (mode) => {
  const server = new FakeAnthropicMessagesServer();
  let service: RunningService;
  const adminKey = generateApiKey();
  let instance: FullAuditInstance;

  const messages = () => server.requests.filter((r) => r.path === '/v1/messages');
  const all = async () => (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: [], limit: 100 })).body.response.items as Json[];
  /** Walks the instance through its steps again: reaching RUNNING_PHASE starts a full scan; its progress once completed. */
  const fullScan = async () => {
    const before = (await instance.panel()).scan?.started_at ?? '';
    expect((await instance.audit('/audit/instance/update-instance-step', { instance_id: instance.instanceId, step: 'INIT' })).status).toBe(200);
    return waitFor(async () => {
      const { scan } = await instance.panel();
      return scan && scan.reason === 'instance' && scan.state === 'COMPLETED' && scan.started_at > before ? scan : undefined;
    }, 120000, 'a full scan');
  };

  beforeAll(async () => {
    server.respond = (body, prompt) => scriptedModel(toolOf(body), systemOf(body), prompt);
    const url = await server.start();
    service = await startService(mode, {
      BOOTSTRAP_ADMIN_API_KEY: adminKey,
      LLM_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: url,
      FULL_AUDIT_MODEL_BUDGET_CALLS: '1',
      FULL_AUDIT_SETTLE_SECONDS: '0',
      FULL_AUDIT_SWEEP_SECONDS: '1',
    });
    instance = await FullAuditInstance.create(service, adminKey, 'Discovery');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
    await server.stop();
  });

  it('raises what the model extracts and confirms, drops an ungrounded quote, stops on an outage and on the budgets, resumes, and costs nothing on an unchanged rescan', async () => {
    // The model is down when the first document arrives: its incremental rescan reads no statement (and its failed
    // call spends the instance's budget for today, one call, so the second document's rescan asks nothing).
    for (let i = 0; i < 200; i++) server.script.push(FakeAnthropicMessagesServer.overloaded());
    await instance.ingest('expenses.md', '# Expenses\n\nExpense claims are approved by the Finance team.');
    // Its last retry (the transport's third) met the outage too.
    const asked = (name: string) => messages().filter((r) => JSON.stringify(r.body.messages ?? []).includes(`document=\\"${name}\\"`));
    await waitFor(async () => (asked('expenses.md').some((r) => r.retryCount === 3) ? true : undefined), 60000, 'the rescan to give up on the model');
    server.script.length = 0;
    await instance.ingest('manager-guide.md', '# Manager guide\n\nExpense claims are approved by the line manager.');
    await waitFor(async () => ((await instance.audit('/audit/document/count', { instance_id: instance.instanceId, state: 'INDEXED' })).body.response === 2 ? true : undefined), 60000, 'documents indexed');
    // No rule reads a contradiction there: no figure, no rule.
    expect(await all()).toEqual([]);

    // A full scan with a budget of one call: the documents left unread are read (one call), no pair is judged.
    const before = messages().length;
    const stopped = await fullScan();
    expect(stopped.model).toMatchObject({ calls: 1, budget_calls: 1, stopped: 'budget' });
    expect(messages().slice(before).map((r) => toolOf(r.body))).toEqual(['submit_statements']);
    // Both documents in that one call: the second was never read outside the scan (today's budget was spent).
    expect(asked('manager-guide.md')).toHaveLength(1);
    expect(await all()).toEqual([]);

    // The next scan resumes: nothing is read again, the pair is judged (one call), the contradiction raised.
    const resumed = await fullScan();
    expect(resumed.model).toMatchObject({ calls: 1, stopped: null });
    expect(messages().slice(before + 1).map((r) => toolOf(r.body))).toEqual(['submit_verdicts']);
    const [finding, ...others] = await all();
    expect(others).toEqual([]);
    expect(finding.state).toBe('DETECTED');
    expect(finding.subject).toBe('Expense claim approver');
    expect(finding.explanation).toMatch(/"expenses\.md" says Finance team/u);
    expect(finding.explanation).toMatch(/"manager-guide\.md" says line manager/u);
    expect(finding.compagnon_questions[0]).toBe('Who approves expense claims?');
    // The CFO was quoted in words no passage holds: dropped, in no finding.
    expect(JSON.stringify(finding)).not.toMatch(/CFO/u);
    expect((finding.excerpts as Json[]).map((e) => e.value).sort()).toEqual(['Finance team', 'line manager']);

    // The expert answers it: one recommendation per document, the one that names the other approver to update.
    const answered = await instance.audit('/audit/full-audit/set-expert-answer', { instance_id: instance.instanceId, conflict_id: finding.id, answer: 'The Finance team.' });
    expect(answered.status).toBe(200);
    const recommendations = answered.body.response.recommendations as Json[];
    expect(recommendations.map((r) => [r.document_name, r.action]).sort()).toEqual([['expenses.md', 'KEEP'], ['manager-guide.md', 'UPDATE']]);
    expect(recommendations.find((r) => r.action === 'UPDATE')!.proposed_text).toBe('Expense claims are approved by the Finance team.');

    // An unchanged repository rescanned: no model call, the finding as it was.
    const calls = messages().length;
    const unchanged = await fullScan();
    expect(unchanged.model).toMatchObject({ calls: 0, stopped: null });
    expect(messages().length).toBe(calls);
    expect((await all()).map((c) => [c.id, c.state])).toEqual([[finding.id, 'DETECTED']]);
  }, 420000);
});

/**
 * The same discovery through an OpenAI-compatible server (vLLM, Ollama, llama.cpp, OpenAI): the statements' and the
 * verdicts' schemas go as strict JSON-schema response formats; a contradiction no rule finds is raised, the
 * ungrounded quote dropped, and a full rescan of the unchanged repository calls the model for nothing.
 */
describe('full audit with model-led discovery (openai-compatible, embedded)', () => {
  const server = new FakeChatCompletionsServer();
  let service: RunningService;
  const adminKey = generateApiKey();
  let instance: FullAuditInstance;
  const formatOf = (body: ChatCompletionsRequestBody) => body.response_format?.json_schema?.name;

  beforeAll(async () => {
    server.respond = (body, prompt) => scriptedModel(formatOf(body), (body.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content).join('\n'), prompt);
    const url = await server.start();
    service = await startService('embedded', {
      BOOTSTRAP_ADMIN_API_KEY: adminKey,
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: url,
      OPENAI_COMPATIBLE_MODEL: 'local-model',
      OPENAI_COMPATIBLE_API_KEY: 'sk-local',
      FULL_AUDIT_SETTLE_SECONDS: '0',
    });
    instance = await FullAuditInstance.create(service, adminKey, 'Discovery over chat completions');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
    await server.stop();
  });

  it('raises what the model extracts and confirms, without the ungrounded quote; an unchanged rescan makes no call; ignored, it is never raised again', async () => {
    await instance.ingest('expenses.md', '# Expenses\n\nExpense claims are approved by the Finance team.');
    await instance.ingest('manager-guide.md', '# Manager guide\n\nExpense claims are approved by the line manager.');
    const [finding] = await waitFor(async () => {
      const items = (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: [], limit: 100 })).body.response.items as Json[];
      return items.length > 0 ? items : undefined;
    }, 90000, 'the model finding');
    expect(finding.subject).toBe('Expense claim approver');
    expect((finding.excerpts as Json[]).map((e) => e.value).sort()).toEqual(['Finance team', 'line manager']);
    expect(JSON.stringify(finding)).not.toMatch(/CFO/u);
    expect(server.requests.every((r) => r.body.response_format?.json_schema?.strict === true)).toBe(true);

    const calls = server.requests.length;
    const before = (await instance.panel()).scan?.started_at ?? '';
    expect((await instance.audit('/audit/instance/update-instance-step', { instance_id: instance.instanceId, step: 'INIT' })).status).toBe(200);
    const rescan = await waitFor(async () => {
      const { scan } = await instance.panel();
      return scan && scan.reason === 'instance' && scan.state === 'COMPLETED' && scan.started_at > before ? scan : undefined;
    }, 120000, 'a full scan');
    expect(rescan.model).toMatchObject({ calls: 0, stopped: null });
    expect(server.requests.length).toBe(calls);

    // Ignored, it is never raised again, also once a document changes and the model judges the pair again.
    expect((await instance.audit('/audit/full-audit/ignore', { instance_id: instance.instanceId, conflict_id: finding.id })).status).toBe(200);
    await instance.ingest('manager-guide.md', '# Manager guide\n\nRead this before approving anything.\n\nExpense claims are approved by the line manager.');
    await waitFor(async () => (server.requests.slice(calls).some((r) => formatOf(r.body) === 'submit_verdicts') ? true : undefined), 90000, 'the changed pair judged again');
    // A full scan judges the whole repository again (the verdict on the new content is remembered: no call).
    const judged = server.requests.length;
    const since = (await instance.panel()).scan?.started_at ?? '';
    expect((await instance.audit('/audit/instance/update-instance-step', { instance_id: instance.instanceId, step: 'INIT' })).status).toBe(200);
    await waitFor(async () => {
      const { scan } = await instance.panel();
      return scan && scan.reason === 'instance' && scan.state === 'COMPLETED' && scan.started_at > since ? scan : undefined;
    }, 120000, 'a full scan after the change');
    expect(server.requests.length).toBe(judged);
    const after = (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: [], limit: 100 })).body.response.items as Json[];
    expect(after.map((c) => [c.id, c.state])).toEqual([[finding.id, 'IGNORED']]);
  }, 300000);
});
