import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { Client as PgClient } from 'pg';
import { BOTH_MODES, Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/**
 * Mandatory questions and question conflicts over HTTP and MCP: the instance reaches RUNNING_PHASE
 * empty, a question is asked, documents arrive afterwards and the analysis (jobs, no button) raises
 * the conflict between the two documents that disagree; then the expert's answer, recommendations,
 * close, ignore and every refusal. Distributed mode: PostgreSQL, Redis/BullMQ and the HTTP repository client.
 */
describe.each(BOTH_MODES)('mandatory questions and question conflicts (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let instanceKey: string;
  const people: Record<'steward' | 'expert' | 'consumer' | 'billing' | 'outsider', { id: string; key: string }> = {} as never;
  const docs: Record<string, string> = {};
  let refundQuestion: string;
  let unanswerable: string;

  const audit = (path: string, body: unknown, credential = adminKey) => post(`${service.urls.audit}${path}`, body, credential);
  const ingest = (name: string, content_text: string) =>
    post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, url: `https://intranet.example/${name}`, content_text }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
  const questionState = async (id: string) => (await audit('/audit/mandatory-question/list', { instance_id: instanceId, limit: 1000 })).body.response.items.find((q: Json) => q.id === id)?.state;
  const settled = (id: string, states: string[]) => waitFor(async () => { const s = await questionState(id); return states.includes(s) ? s : undefined; }, 90000, `question ${id} in ${states.join('/')}`);
  const openConflicts = async () => (await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, question_id_in: [refundQuestion] })).body.response.items as Json[];

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, ...(mode === 'distributed' ? { REPOSITORY_CLIENT: 'http' } : {}) });
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    for (const [name, role] of Object.entries({ steward: 'STEWARD', expert: 'KNOWLEDGE_EXPERT', consumer: 'CONSUMER', billing: 'BILLING', outsider: 'STEWARD' })) {
      const member = await post(`${service.urls.auth}/core/organization/members/create`, { email: `${name}@example.com`, name, roles: [role] }, token);
      const key = await post(`${service.urls.auth}/core/organization/api-keys/create`, { name, roles: [role], user_id: member.body.response.id }, token);
      people[name as keyof typeof people] = { id: member.body.response.id, key: key.body.response.api_key };
    }
    instanceId = (await audit('/audit/instance/create', { name: 'Questions' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    for (const who of ['steward', 'expert', 'consumer'] as const) await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people[who].id });
    // An empty instance walks to RUNNING_PHASE at once; documents arrive afterwards (the usual path).
    await waitFor(async () => ((await audit('/audit/instance/get-instance', { instance_id: instanceId })).body.response.step === 'RUNNING_PHASE' ? true : undefined), 30000, 'RUNNING_PHASE');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('audit_mandatory_question_create: the new question in PENDING, analysed with no document as REFUSED', async () => {
    const created = await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long does the refund of an order take?' }, people.steward.key);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ response: { id: expect.stringMatching(/^mq_/), state: 'PENDING' } });
    refundQuestion = created.body.response.id;
    unanswerable = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'Which colour is the chief executive officer car?' })).body.response.id;
    expect(await settled(refundQuestion, ['REFUSED'])).toBe('REFUSED');
  }, 120000);

  it('documents ingested after RUNNING_PHASE re-analyse the question through the outbox: two documents disagree, one conflict', async () => {
    docs.policy = (await ingest('refund-policy.md', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.')).body.response.id;
    docs.faq = (await ingest('customer-faq.md', '# Customer FAQ\n\nThe refund of an order takes 14 days.')).body.response.id;
    docs.other = (await ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon and serves soup on Mondays.')).body.response.id;
    const conflicts = await waitFor(async () => { const items = await openConflicts(); return items.length > 0 ? items : undefined; }, 90000, 'a question conflict');
    expect(conflicts).toHaveLength(1);
    const [conflict] = conflicts;
    expect(conflict).toMatchObject({ id: expect.stringMatching(/^qc_/), question_id: refundQuestion, state: 'OPEN', answer: null });
    expect(conflict.documents.map((d: Json) => d.document_id).sort()).toEqual([docs.policy, docs.faq].sort());
    expect(conflict.documents.find((d: Json) => d.document_id === docs.faq)).toMatchObject({ document_name: 'customer-faq.md', document_url: 'https://intranet.example/customer-faq.md' });
    expect(conflict.answer_groups.map((g: Json) => g.answer).sort()).toHaveLength(2);
    const excerpt = conflict.answer_groups[0].excerpts[0];
    expect(excerpt.text.slice(excerpt.answer_start, excerpt.answer_end)).toBe(excerpt.extracted_answer);
    expect(await settled(refundQuestion, ['CONFLICTS'])).toBe('CONFLICTS');
    // Each later ingestion re-analyses the question (ANALYZING for a moment): wait until the filtered list shows it.
    const listed = await waitFor(async () => {
      const items = (await audit('/audit/mandatory-question/list', { instance_id: instanceId, state: 'CONFLICTS' })).body.response.items as Json[];
      return items.find((q) => q.id === refundQuestion);
    }, 90000, 'the question listed under CONFLICTS');
    expect(listed).toMatchObject({ conflict_count: 1, answer: null, analyzed_at: expect.any(String) });
    expect(await settled(unanswerable, ['REFUSED'])).toBe('REFUSED');
  }, 180000);

  it('re-running the analysis on an unchanged repository creates nothing (fingerprints)', async () => {
    const before = await openConflicts();
    // Re-ingesting the same content changes nothing; a new unrelated document triggers re-analysis checks.
    await ingest('parking.md', '# Parking\n\nVisitors park on level two.');
    // The ingestion itself re-analyses every question; force-analyze answers 409 while that runs, so retry until REFUSED again.
    const forced = await waitFor(async () => {
      const res = await audit('/audit/mandatory-question/force-analyze', { instance_id: instanceId, question_id: unanswerable });
      if (res.status === 409) { expect(res.body.code).toBe('MANDATORY_QUESTION.INVALID_TRANSITION'); return undefined; }
      return res;
    }, 90000, 'force-analyze accepted');
    expect(forced.body).toEqual({ response: true });
    await settled(unanswerable, ['REFUSED']);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await openConflicts()).map((c) => c.id)).toEqual(before.map((c) => c.id));
    const all = (await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, state_in: [] })).body.response;
    expect(all.total).toBe(1);
  }, 120000);

  // Refusals of the HTTP layer (validation, guards, envelopes), the same code in either mode: embedded only (the rule
  // at BOTH_MODES in @svc/test-kit).
  if (mode === 'embedded') {
    it('audit_question_conflict_get, and 400 for a fc_ id (wrong namespace), a bad field, a bad prefix; 404 for an unknown one', async () => {
      const [conflict] = await openConflicts();
      const got = await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id }, people.consumer.key);
      expect(got.status).toBe(200);
      expect(got.body.response).toMatchObject({ id: conflict.id, question: expect.stringContaining('refund'), state: 'OPEN', recommendations: [] });
      const wrong = await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: `fc_${UNKNOWN}` });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe('QUESTION_CONFLICT.WRONG_NAMESPACE');
      expect(wrong.body.hint).toContain('audit_full_audit_conflict_get');
      for (const op of ['/audit/conflict/set-answer', '/audit/conflict/set-managed', '/audit/conflict/set-ignored']) {
        const body = { instance_id: instanceId, conflict_id: `fc_${UNKNOWN}`, ...(op.endsWith('answer') ? { answer: 'x' } : {}) };
        expect((await audit(op, body)).body.code).toBe('QUESTION_CONFLICT.WRONG_NAMESPACE');
      }
      expect((await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: 'qc_nope' })).status).toBe(400);
      expect((await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id, extra: 1 })).status).toBe(400);
      expect((await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, state_in: ['CLOSED'] })).status).toBe(400);
      expect((await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, document_id_in: [`mq_${UNKNOWN}`] })).status).toBe(400);
      expect((await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: `qc_${UNKNOWN}` })).status).toBe(404);
      expect((await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 42 })).body.errors[0].message).toBe('question must be a string');
      expect((await audit('/audit/mandatory-question/set-managed', { instance_id: instanceId, question_id: `qc_${UNKNOWN}` })).status).toBe(400);
    });
  }

  it('filters: state_in, question_id_in, document_id_in', async () => {
    const list = (body: object) => audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, ...body });
    expect((await list({ document_id_in: [docs.other] })).body.response.total).toBe(0);
    expect((await list({ document_id_in: [docs.faq] })).body.response.total).toBe(1);
    expect((await list({ question_id_in: [unanswerable] })).body.response.total).toBe(0);
    expect((await list({ state_in: ['MANAGED'] })).body.response.total).toBe(0);
  });

  it('owner flag on: a member sees the conflicts, counts and recommendations of the documents they own, nothing else (404)', async () => {
    const [conflict] = await openConflicts();
    const setOwner = (documentId: string, owner: string | null) => audit('/audit/document/set-owner', { instance_id: instanceId, document_id: documentId, owner_user_id: owner });
    const seenBy = async (key: string) => ({
      listed: (await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId }, key)).body.response.total,
      got: (await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id }, key)).status,
      count: (await audit('/audit/mandatory-question/list', { instance_id: instanceId, limit: 1000 }, key)).body.response.items.find((q: Json) => q.id === refundQuestion).conflict_count,
      recommendations: (await audit('/audit/document/get-recommendations', { instance_id: instanceId, document_id: docs.faq }, key)).status,
    });
    await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: true });
    try {
      // Owning a document outside the conflict shows nothing of it.
      expect((await setOwner(docs.other, people.consumer.id)).status).toBe(200);
      expect(await seenBy(people.consumer.key)).toEqual({ listed: 0, got: 404, count: 0, recommendations: 404 });
      // Owning one side of it shows the whole conflict, excerpts of both sides included.
      expect((await setOwner(docs.faq, people.consumer.id)).status).toBe(200);
      expect(await seenBy(people.consumer.key)).toEqual({ listed: 1, got: 200, count: 1, recommendations: 200 });
      expect((await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id }, people.consumer.key)).body.response.documents).toHaveLength(2);
      // Admins see everything.
      expect(await seenBy(adminKey)).toEqual({ listed: 1, got: 200, count: 1, recommendations: 200 });
    } finally {
      await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: false });
      await setOwner(docs.faq, null);
      await setOwner(docs.other, null);
    }
    expect(await seenBy(people.consumer.key)).toEqual({ listed: 1, got: 200, count: 1, recommendations: 200 });
  });

  // Refusals of the HTTP layer (validation, guards, envelopes), the same code in either mode: embedded only (the rule
  // at BOTH_MODES in @svc/test-kit).
  if (mode === 'embedded') {
    it('refuses: 401 without credential, 403 by role and for non-members, 404 for unknown instances', async () => {
      const [conflict] = await openConflicts();
      const reads: [string, object][] = [
        ['/audit/mandatory-question/list', {}],
        ['/audit/conflict/list-conflicts-for-instance', {}],
        ['/audit/conflict/get', { conflict_id: conflict.id }],
        ['/audit/conflict/get-top-collaborators', {}],
        ['/audit/document/get-recommendations', { document_id: docs.faq }],
      ];
      for (const [path, extra] of reads) {
        const body = { instance_id: instanceId, ...extra };
        expect((await post(`${service.urls.audit}${path}`, body)).status).toBe(401);
        expect((await audit(path, body, people.billing.key)).status).toBe(403);
        expect((await audit(path, body, people.outsider.key)).status).toBe(403);
        expect((await audit(path, { ...body, instance_id: `ki_${UNKNOWN}` })).status).toBe(404);
      }
      // resolve: not for CONSUMER; govern: not for KNOWLEDGE_EXPERT or CONSUMER.
      expect((await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflict.id, answer: '14 days' }, people.consumer.key)).status).toBe(403);
      expect((await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'Who signs contracts?' }, people.expert.key)).status).toBe(403);
      expect((await audit('/audit/mandatory-question/set-ignored', { instance_id: instanceId, question_id: unanswerable }, people.consumer.key)).status).toBe(403);
      expect((await audit('/audit/mandatory-question/set-ignored', { instance_id: instanceId, question_id: `mq_${UNKNOWN}` })).status).toBe(404);
    });
  }

  it('state machine: close on OPEN is 409; concurrent set-answers lose no update; recommendations; close; idempotent repeats', async () => {
    const [conflict] = await openConflicts();
    const closeOpen = await audit('/audit/conflict/set-managed', { instance_id: instanceId, conflict_id: conflict.id });
    expect(closeOpen.status).toBe(409);
    expect(closeOpen.body.code).toBe('QUESTION_CONFLICT.INVALID_TRANSITION');

    const answers = ['The refund of an order takes 14 days.', 'The refund of an order takes 21 days.', 'The refund of an order takes two weeks.', 'Refunds take 14 days.'];
    const results = await Promise.all(answers.map((answer) => audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflict.id, answer }, people.expert.key)));
    const won = results.filter((r) => r.status === 200);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.code).toBe('QUESTION_CONFLICT.CONCURRENT_EDIT');
    const after = (await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id })).body.response;
    // Every accepted answer moved the version once: none was overwritten unseen.
    expect(after.version).toBe(conflict.version + won.length);
    expect(after.state).toBe('RECOMMENDATIONS_READY');

    const answered = await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflict.id, answer: 'The refund of an order takes 14 days.' }, people.expert.key);
    expect(answered.status).toBe(200);
    const recommendations = answered.body.response.recommendations as Json[];
    expect(recommendations.map((r) => [r.document_id, r.action]).sort()).toEqual([[docs.faq, 'KEEP'], [docs.policy, 'UPDATE']].sort());
    const update = recommendations.find((r) => r.action === 'UPDATE');
    expect(update).toMatchObject({ document_name: 'refund-policy.md', document_url: 'https://intranet.example/refund-policy.md', proposed_text: expect.stringContaining('14'), estimated_seconds: expect.any(Number) });
    // Not pending work until the conflict is closed.
    expect((await audit('/audit/document/get-recommendations', { instance_id: instanceId, document_id: docs.policy })).body.response).toEqual([]);

    expect((await audit('/audit/conflict/set-managed', { instance_id: instanceId, conflict_id: conflict.id }, people.expert.key)).body).toEqual({ response: true });
    expect((await audit('/audit/conflict/set-managed', { instance_id: instanceId, conflict_id: conflict.id }, people.expert.key)).body).toEqual({ response: true });
    const pending = (await audit('/audit/document/get-recommendations', { instance_id: instanceId, document_id: docs.policy }, people.consumer.key)).body.response;
    expect(pending).toEqual([expect.objectContaining({ id: update.id, action: 'UPDATE', conflict_id: conflict.id })]);
    expect((await audit('/audit/document/get-recommendations', { instance_id: instanceId, document_id: `kd_${UNKNOWN}` })).status).toBe(404);

    const again = await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflict.id, answer: 'x' });
    expect(again.status).toBe(409);
    expect((await audit('/audit/conflict/set-ignored', { instance_id: instanceId, conflict_id: conflict.id })).status).toBe(409);
  }, 60000);

  it('state machine of an ignored conflict: ignore is idempotent; set-answer and close are 409', async () => {
    const passwords = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'What is the minimum length of a password?' })).body.response.id;
    await ingest('password-policy.md', '# Password policy\n\nPasswords must be at least 14 characters long.');
    await ingest('password-guidelines.md', '# Password guidelines\n\nPasswords must be at least 12 characters long.');
    const conflict = await waitFor(async () => (await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, question_id_in: [passwords] })).body.response.items[0] as Json | undefined, 90000, 'the password conflict');
    const ignore = () => audit('/audit/conflict/set-ignored', { instance_id: instanceId, conflict_id: conflict.id }, people.expert.key);
    expect((await ignore()).body).toEqual({ response: true });
    expect((await ignore()).body).toEqual({ response: true });
    for (const [path, body] of [['/audit/conflict/set-answer', { answer: '14 characters' }], ['/audit/conflict/set-managed', {}]] as const) {
      const refused = await audit(path, { instance_id: instanceId, conflict_id: conflict.id, ...body }, people.expert.key);
      expect([path, refused.status, refused.body.code]).toEqual([path, 409, 'QUESTION_CONFLICT.INVALID_TRANSITION']);
    }
    expect((await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id })).body.response).toMatchObject({ state: 'IGNORED', answer: null });
  }, 120000);

  it('a conflict the documents no longer hold is closed by the analysis when a document is fixed, with no button to press', async () => {
    const probation = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long is the probation period?' })).body.response.id;
    await ingest('probation.md', '# Probation\n\nThe probation period lasts three months.');
    await ingest('contracts.md', '# Contracts\n\nThe probation period lasts six months.');
    const conflict = await waitFor(async () => (await audit('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, question_id_in: [probation] })).body.response.items[0] as Json | undefined, 90000, 'the probation conflict');
    expect(conflict.state).toBe('OPEN');
    // The contract document is corrected: the re-analysis its change starts no longer finds the contradiction.
    await ingest('contracts.md', '# Contracts\n\nThe probation period lasts three months.');
    const closed = await waitFor(async () => { const c = (await audit('/audit/conflict/get', { instance_id: instanceId, conflict_id: conflict.id })).body.response; return c.state === 'MANAGED' ? c : undefined; }, 90000, 'the conflict closed by the analysis');
    expect(closed.closed_at).toEqual(expect.any(String));
    expect(await settled(probation, ['NO_CONFLICT'])).toBe('NO_CONFLICT');
  }, 180000);

  it('mandatory-question state machine: set-answer, force-analyze outside REFUSED (409), set-managed re-indexes cited documents, set-ignored', async () => {
    expect((await audit('/audit/mandatory-question/force-analyze', { instance_id: instanceId, question_id: refundQuestion })).status).toBe(409);
    expect((await audit('/audit/mandatory-question/set-answer', { instance_id: instanceId, question_id: refundQuestion, answer: '14 days' }, people.steward.key)).body).toEqual({ response: true });
    expect((await audit('/audit/mandatory-question/set-answer', { instance_id: instanceId, question_id: `msq_${UNKNOWN}`, answer: 'x' })).status).toBe(404);
    expect((await audit('/audit/mandatory-question/set-managed', { instance_id: instanceId, question_id: refundQuestion }, people.steward.key)).body).toEqual({ response: true });
    // Every cited document is queued for re-indexation.
    const states = (await audit('/audit/document/list', { instance_id: instanceId, limit: 100 })).body.response.items.filter((d: Json) => [docs.policy, docs.faq].includes(d.document_id)).map((d: Json) => d.indexation_state);
    expect(states.every((s: string) => ['PENDING', 'PARSING', 'INDEXED'].includes(s))).toBe(true);
    expect((await audit('/audit/mandatory-question/set-managed', { instance_id: instanceId, question_id: refundQuestion })).status).toBe(200);
    expect((await audit('/audit/mandatory-question/set-answer', { instance_id: instanceId, question_id: refundQuestion, answer: 'x' })).status).toBe(409);
    expect((await audit('/audit/mandatory-question/set-ignored', { instance_id: instanceId, question_id: unanswerable })).body).toEqual({ response: true });
    expect((await audit('/audit/mandatory-question/force-analyze', { instance_id: instanceId, question_id: unanswerable })).status).toBe(409);
    const listed = (await audit('/audit/mandatory-question/list', { instance_id: instanceId })).body.response;
    expect(listed.items.map((q: Json) => [q.id, q.state])).toEqual(expect.arrayContaining([[refundQuestion, 'MANAGED'], [unanswerable, 'IGNORED']]));
  }, 60000);

  if (mode === 'distributed') {
    it('records every mutation of questions and conflicts in the activity log, with the actor', async () => {
      const client = new PgClient({ connectionString: service.env.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT action, actor_user_id FROM activity.entries WHERE instance_id = $1`, [instanceId]);
        const actions = new Set(rows.map((r) => r.action as string));
        for (const action of [
          'audit_mandatory_question_create', 'audit_mandatory_question_set_answer', 'audit_mandatory_question_set_managed', 'audit_mandatory_question_set_ignored',
          'audit_question_conflict_set_answer', 'audit_question_conflict_close', 'audit_question_conflict_ignore',
          'mandatory_question.analysis_started', 'mandatory_question.analyzed', 'question_conflict.detected', 'question_conflict.closed_by_analysis',
        ]) {
          expect([action, actions.has(action)]).toEqual([action, true]);
        }
        expect(rows.find((r) => r.action === 'audit_mandatory_question_create' && r.actor_user_id === people.steward.id)).toBeDefined();
      } finally {
        await client.end();
      }
    });
  }

  it('MCP: every question tool with the same schemas and authorization; a read-only role cannot call a write tool', async () => {
    const connect = async (key: string) => {
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      return client;
    };
    const client = await connect(adminKey);
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const tool of ['audit_question_conflict_list', 'audit_question_conflict_get', 'audit_question_conflict_set_answer', 'audit_question_conflict_close', 'audit_question_conflict_ignore', 'audit_mandatory_question_list', 'audit_mandatory_question_create', 'audit_mandatory_question_force_analyze', 'audit_documents_get_recommendations']) {
      expect(names).toContain(tool);
    }
    expect(names).not.toContain('audit_mandatory_question_set_managed');
    const created = await client.callTool({ name: 'audit_mandatory_question_create', arguments: { instance_id: instanceId, question: 'How many days per week can staff work from home?' } });
    expect((created.structuredContent as Json).response).toMatchObject({ id: expect.stringMatching(/^mq_/), state: 'PENDING' });
    const listed = await client.callTool({ name: 'audit_question_conflict_list', arguments: { instance_id: instanceId, state_in: [] } });
    expect((listed.structuredContent as Json).response.total).toBeGreaterThanOrEqual(1);
    // Every question tool, to success: a conflict raised through MCP, read, answered, closed; its pending work; a refused question forced again.
    const call = async (name: string, args: Json) => {
      const result = await client.callTool({ name, arguments: { instance_id: instanceId, ...args } });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
      return (result.structuredContent as Json).response;
    };
    docs.laptops = (await ingest('laptop-requests.md', '# Laptop requests\n\nLaptops are replaced every three years.')).body.response.id;
    docs.desk = (await ingest('service-desk.md', '# Service desk\n\nLaptops are replaced every four years.')).body.response.id;
    const laptops = (await call('audit_mandatory_question_create', { question: 'How often are laptops replaced?' })).id;
    const raised = await waitFor(async () => (await call('audit_question_conflict_list', { question_id_in: [laptops] })).items[0] as Json | undefined, 90000, 'the laptop conflict');
    expect((await call('audit_question_conflict_get', { conflict_id: raised.id })).documents.map((d: Json) => d.document_id).sort()).toEqual([docs.laptops, docs.desk].sort());
    const drafted = (await call('audit_question_conflict_set_answer', { conflict_id: raised.id, answer: 'Laptops are replaced every three years.' })).recommendations as Json[];
    expect(drafted.map((r) => r.document_id).sort()).toEqual([docs.laptops, docs.desk].sort());
    expect(await call('audit_question_conflict_close', { conflict_id: raised.id })).toBe(true);
    expect((await call('audit_documents_get_recommendations', { document_id: docs.desk })).map((r: Json) => r.action)).toEqual(['UPDATE']);
    const closedIgnore = await client.callTool({ name: 'audit_question_conflict_ignore', arguments: { instance_id: instanceId, conflict_id: raised.id } });
    expect([closedIgnore.isError, (closedIgnore.structuredContent as Json).status]).toEqual([true, 409]);
    const colour = (await call('audit_mandatory_question_create', { question: 'Which colour is the chief financial officer bicycle?' })).id;
    await waitFor(async () => ((await call('audit_mandatory_question_list', { state: 'REFUSED' })).items.some((q: Json) => q.id === colour) ? true : undefined), 60000, 'the refused question');
    expect(await call('audit_mandatory_question_force_analyze', { question_id: colour })).toBe(true);

    const wrong = await client.callTool({ name: 'audit_question_conflict_get', arguments: { instance_id: instanceId, conflict_id: `fc_${UNKNOWN}` } });
    expect(wrong.isError).toBe(true);
    expect((wrong.structuredContent as Json).code).toBe('QUESTION_CONFLICT.WRONG_NAMESPACE');
    await client.close();
    const consumer = await connect(people.consumer.key);
    const refused = await consumer.callTool({ name: 'audit_question_conflict_ignore', arguments: { instance_id: instanceId, conflict_id: `qc_${UNKNOWN}` } });
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as Json).status).toBe(403);
    await consumer.close();
  }, 180000);
});
