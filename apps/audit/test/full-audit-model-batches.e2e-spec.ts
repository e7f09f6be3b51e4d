import { generateApiKey } from '@svc/identity-core';
import { FakeAnthropicMessagesServer, MessagesRequestBody } from '@svc/llm/testing';
import { BOTH_MODES, Json, RunningService, startService, waitFor } from '@svc/test-kit';
import { FullAuditInstance, officeNotices } from './full-audit-instance';

const unescape = (s: string) => s.replace(/&(lt|gt|quot|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e]!);

/** The judge's model: every pair contradicts, except statements of a draft (a case the rules cannot tell). */
function judgeModel(_body: MessagesRequestBody, prompt: string): unknown {
  const pairs = [...prompt.matchAll(/<pair id="([^"]*)"[^>]*>([\s\S]*?)<\/pair>/g)];
  return { verdicts: pairs.map(([, id, body]) => ({ pair_id: unescape(id), contradiction: !/draft/i.test(body), reason: /draft/i.test(body) ? 'A draft states no rule.' : 'Same case, different values.' })) };
}

/**
 * The full audit's model judge in a Message Batch (issue 12, ANALYSIS.md §4 step 3): a full judgement
 * with at least FULL_AUDIT_MODEL_BATCH_MIN new candidates submits them in one batch to Anthropic's
 * Message Batches API (spoken by a local server) and raises none until the batch has ended; the sweep
 * polls it; then the candidates the model confirms are raised and those it rejects are not.
 * have-to-show counts the candidates awaiting the model. Here the full judgement is a settle: two
 * warranty contradictions that a document full of "period" hid come back when it is deleted. Both modes (BOTH_MODES):
 * delayed settles, the repeating sweep and a judgement while the batch runs, in-process or on BullMQ.
 */
describe.each(BOTH_MODES)('full audit with the model judging in a batch (%s)', (mode) => {
  const server = new FakeAnthropicMessagesServer();
  let service: RunningService;
  const adminKey = generateApiKey();
  let instance: FullAuditInstance;

  const settledOver = (documents: number) => waitFor(async () => {
    const p = await instance.panel();
    return p.scan?.reason === 'settle' && p.scan.state === 'COMPLETED' && p.scan.documents === documents ? p : undefined;
  }, 90000, `a settle over ${documents} documents`);
  const detected = async () => (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: ['DETECTED'], limit: 100 })).body.response.items as Json[];
  const batchRequests = () => server.requests.filter((r) => r.path === '/v1/messages/batches');

  beforeAll(async () => {
    server.respond = judgeModel;
    const url = await server.start();
    service = await startService(mode, {
      BOOTSTRAP_ADMIN_API_KEY: adminKey,
      LLM_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-test-key',
      ANTHROPIC_BASE_URL: url,
      FULL_AUDIT_MODEL_BATCH_MIN: '1',
      // Model-led discovery (ADR 0048) would send the full audit's own calls to this server; this test is about another path.
      FULL_AUDIT_MODEL_DISCOVERY: 'off',
      FULL_AUDIT_MODEL_BATCH_POLL_SECONDS: '1',
      FULL_AUDIT_SETTLE_SECONDS: '1',
      FULL_AUDIT_SWEEP_SECONDS: '1',
    });
    instance = await FullAuditInstance.create(service, adminKey, 'Batches');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
    await server.stop();
  });

  it('submits the new candidates of a full judgement in one batch, raises none until it has ended, then those the model confirms', async () => {
    const notices = await instance.ingest('office-notices.md', officeNotices());
    await settledOver(1);
    await instance.ingest('toaster-warranty.md', '# Toaster warranty\n\nThe warranty period of the toaster is 2 years.');
    await instance.ingest('toaster-leaflet.md', '# Toaster warranty\n\nThe warranty period of the toaster is 3 years.');
    await instance.ingest('kettle-warranty.md', '# Kettle warranty\n\nThe warranty period of the kettle is 1 year.');
    await instance.ingest('kettle-draft.md', '# Kettle warranty (draft)\n\nDraft: the warranty period of the kettle is 2 years.');
    await settledOver(5);
    // "period" is in most statements: nothing joins the warranties yet, nothing was asked of the model.
    expect(await detected()).toEqual([]);
    expect(batchRequests()).toEqual([]);

    server.batchPollsInProgress = 15;
    expect((await instance.retrieval('/api/documents/delete', { document_id: notices })).status).toBe(200);
    const awaiting = await waitFor(async () => {
      const p = await instance.panel();
      return p.awaiting_model > 0 ? p : undefined;
    }, 90000, 'candidates awaiting the model');
    expect(awaiting.awaiting_model).toBe(2);
    expect(await detected()).toEqual([]);
    const [submitted] = batchRequests();
    const requests = (submitted.body as unknown as { requests: { custom_id: string; params: MessagesRequestBody }[] }).requests;
    expect(requests.map((r) => r.custom_id)).toEqual(['g0']);
    const prompt = JSON.stringify(requests[0].params.messages);
    expect(prompt).toContain('toaster');
    expect(prompt).toContain('kettle');
    expect(requests[0].params.tools?.[0].name).toBe('submit_verdicts');
    // Another full judgement while the batch runs leaves its candidates to it: no second batch, no call one by one.
    await instance.ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon.');
    expect((await settledOver(5)).awaiting_model).toBe(2);
    expect(batchRequests()).toHaveLength(1);
    expect(server.requests.filter((r) => r.path === '/v1/messages' && JSON.stringify(r.body.messages).includes('toaster'))).toEqual([]);

    const raised = await waitFor(async () => {
      const items = await detected();
      return items.length > 0 ? items : undefined;
    }, 90000, 'the confirmed contradiction');
    expect(raised).toHaveLength(1);
    expect(raised[0].explanation).toMatch(/2 years/u);
    expect(raised[0].explanation).toMatch(/3 years/u);
    expect((await instance.panel()).awaiting_model).toBe(0);
    // Polled until it ended, then read once.
    const batchId = [...server.batches.keys()][0];
    expect(server.requests.filter((r) => r.path === `/v1/messages/batches/${batchId}`).length).toBeGreaterThanOrEqual(4);
    expect(server.requests.filter((r) => r.path === `/v1/messages/batches/${batchId}/results`)).toHaveLength(1);
    // The rejected draft is not raised, in any state.
    const all = (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: [], limit: 100 })).body.response.items as Json[];
    expect(all.map((c) => c.id)).toEqual([raised[0].id]);
  }, 300000);
});
