import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { Client as PgClient } from 'pg';
import { BOTH_MODES, Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/**
 * The full audit over HTTP and MCP: the instance reaches RUNNING_PHASE empty (its first full scan
 * completes at once), documents arrive afterwards and each change is rescanned incrementally, through
 * jobs, no button. Then the worklist, the expert's answer, close, ignore, set-state, every refusal,
 * owner visibility, and the lifecycle: DISAPPEARED, REDETECTED, IGNORED never raised again.
 * Distributed mode: PostgreSQL, Redis/BullMQ and the HTTP repository client.
 */
describe.each(BOTH_MODES)('full audit (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let instanceKey: string;
  const people: Record<'expert' | 'consumer' | 'billing' | 'outsider', { id: string; key: string }> = {} as never;
  const docs: Record<string, string> = {};
  let refund: Json;

  const audit = (path: string, body: unknown, credential = adminKey) => post(`${service.urls.audit}${path}`, body, credential);
  const anonymous = (path: string, body: unknown) => post(`${service.urls.audit}${path}`, body);
  const ingest = async (name: string, content_text: string): Promise<string> => {
    const res = await post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, url: `https://intranet.example/${name}`, content_text }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
    expect(res.status).toBe(200);
    return res.body.response.id;
  };
  const list = async (body: object = {}, key = adminKey) => (await audit('/audit/full-audit/list', { instance_id: instanceId, limit: 100, ...body }, key)).body.response as { items: Json[]; total: number };
  const detail = async (id: string, key = adminKey) => (await audit('/audit/full-audit/detail', { instance_id: instanceId, conflict_id: id }, key)).body.response as Json;
  const between = (c: Json) => c.documents.map((d: Json) => d.document_id).sort();
  const findBetween = (a: string, b: string, states: string[] = []) =>
    waitFor(async () => (await list({ state_in: states })).items.find((c) => JSON.stringify(between(c)) === JSON.stringify([a, b].sort())), 90000, `a full-audit conflict between ${a} and ${b}`);
  const stateBecomes = (id: string, state: string) => waitFor(async () => ((await detail(id)).state === state ? true : undefined), 90000, `conflict ${id} ${state}`);

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, ...(mode === 'distributed' ? { REPOSITORY_CLIENT: 'http' } : {}) });
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    for (const [name, role] of Object.entries({ expert: 'KNOWLEDGE_EXPERT', consumer: 'CONSUMER', billing: 'BILLING', outsider: 'STEWARD' })) {
      const member = await post(`${service.urls.auth}/core/organization/members/create`, { email: `${name}@example.com`, name, roles: [role] }, token);
      const key = await post(`${service.urls.auth}/core/organization/api-keys/create`, { name, roles: [role], user_id: member.body.response.id }, token);
      people[name as keyof typeof people] = { id: member.body.response.id, key: key.body.response.api_key };
    }
    instanceId = (await audit('/audit/instance/create', { name: 'Full audit' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    for (const who of ['expert', 'consumer', 'billing'] as const) await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people[who].id });
    await waitFor(async () => ((await audit('/audit/instance/get-instance', { instance_id: instanceId })).body.response.step === 'RUNNING_PHASE' ? true : undefined), 30000, 'RUNNING_PHASE');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('audit_full_audit_have_to_show: shown once the first full scan (of the empty repository) has completed, with its progress', async () => {
    const shown = await waitFor(async () => {
      const res = (await audit('/audit/full-audit/have-to-show', { instance_id: instanceId }, people.consumer.key)).body.response;
      return res.show ? res : undefined;
    }, 60000, 'the full-audit panel');
    expect(shown).toEqual({ show: true, scan: { state: 'COMPLETED', reason: 'instance', documents: 0, chunks: 0, chunks_done: 0, started_at: expect.any(String), finished_at: expect.any(String), findings: 0 }, awaiting_model: 0 });
  });

  it('documents arriving in RUNNING_PHASE are rescanned incrementally: two documents that disagree give one DETECTED conflict, written for people', async () => {
    docs.policy = await ingest('refund-policy.md', '# Refunds\n\nRefunds of an order are processed within 30 days.');
    docs.faq = await ingest('customer-faq.md', '# Refunds\n\nRefunds of an order are processed within 14 days.');
    docs.canteen = await ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon and serves soup on Mondays.');
    refund = await findBetween(docs.policy, docs.faq, ['DETECTED']);
    expect(refund).toMatchObject({ id: expect.stringMatching(/^fc_/), state: 'DETECTED', attribute: 'duration', is_important: false, linked_questions: [], answer: null, compagnon_recommendations: [] });
    expect(refund.subject).toEqual(expect.any(String));
    expect(refund.explanation).toMatch(/14 days/);
    expect(refund.explanation).toMatch(/30 days/);
    expect(refund.compagnon_questions.length).toBeGreaterThanOrEqual(1);
    const byDocument = Object.fromEntries(refund.excerpts.map((e: Json) => [e.document_id, e]));
    expect(byDocument[docs.faq]).toMatchObject({ document_name: 'customer-faq.md', document_url: 'https://intranet.example/customer-faq.md', semantic_node_id: expect.stringMatching(/^kn_/), value: '14 days' });
    expect(byDocument[docs.faq].text.slice(byDocument[docs.faq].value_start, byDocument[docs.faq].value_end)).toBe('14 days');
    expect((await list()).total).toBe(1);
    // The consumer reads the same detail.
    expect(await detail(refund.id, people.consumer.key)).toMatchObject({ id: refund.id, state: 'DETECTED' });
  }, 120000);

  // Refusals of the HTTP layer (validation, guards, envelopes), the same code in either mode: embedded only (the rule
  // at BOTH_MODES in @svc/test-kit).
  if (mode === 'embedded') {
    it('refuses: 400 for a qc_ id (wrong namespace, with the hint) on every operation and for bad fields, 404 unknown, 401, 403 by role and for non-members', async () => {
      const ops: [string, object][] = [
        ['/audit/full-audit/detail', {}],
        ['/audit/full-audit/set-state', { state: 'managed' }],
        ['/audit/full-audit/set-expert-answer', { answer: 'x' }],
        ['/audit/full-audit/close', {}],
        ['/audit/full-audit/ignore', {}],
      ];
      for (const [path, extra] of ops) {
        const wrong = await audit(path, { instance_id: instanceId, conflict_id: `qc_${UNKNOWN}`, ...extra });
        expect([path, wrong.status, wrong.body.code]).toEqual([path, 400, 'FULL_AUDIT_CONFLICT.WRONG_NAMESPACE']);
        expect(wrong.body.hint).toContain('audit_question_conflict_get');
        expect([path, (await audit(path, { instance_id: instanceId, conflict_id: `fc_${UNKNOWN}`, ...extra })).status]).toEqual([path, 404]);
        expect([path, (await audit(path, { instance_id: instanceId, conflict_id: refund.id, ...extra, bogus: 1 })).status]).toEqual([path, 400]);
        expect([path, (await anonymous(path, { instance_id: instanceId, conflict_id: refund.id, ...extra })).status]).toEqual([path, 401]);
        expect([path, (await audit(path, { instance_id: instanceId, conflict_id: refund.id, ...extra }, people.billing.key)).status]).toEqual([path, 403]);
        expect([path, (await audit(path, { instance_id: instanceId, conflict_id: refund.id, ...extra }, people.outsider.key)).status]).toEqual([path, 403]);
      }
      // Resolving needs a resolving role; set-state a governing one.
      for (const [path, extra] of ops.slice(1)) expect([path, (await audit(path, { instance_id: instanceId, conflict_id: refund.id, ...extra }, people.consumer.key)).status]).toEqual([path, 403]);
      expect((await audit('/audit/full-audit/set-state', { instance_id: instanceId, conflict_id: refund.id, state: 'managed' }, people.expert.key)).status).toBe(403);
      expect((await audit('/audit/full-audit/set-state', { instance_id: instanceId, conflict_id: refund.id, state: 'closed' })).body.errors[0].message).toContain('state must be one of the following values');
      expect((await audit('/audit/full-audit/set-expert-answer', { instance_id: instanceId, conflict_id: refund.id, answer: 42 })).body.errors[0].message).toBe('answer must be a string');
      expect((await audit('/audit/full-audit/list', { instance_id: instanceId, state_in: ['OPEN'] })).status).toBe(400);
      expect((await audit('/audit/full-audit/list', { instance_id: instanceId, only_linked_to_question: 'yes' })).status).toBe(400);
      expect((await audit('/audit/full-audit/list', { instance_id: `ki_${UNKNOWN}` })).status).toBe(404);
      expect((await anonymous('/audit/full-audit/list', { instance_id: instanceId })).status).toBe(401);
      expect((await audit('/audit/full-audit/have-to-show', { instance_id: instanceId }, people.billing.key)).status).toBe(403);
      // Nothing of that changed the conflict.
      expect(await detail(refund.id)).toMatchObject({ state: 'DETECTED', answer: null, version: refund.version });
    });
  }

  it("set-expert-answer keeps the state and returns the recommendations, saved as compagnon_recommendations; close is idempotent; ignore on MANAGED is 409", async () => {
    const answered = await audit('/audit/full-audit/set-expert-answer', { instance_id: instanceId, conflict_id: refund.id, answer: 'Refunds are processed within 14 days.' }, people.expert.key);
    expect(answered.status).toBe(200);
    const recommendations = answered.body.response.recommendations as Json[];
    expect(Object.fromEntries(recommendations.map((r) => [r.document_id, r.action]))).toEqual({ [docs.faq]: 'KEEP', [docs.policy]: 'UPDATE' });
    expect(recommendations.find((r) => r.action === 'UPDATE')).toMatchObject({ document_name: 'refund-policy.md', proposed_text: expect.stringContaining('14 days'), estimated_seconds: expect.any(Number) });
    const got = await detail(refund.id);
    expect(got).toMatchObject({ state: 'DETECTED', answer: 'Refunds are processed within 14 days.', answered_at: expect.any(String) });
    expect(got.compagnon_recommendations).toEqual(recommendations);
    expect((await audit('/audit/full-audit/close', { instance_id: instanceId, conflict_id: refund.id }, people.expert.key)).body).toEqual({ response: true });
    expect((await audit('/audit/full-audit/close', { instance_id: instanceId, conflict_id: refund.id })).body).toEqual({ response: true });
    const ignored = await audit('/audit/full-audit/ignore', { instance_id: instanceId, conflict_id: refund.id });
    expect([ignored.status, ignored.body.code]).toEqual([409, 'FULL_AUDIT.INVALID_TRANSITION']);
    expect((await audit('/audit/full-audit/set-expert-answer', { instance_id: instanceId, conflict_id: refund.id, answer: 'x' })).status).toBe(409);
    expect((await list()).total).toBe(0);
    expect((await list({ state_in: ['MANAGED'] })).items.map((c) => c.id)).toEqual([refund.id]);
  });

  it('lifecycle: a MANAGED conflict fixed then broken again is REDETECTED; fixed again it DISAPPEARS (out of the default lists)', async () => {
    // The FAQ is fixed: the scan no longer finds the contradiction; a MANAGED conflict stays MANAGED.
    await ingest('customer-faq.md', '# Refunds\n\nRefunds of an order are processed within 30 days.');
    await waitFor(async () => ((await audit('/audit/full-audit/have-to-show', { instance_id: instanceId })).body.response.show ? true : undefined), 10000, 'panel');
    // The contradiction comes back: REDETECTED.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await detail(refund.id)).state).toBe('MANAGED');
    await ingest('customer-faq.md', '# Refunds\n\nRefunds of an order are processed within 14 days.');
    await stateBecomes(refund.id, 'REDETECTED');
    expect((await list({ state_in: ['REDETECTED'] })).items.map((c) => c.id)).toEqual([refund.id]);
    // Fixed again while REDETECTED: DISAPPEARED, left out of [] (all but DISAPPEARED), listed when asked for.
    await ingest('customer-faq.md', '# Refunds\n\nRefunds of an order are processed within 30 days.');
    await stateBecomes(refund.id, 'DISAPPEARED');
    expect((await list({ state_in: [] })).items.map((c) => c.id)).not.toContain(refund.id);
    expect((await list({ state_in: ['DISAPPEARED'] })).items.map((c) => c.id)).toEqual([refund.id]);
    const closed = await audit('/audit/full-audit/close', { instance_id: instanceId, conflict_id: refund.id });
    expect([closed.status, closed.body.code]).toEqual([409, 'FULL_AUDIT.INVALID_TRANSITION']);
    expect((await audit('/audit/full-audit/set-state', { instance_id: instanceId, conflict_id: refund.id, state: 'detected' })).status).toBe(409);
    // It comes back as DETECTED (it was never managed since).
    await ingest('customer-faq.md', '# Refunds\n\nRefunds of an order are processed within 14 days.');
    await stateBecomes(refund.id, 'DETECTED');
  }, 240000);

  it('an IGNORED contradiction is never raised again, also by a rescan of its documents; set-state reopens it and manages it', async () => {
    docs.shipping = await ingest('shipping.md', '# Delivery\n\nStandard delivery of parcels takes 3 working days.');
    docs.carrier = await ingest('carrier.md', '# Delivery\n\nStandard delivery of parcels takes 5 working days.');
    const delivery = await findBetween(docs.shipping, docs.carrier, ['DETECTED']);
    expect((await audit('/audit/full-audit/ignore', { instance_id: instanceId, conflict_id: delivery.id }, people.expert.key)).body).toEqual({ response: true });
    expect((await audit('/audit/full-audit/ignore', { instance_id: instanceId, conflict_id: delivery.id })).body).toEqual({ response: true });
    // Both documents change (a sentence added), are rescanned, and the contradiction is still there: nothing raised.
    await ingest('shipping.md', '# Delivery\n\nStandard delivery of parcels takes 3 working days.\n\nParcels are tracked online.');
    await ingest('carrier.md', '# Delivery\n\nStandard delivery of parcels takes 5 working days.\n\nThe carrier collects at 4 pm.');
    await new Promise((r) => setTimeout(r, 4000));
    const all = await list({ state_in: ['DETECTED', 'REDETECTED', 'MANAGED', 'IGNORED', 'DISAPPEARED'] });
    expect(all.items.filter((c) => JSON.stringify(between(c)) === JSON.stringify([docs.shipping, docs.carrier].sort())).map((c) => [c.id, c.state])).toEqual([[delivery.id, 'IGNORED']]);
    // The governance override: detected reopens, managed closes.
    expect((await audit('/audit/full-audit/set-state', { instance_id: instanceId, conflict_id: delivery.id, state: 'detected' })).body).toEqual({ response: true });
    expect((await detail(delivery.id)).state).toBe('DETECTED');
    expect((await audit('/audit/full-audit/set-state', { instance_id: instanceId, conflict_id: delivery.id, state: 'managed' })).body).toEqual({ response: true });
    expect((await audit('/audit/full-audit/set-state', { instance_id: instanceId, conflict_id: delivery.id, state: 'managed' })).body).toEqual({ response: true });
    expect((await detail(delivery.id)).state).toBe('MANAGED');
    docs.delivery = delivery.id;
  }, 180000);

  it('a document deleted removes its contradictions: DISAPPEARED', async () => {
    docs.hours = await ingest('opening-hours.md', '# Helpdesk\n\nThe helpdesk phone line is open from 9:00 to 17:00.');
    docs.hours2 = await ingest('helpdesk-card.md', '# Helpdesk\n\nThe helpdesk phone line is open from 8:00 to 18:00.');
    const hours = await findBetween(docs.hours, docs.hours2, ['DETECTED']);
    expect(hours.attribute).toBe('time-range');
    const deleted = await post(`${service.urls.retrieval}/api/documents/delete`, { document_id: docs.hours2 }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
    expect(deleted.status).toBe(200);
    await stateBecomes(hours.id, 'DISAPPEARED');
  }, 180000);

  it('owner flag on: a member sees only the conflicts touching documents they own (404 otherwise); admins see all', async () => {
    const current = (await list({ state_in: [] })).items;
    const target = current.find((c) => c.documents.some((d: Json) => d.document_id === docs.faq))!;
    const setOwner = (documentId: string, owner: string | null) => audit('/audit/document/set-owner', { instance_id: instanceId, document_id: documentId, owner_user_id: owner });
    await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: true });
    try {
      expect((await list({ state_in: [] }, people.consumer.key)).total).toBe(0);
      expect((await audit('/audit/full-audit/detail', { instance_id: instanceId, conflict_id: target.id }, people.consumer.key)).status).toBe(404);
      expect((await setOwner(docs.faq, people.consumer.id)).status).toBe(200);
      expect((await list({ state_in: [] }, people.consumer.key)).items.map((c) => c.id)).toEqual([target.id]);
      expect((await audit('/audit/full-audit/detail', { instance_id: instanceId, conflict_id: target.id }, people.consumer.key)).body.response.documents).toHaveLength(2);
      expect((await audit('/audit/full-audit/detail', { instance_id: instanceId, conflict_id: docs.delivery }, people.consumer.key)).status).toBe(404);
      expect((await list({ state_in: [] })).total).toBe(current.length);
    } finally {
      await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: false });
      await setOwner(docs.faq, null);
    }
  });

  it('a conflict a mandatory question also touches is linked and important; only_linked_to_question lists those', async () => {
    const question = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long does the processing of a refund of an order take?' })).body.response.id;
    await waitFor(async () => ((await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, question_id_in: [question] })).body.response.total > 0 ? true : undefined), 90000, 'the question conflict');
    // The next scan of the refund documents links them.
    await ingest('refund-policy.md', '# Refunds\n\nRefunds of an order are processed within 30 days.\n\nRefunds go back to the card used.');
    const linked = await waitFor(async () => (await list({ only_linked_to_question: true })).items[0], 90000, 'a linked conflict');
    expect(linked).toMatchObject({ id: refund.id, is_important: true, linked_questions: [{ question_id: question, question: expect.stringContaining('refund') }] });
    expect((await list({ only_linked_to_question: false })).total).toBeGreaterThan((await list({ only_linked_to_question: true })).total - 1);
  }, 180000);

  it('MCP: the five full-audit tools, to success, with the same refusals; set-state and have-to-show are REST only', async () => {
    const connect = async (key: string) => {
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      return client;
    };
    const client = await connect(adminKey);
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const tool of ['audit_full_audit_conflict_list', 'audit_full_audit_conflict_get', 'audit_full_audit_conflict_set_answer', 'audit_full_audit_conflict_close', 'audit_full_audit_conflict_ignore']) expect(names).toContain(tool);
    expect(names).not.toContain('audit_full_audit_set_state');
    expect(names).not.toContain('audit_full_audit_have_to_show');
    const call = async (name: string, args: Json) => {
      const result = await client.callTool({ name, arguments: { instance_id: instanceId, ...args } });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
      return (result.structuredContent as Json).response;
    };
    docs.parking = await ingest('parking.md', '# Parking\n\nVisitor parking costs 4 EUR per hour.');
    docs.reception = await ingest('reception.md', '# Parking\n\nVisitor parking costs 6 EUR per hour.');
    const parking = await waitFor(async () => ((await call('audit_full_audit_conflict_list', {})).items as Json[]).find((c) => c.documents.some((d: Json) => d.document_id === docs.reception)), 90000, 'the parking conflict');
    expect((await call('audit_full_audit_conflict_get', { conflict_id: parking.id })).attribute).toBe('amount:EUR');
    expect((await call('audit_full_audit_conflict_set_answer', { conflict_id: parking.id, answer: 'Visitor parking costs 4 EUR per hour.' })).recommendations).toHaveLength(2);
    expect(await call('audit_full_audit_conflict_close', { conflict_id: parking.id })).toBe(true);
    const refused = await client.callTool({ name: 'audit_full_audit_conflict_ignore', arguments: { instance_id: instanceId, conflict_id: parking.id } });
    expect([refused.isError, (refused.structuredContent as Json).status]).toEqual([true, 409]);
    const wrong = await client.callTool({ name: 'audit_full_audit_conflict_get', arguments: { instance_id: instanceId, conflict_id: `qc_${UNKNOWN}` } });
    expect([wrong.isError, (wrong.structuredContent as Json).code]).toEqual([true, 'FULL_AUDIT_CONFLICT.WRONG_NAMESPACE']);
    await client.close();
    const consumer = await connect(people.consumer.key);
    const denied = await consumer.callTool({ name: 'audit_full_audit_conflict_close', arguments: { instance_id: instanceId, conflict_id: parking.id } });
    expect([denied.isError, (denied.structuredContent as Json).status]).toEqual([true, 403]);
    await consumer.close();
  }, 180000);

  if (mode === 'distributed') {
    it('records the scan and every mutation by people in the activity log, with the actor', async () => {
      const pg = new PgClient({ connectionString: service.env.DATABASE_URL });
      await pg.connect();
      try {
        const rows = (await pg.query(`SELECT action, actor_user_id FROM activity.entries WHERE subject_id = $1 ORDER BY occurred_at, id`, [refund.id])).rows as { action: string; actor_user_id: string | null }[];
        const actions = rows.map((r) => r.action);
        expect(actions).toEqual(expect.arrayContaining(['full_audit_conflict.detected', 'audit_full_audit_conflict_set_answer', 'audit_full_audit_conflict_close', 'full_audit_conflict.redetected', 'full_audit_conflict.disappeared', 'full_audit_conflict.returned']));
        expect(rows.find((r) => r.action === 'audit_full_audit_conflict_set_answer')?.actor_user_id).toBe(people.expert.id);
        expect(rows.find((r) => r.action === 'full_audit_conflict.detected')?.actor_user_id).toBeNull();
      } finally {
        await pg.end();
      }
    });
  }
});
