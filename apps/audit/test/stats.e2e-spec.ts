import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const DAY_MS = 86_400_000;
const day = (offset = 0) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * Stats and dashboard over HTTP (and the dashboard over MCP): the counters move as an expert works
 * (question conflict answered and closed, duplicate cluster managed, missing subject managed), the
 * daily counters of the activity log agree with the live tables, the per-user rules, every refusal,
 * and owner visibility (a non-admin's counters count only the documents they own).
 * Embedded only (the rule at BOTH_MODES in @svc/test-kit): the counters are one SQL read model over the same tables
 * in either mode (UTC days computed in SQL, not from the server's time zone), which stats-read-model.int-spec runs on
 * PostgreSQL; the analyses that feed them run in both modes in their own specs, and the distributed full walk reads
 * the stats and the dashboard as they move, through the HTTP repository client.
 */
describe('stats and dashboard (embedded)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let otherInstanceId: string;
  let instanceKey: string;
  const people: Record<'steward' | 'expert' | 'consumer' | 'billing' | 'outsider' | 'coadmin', { id: string; key: string }> = {} as never;
  const docs: Record<string, string> = {};
  let refundQuestion: string;
  let carQuestion: string;
  let conflictId: string;

  const audit = (path: string, body: unknown, credential = adminKey) => post(`${service.urls.audit}${path}`, body, credential);
  const ingest = async (name: string, content_text: string): Promise<string> => {
    const res = await post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, url: `https://intranet.example/${name}`, content_text }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
    expect(res.status).toBe(200);
    return res.body.response.id;
  };
  const filtered = async (key = adminKey) => {
    const res = await audit('/audit/stats/get-filtered-stats', { instance_id: instanceId }, key);
    expect(res.status).toBe(200);
    return res.body.response as Record<string, number>;
  };
  const daily = async (body: object, key = adminKey) => audit('/audit/stats/get-daily-stats', { instance_id: instanceId, begin_date: day(), end_date: day(), user_id: '', ...body }, key);
  const userStats = (body: object, key = adminKey) => audit('/audit/stats/get-user-stats', { instance_id: instanceId, begin_date: day(), end_date: day(), ...body }, key);
  const dashboardEntry = async (key = adminKey, id = instanceId) => {
    const res = await audit('/audit/dashboard/get-my-dashboard', {}, key);
    expect(res.status).toBe(200);
    return (res.body.response as Json[]).find((e) => e.instance_id === id);
  };
  const questionState = async (id: string) => (await audit('/audit/mandatory-question/list', { instance_id: instanceId, limit: 1000 })).body.response.items.find((q: Json) => q.id === id)?.state;
  const listed = async (path: string, body: object) => (await audit(path, { instance_id: instanceId, limit: 100, ...body })).body.response as { items: Json[]; total: number };

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey });
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    const roles = { steward: 'STEWARD', expert: 'KNOWLEDGE_EXPERT', consumer: 'CONSUMER', billing: 'BILLING', outsider: 'STEWARD', coadmin: 'STEWARD' };
    for (const [name, role] of Object.entries(roles)) {
      const member = await post(`${service.urls.auth}/core/organization/members/create`, { email: `${name}@example.com`, name, roles: [role] }, token);
      const key = await post(`${service.urls.auth}/core/organization/api-keys/create`, { name, roles: [role], user_id: member.body.response.id }, token);
      people[name as keyof typeof people] = { id: member.body.response.id, key: key.body.response.api_key };
    }
    instanceId = (await audit('/audit/instance/create', { name: 'Stats' })).body.response.instance_id;
    otherInstanceId = (await audit('/audit/instance/create', { name: 'Stats elsewhere' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    for (const who of ['steward', 'expert', 'consumer', 'billing', 'coadmin'] as const) await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people[who].id });
    expect((await audit('/audit/user/set-user-admin-for-instance', { instance_id: instanceId, user_id: people.coadmin.id })).status).toBe(200);
    await audit('/audit/user/add-user-to-instance', { instance_id: otherInstanceId, user_id: people.outsider.id });
    await waitFor(async () => ((await audit('/audit/instance/get-instance', { instance_id: instanceId })).body.response.step === 'RUNNING_PHASE' ? true : undefined), 30000, 'RUNNING_PHASE');

    refundQuestion = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How long does the refund of an order take?' }, people.steward.key)).body.response.id;
    carQuestion = (await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'Which colour is the chief executive officer car?' }, people.steward.key)).body.response.id;
    docs.policy = await ingest('refund-policy.md', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.');
    docs.faq = await ingest('customer-faq.md', '# Customer FAQ\n\nThe refund of an order takes 14 days.');
    docs.canteen = await ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon and serves soup on Mondays.');
    docs.canteenCopy = await ingest('canteen-copy.md', '## Canteen\n\nThe canteen opens at noon and serves soup on Mondays.');
    await waitFor(async () => ((await listed('/audit/conflict/list-conflicts-for-instance', {})).total === 1 ? true : undefined), 90000, 'the question conflict');
    await waitFor(async () => ((await listed('/audit/duplicate/list-duplicates-for-instance', {})).total === 1 ? true : undefined), 90000, 'the duplicate cluster');
    await waitFor(async () => ((await listed('/audit/missing-subject/list', {})).total === 1 ? true : undefined), 90000, 'the missing subject');
    await waitFor(async () => ((await questionState(refundQuestion)) === 'CONFLICTS' && (await questionState(carQuestion)) === 'REFUSED' ? true : undefined), 90000, 'questions analysed');
    conflictId = (await listed('/audit/conflict/list-conflicts-for-instance', {})).items[0].id;
  }, 240000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('audit_stats_get_filtered: the 13 counters of an instance with one question conflict, one refused question, one missing subject and four documents', async () => {
    // Each indexed document re-analyses the questions (PENDING, ANALYZING for a moment): counted as not analyzed yet until done.
    const stats = await waitFor(async () => { const s = await filtered(); return s.questions_not_analyzed_yet === 0 ? s : undefined; }, 60000, 'every question analysed');
    expect(stats).toEqual({
      total_questions: 2,
      questions_with_conflicts_to_manage: 1,
      questions_with_conflicts_analyzed: 0,
      managed_questions: 0,
      questions_without_conflicts: 0,
      missing_subjects_count: 1,
      total_conflicts: 1,
      managed_important_conflicts: 0,
      documents_to_update_count: 0,
      total_documents: 4,
      documents_with_unmanaged_conflicts: 2,
      estimated_total_update_time: 0,
      questions_not_analyzed_yet: 0,
    });
  });

  it('audit_dashboard_get: one entry per accessible instance with what is left to do; the same over MCP; an outsider sees only their instance', async () => {
    const entry = await dashboardEntry();
    expect(entry).toEqual({ instance_id: instanceId, name: 'Stats', step: 'RUNNING_PHASE', unresolved_question_conflicts: 1, unresolved_full_audit_conflicts: expect.any(Number), pending_mandatory_questions: 2, pending_missing_subjects: 1, pending_duplicate_clusters: 1 });
    const fullAudit = await listed('/audit/full-audit/list', { state_in: ['DETECTED', 'REDETECTED'] });
    expect(entry!.unresolved_full_audit_conflicts).toBe(fullAudit.total);
    expect(await dashboardEntry(adminKey, otherInstanceId)).toMatchObject({ name: 'Stats elsewhere', unresolved_question_conflicts: 0, pending_mandatory_questions: 0 });

    const outsider = (await audit('/audit/dashboard/get-my-dashboard', {}, people.outsider.key)).body.response as Json[];
    expect(outsider.map((e) => e.instance_id)).toEqual([otherInstanceId]);

    const client = new Client({ name: 'stats-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), { requestInit: { headers: { authorization: `Bearer ${people.steward.key}` } } }));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('audit_dashboard_get');
      expect(tools.filter((n) => n.startsWith('audit_stats_'))).toEqual([]);
      const result = await client.callTool({ name: 'audit_dashboard_get', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as Json).response).toEqual([entry]);
    } finally {
      await client.close();
    }
  }, 60000);

  it('the counters move as the expert works: answer and close the conflict, manage the duplicate cluster and the missing subject', async () => {
    const answered = await audit('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflictId, answer: 'The refund of an order takes 14 days.' }, people.expert.key);
    expect(answered.status).toBe(200);
    const recommendations = answered.body.response.recommendations as Json[];
    expect(recommendations.length).toBeGreaterThan(0);
    expect((await audit('/audit/conflict/set-managed', { instance_id: instanceId, conflict_id: conflictId }, people.expert.key)).status).toBe(200);
    // The copy is deleted, then the cluster managed: its verification finds one copy left (RESOLVED).
    const cluster = (await listed('/audit/duplicate/list-duplicates-for-instance', {})).items[0];
    const deleted = await post(`${service.urls.retrieval}/api/documents/delete`, { document_id: docs.canteenCopy }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
    expect(deleted.status).toBe(200);
    expect((await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: cluster.id }, people.steward.key)).status).toBe(200);
    const subject = (await listed('/audit/missing-subject/list', {})).items[0];
    expect((await audit('/audit/missing-subject/set-state', { instance_id: instanceId, subject_id: subject.id, state: 'MANAGED' }, people.expert.key)).status).toBe(200);

    // What the close turned into pending work, read from the documents' own recommendation lists.
    const pending: Json[] = [];
    for (const id of [docs.policy, docs.faq]) pending.push(...(await audit('/audit/document/get-recommendations', { instance_id: instanceId, document_id: id })).body.response);
    const work = pending.filter((r) => r.action === 'UPDATE' || r.action === 'DELETE');
    expect(work.length).toBeGreaterThan(0);
    const stats = await filtered();
    expect(stats).toMatchObject({
      total_conflicts: 1,
      questions_with_conflicts_to_manage: 0,
      questions_with_conflicts_analyzed: 1,
      managed_important_conflicts: 1,
      documents_to_update_count: new Set(work.map((r) => r.document_id)).size,
      estimated_total_update_time: work.reduce((n, r) => n + r.estimated_seconds, 0),
      documents_with_unmanaged_conflicts: 0,
      missing_subjects_count: 1,
    });
    expect(stats.estimated_total_update_time).toBeGreaterThan(0);
    const entry = await waitFor(async () => {
      const e = await dashboardEntry();
      return e && e.pending_duplicate_clusters === 0 ? e : undefined;
    }, 60000, 'the managed cluster left out of the dashboard');
    await waitFor(async () => ((await listed('/audit/duplicate/list-duplicates-for-instance', {})).items[0]?.state === 'RESOLVED' ? true : undefined), 90000, 'the cluster verified RESOLVED');
    expect((await dashboardEntry())!.pending_duplicate_clusters).toBe(0);
    expect(entry).toMatchObject({ unresolved_question_conflicts: 0, pending_missing_subjects: 0 });
  }, 120000);

  it('audit_stats_get_daily: one row per UTC day, zero days included, and its counters agree with the live tables', async () => {
    const res = await daily({ begin_date: day(-2), end_date: day() });
    expect(res.status).toBe(200);
    const rows = res.body.response as Json[];
    expect(rows.map((r) => r.date)).toEqual([day(-2), day(-1), day()]);
    expect(rows[0]).toEqual({ date: day(-2), conflicts_detected: 0, conflicts_answered: 0, conflicts_managed: 0, conflicts_ignored: 0, full_audit_managed: 0, full_audit_ignored: 0, questions_created: 0, questions_managed: 0, missing_subjects_managed: 0, duplicates_managed: 0 });
    const today = rows[2];
    // The activity log against the tables the operations read.
    const conflicts = await listed('/audit/conflict/list-conflicts-for-instance', { state_in: [] });
    const managedConflicts = conflicts.items.filter((c) => c.state === 'MANAGED').length;
    const managedSubjects = (await listed('/audit/missing-subject/list', {})).items.filter((s) => s.state === 'MANAGED').length;
    const stats = await filtered();
    expect(today).toMatchObject({
      conflicts_detected: conflicts.total,
      conflicts_answered: conflicts.items.filter((c) => c.answer !== null).length,
      conflicts_managed: managedConflicts,
      conflicts_ignored: 0,
      questions_created: stats.total_questions,
      questions_managed: stats.managed_questions,
      missing_subjects_managed: managedSubjects,
      duplicates_managed: 1,
    });
    expect(today).toMatchObject({ conflicts_detected: 1, conflicts_answered: 1, conflicts_managed: 1, questions_created: 2, missing_subjects_managed: 1 });

    // Per user: the steward created the questions (and so the conflicts detected on them) and managed the cluster; the expert did the rest.
    const steward = (await daily({ user_id: people.steward.id })).body.response[0];
    expect(steward).toMatchObject({ questions_created: 2, conflicts_detected: 1, duplicates_managed: 1, conflicts_answered: 0, conflicts_managed: 0, missing_subjects_managed: 0 });
    const expert = (await daily({ user_id: people.expert.id }, people.expert.key)).body.response[0];
    expect(expert).toMatchObject({ questions_created: 0, conflicts_detected: 0, conflicts_answered: 1, conflicts_managed: 1, missing_subjects_managed: 1, duplicates_managed: 0 });
  });

  it('audit_stats_get_user: the caller by default, an admin reads a member, a non-admin only themselves (403), an admin asking about another admin gets false, a non-member is a 404', async () => {
    const own = await userStats({}, people.expert.key);
    expect(own.status).toBe(200);
    expect(own.body.response).toMatchObject({ user_id: people.expert.id, begin_date: day(), end_date: day(), conflicts_answered: 1, conflicts_managed: 1, missing_subjects_managed: 1 });
    const range = await userStats({ user_id: people.steward.id, begin_date: day(-30) });
    expect(range.body.response).toMatchObject({ user_id: people.steward.id, begin_date: day(-30), questions_created: 2, duplicates_managed: 1 });
    const forbidden = await userStats({ user_id: people.steward.id }, people.expert.key);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('STATS.OTHER_USER');
    expect((await daily({ user_id: people.steward.id }, people.expert.key)).status).toBe(403);
    // The co-admin (instance admin) and the bootstrap admin (global admin) are both admins.
    expect((await userStats({ user_id: people.coadmin.id })).body).toEqual({ response: false });
    expect((await daily({ user_id: people.coadmin.id })).body).toEqual({ response: false });
    const adminId = (await audit('/audit/user/get-users-for-instance', { instance_id: instanceId, limit: 100 })).body.response.items.find((u: Json) => u.is_admin && u.user_id !== people.coadmin.id).user_id;
    expect((await userStats({ user_id: adminId }, people.coadmin.key)).body).toEqual({ response: false });
    expect((await userStats({ user_id: people.coadmin.id }, people.coadmin.key)).body.response).toMatchObject({ user_id: people.coadmin.id, questions_created: 0 });
    const notMember = await userStats({ user_id: people.outsider.id });
    expect(notMember.status).toBe(404);
    expect(notMember.body.code).toBe('STATS.USER_NOT_FOUND');
  });

  it('refusals: 400 for bad dates, reversed or too long ranges, unknown fields and wrong ids; 401 without a credential; 403 by role and for non-members; 404 for an unknown instance', async () => {
    const bad = async (path: string, body: object, field: string) => {
      const res = await audit(path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(JSON.stringify(res.body)).toContain(field);
      return res.body;
    };
    await bad('/audit/stats/get-daily-stats', { instance_id: instanceId, begin_date: '24/11/2026', end_date: day(), user_id: '' }, 'begin_date');
    await bad('/audit/stats/get-daily-stats', { instance_id: instanceId, begin_date: '2026-02-30', end_date: '2026-03-01', user_id: '' }, 'begin_date');
    expect((await bad('/audit/stats/get-daily-stats', { instance_id: instanceId, begin_date: day(), end_date: day(-1), user_id: '' }, 'end_date')).code).toBe('REQUEST.EMPTY_RANGE');
    expect((await bad('/audit/stats/get-user-stats', { instance_id: instanceId, begin_date: '2025-01-01', end_date: '2026-01-02' }, 'end_date')).code).toBe('STATS.RANGE_TOO_LONG');
    await bad('/audit/stats/get-daily-stats', { instance_id: instanceId, begin_date: day(), end_date: day() }, 'user_id');
    await bad('/audit/stats/get-filtered-stats', { instance_id: instanceId, since: day() }, 'since');
    await bad('/audit/stats/get-filtered-stats', { instance_id: `mq_${UNKNOWN}` }, 'instance_id');
    await bad('/audit/stats/get-filtered-stats', {}, 'instance_id');
    await bad('/audit/dashboard/get-my-dashboard', { instance_id: instanceId }, 'instance_id');
    expect((await post(`${service.urls.audit}/audit/stats/get-filtered-stats`, { instance_id: instanceId })).status).toBe(401);
    expect((await post(`${service.urls.audit}/audit/dashboard/get-my-dashboard`, {})).status).toBe(401);
    const billing = await audit('/audit/stats/get-filtered-stats', { instance_id: instanceId }, people.billing.key);
    expect(billing.status).toBe(403);
    expect((await audit('/audit/dashboard/get-my-dashboard', {}, people.billing.key)).status).toBe(403);
    const outsider = await audit('/audit/stats/get-filtered-stats', { instance_id: instanceId }, people.outsider.key);
    expect(outsider.status).toBe(403);
    expect(outsider.body.code).toBe('WORKSPACE.NOT_A_MEMBER');
    expect((await audit('/audit/stats/get-filtered-stats', { instance_id: `ki_${UNKNOWN}` })).status).toBe(404);
    expect((await audit('/audit/stats/get-user-stats', { instance_id: `ki_${UNKNOWN}`, begin_date: day(), end_date: day() })).status).toBe(404);
  });

  it('owner flag on: a non-admin\'s document-bound counters count only the documents they own; admins still see everything', async () => {
    const setOwner = (documentId: string, owner: string | null) => audit('/audit/document/set-owner', { instance_id: instanceId, document_id: documentId, owner_user_id: owner });
    const reopened = await audit('/audit/mandatory-question/create', { instance_id: instanceId, question: 'How many days does the delivery of a parcel take?' }, people.steward.key);
    expect(reopened.status).toBe(200);
    docs.shipping = await ingest('shipping.md', '# Delivery\n\nStandard delivery of a parcel takes 3 working days.');
    docs.carrier = await ingest('carrier.md', '# Carrier\n\nThe delivery of a parcel takes 5 working days.');
    await waitFor(async () => ((await listed('/audit/conflict/list-conflicts-for-instance', {})).total === 1 ? true : undefined), 90000, 'the delivery conflict');
    expect((await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: true })).status).toBe(200);
    try {
      // The consumer owns one side of the delivery conflict and nothing of the managed refund conflict.
      expect((await setOwner(docs.shipping, people.consumer.id)).status).toBe(200);
      // Each indexed document re-analyses the questions for a moment: read once they have settled.
      await waitFor(async () => ((await filtered()).questions_not_analyzed_yet === 0 ? true : undefined), 60000, 'every question analysed');
      const mine = await filtered(people.consumer.key);
      expect(mine).toMatchObject({ total_documents: 1, total_conflicts: 1, documents_with_unmanaged_conflicts: 1, documents_to_update_count: 0, estimated_total_update_time: 0, managed_important_conflicts: 0, questions_with_conflicts_to_manage: 1, questions_with_conflicts_analyzed: 0 });
      const all = await filtered();
      expect(all).toMatchObject({ total_documents: 5, total_conflicts: 2, documents_with_unmanaged_conflicts: 2, managed_important_conflicts: 1 });
      // Questions belong to no document: the instance's counts.
      expect(mine).toMatchObject({ total_questions: 3, missing_subjects_count: all.missing_subjects_count, questions_without_conflicts: all.questions_without_conflicts });
      expect(await dashboardEntry(people.consumer.key)).toMatchObject({ unresolved_question_conflicts: 1, pending_duplicate_clusters: 0 });
      // Owning nothing the conflicts touch: zero conflicts, one document.
      expect((await setOwner(docs.shipping, null)).status).toBe(200);
      expect((await setOwner(docs.canteen, people.consumer.id)).status).toBe(200);
      expect(await filtered(people.consumer.key)).toMatchObject({ total_documents: 1, total_conflicts: 0, documents_with_unmanaged_conflicts: 0, questions_with_conflicts_to_manage: 0 });
      expect(await dashboardEntry(people.consumer.key)).toMatchObject({ unresolved_question_conflicts: 0 });
      const consumerDaily = (await daily({}, people.consumer.key)).body.response[0];
      expect(consumerDaily).toMatchObject({ conflicts_detected: 0, conflicts_managed: 0, questions_created: 3 });
    } finally {
      await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: false });
    }
  }, 150000);
});
