import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AUDIT_OPERATIONS, AuditOperationName } from '@svc/contracts';
import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

type Transport = 'rest' | 'mcp';
/** The spec's operations, and the one documented extension the walk needs (ADR: instance creation). */
const OPERATIONS = { ...AUDIT_OPERATIONS, audit_instance_create: { path: '/audit/instance/create', mcp: false } };
type OperationName = AuditOperationName | 'audit_instance_create';
const today = () => new Date().toISOString().slice(0, 10);

/**
 * The whole product, walked as a steward would, once per runtime mode and per transport: over REST
 * only, then with every step an MCP tool exists for taken through the official SDK client (the rest,
 * which the spec keeps off MCP, over REST). Each walk uses its own instance on the same service:
 * create it, ingest documents once it is in RUNNING_PHASE, ask mandatory questions, see their
 * conflicts, answer one (recommendations) and close it, ignore another, work a full-audit finding,
 * answer a missing subject's questions and generate its document, ingest that document and see the
 * question answered, manage a duplicate cluster and see it verified, and read every stat move.
 */
describe.each(BOTH_MODES)('the full walk (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  const steward = { id: '', key: '' };

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, ...(mode === 'distributed' ? { REPOSITORY_CLIENT: 'http' } : {}) });
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    const member = await post(`${service.urls.auth}/core/organization/members/create`, { email: 'steward@example.com', name: 'Steward', roles: ['STEWARD'] }, token);
    steward.id = member.body.response.id;
    steward.key = (await post(`${service.urls.auth}/core/organization/api-keys/create`, { name: 'steward', roles: ['STEWARD'], user_id: steward.id }, token)).body.response.api_key;
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it.each<Transport>(['rest', 'mcp'])('over %s', async (transport) => {
    let mcp: Client | null = null;
    if (transport === 'mcp') {
      mcp = new Client({ name: 'full-walk', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), { requestInit: { headers: { authorization: `Bearer ${steward.key}` } } }));
    }
    const viaMcp: string[] = [];
    /**
     * One audit operation as the steward: the MCP tool when walking over MCP and the spec makes it one,
     * else REST. A 409 CONCURRENT_EDIT (the background analysis changed the item meanwhile) is repeated,
     * as its hint tells a client to.
     */
    const op = async (name: OperationName, body: object, key = steward.key): Promise<Json> => {
      for (let attempt = 1; ; attempt += 1) {
        let failure: { status: number; body: Json };
        if (mcp && OPERATIONS[name].mcp && key === steward.key) {
          const result = await mcp.callTool({ name, arguments: body as Record<string, unknown> });
          if (!result.isError) {
            viaMcp.push(name);
            return (result.structuredContent as Json).response;
          }
          failure = { status: (result.structuredContent as Json)?.status, body: result.structuredContent ?? result.content };
        } else {
          const res = await post(`${service.urls.audit}${OPERATIONS[name].path}`, body, key);
          if (res.status === 200) return res.body.response;
          failure = res;
        }
        if (failure.status !== 409 || !String(failure.body?.code).endsWith('CONCURRENT_EDIT') || attempt >= 20) {
          throw new Error(`${name} over ${mcp && OPERATIONS[name].mcp ? 'MCP' : 'REST'} answered ${failure.status}: ${JSON.stringify(failure.body)}`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    try {
      // 1. An admin creates the instance and adds the steward; it is on the steward's dashboard at once.
      const instanceId = (await op('audit_instance_create', { name: `Walk over ${transport}` }, adminKey)).instance_id as string;
      await op('audit_user_add', { instance_id: instanceId, user_id: steward.id }, adminKey);
      const entry = async () => ((await op('audit_dashboard_get', {})) as Json[]).find((e) => e.instance_id === instanceId);
      expect(await entry()).toMatchObject({ name: `Walk over ${transport}`, unresolved_question_conflicts: 0, pending_mandatory_questions: 0 });
      await waitFor(async () => ((await entry())?.step === 'RUNNING_PHASE' ? true : undefined), 60000, 'RUNNING_PHASE');
      const stats = () => op('audit_stats_get_filtered', { instance_id: instanceId });
      expect(await stats()).toMatchObject({ total_questions: 0, total_documents: 0, total_conflicts: 0 });

      // 2. Mandatory questions; with no document yet each is REFUSED.
      const ask = async (question: string) => (await op('audit_mandatory_question_create', { instance_id: instanceId, question })).id as string;
      const refund = await ask('How long does the refund of an order take?');
      const delivery = await ask('How many working days does the delivery of a parcel take?');
      const leave = await ask('How many days of paternity leave does an employee get?');
      const questions = async () => (await op('audit_mandatory_question_list', { instance_id: instanceId, limit: 100 })).items as Json[];
      const stateOf = async (id: string) => (await questions()).find((q) => q.id === id)?.state;
      expect((await stats()).total_questions).toBe(3);
      await waitFor(async () => ((await stats()).questions_not_analyzed_yet === 0 ? true : undefined), 60000, 'the questions analysed');

      // 3. Documents arrive through the instance API (the repository side) after RUNNING_PHASE.
      const instanceKey = (await op('audit_instance_get_svc_instances', { instance_id: instanceId }, adminKey))[0].api_key as string;
      const repositoryApi = (path: string, body: object) => post(`${service.urls.retrieval}${path}`, body, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
      const names = new Map<string, string>();
      const ingest = async (name: string, content_text: string) => {
        const res = await repositoryApi('/api/documents/upsert', { external_id: name, name, url: `https://intranet.example/${name}`, content_text });
        expect(res.status).toBe(200);
        names.set(res.body.response.id, name);
        return res.body.response.id as string;
      };
      await ingest('refund-policy.md', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.');
      await ingest('customer-faq.md', '# Customer FAQ\n\nThe refund of an order takes 14 days.');
      await ingest('shipping.md', '# Delivery\n\nStandard delivery of a parcel takes 3 working days.');
      await ingest('carrier.md', '# Carrier\n\nThe delivery of a parcel takes 5 working days.');
      await ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon and serves soup on Mondays.');
      const copy = await ingest('canteen-2024.md', '## Canteen\n\nThe canteen opens at noon and serves   soup on Mondays.');

      // 4. The conflicts, one per question whose documents disagree.
      const openConflicts = async () => (await op('audit_question_conflict_list', { instance_id: instanceId, limit: 100 })).items as Json[];
      const conflicts = await waitFor(async () => {
        const items = await openConflicts();
        return items.length === 2 ? items : undefined;
      }, 120000, 'two question conflicts');
      const refundConflict = conflicts.find((c) => c.question_id === refund)!;
      const deliveryConflict = conflicts.find((c) => c.question_id === delivery)!;
      expect(refundConflict).toBeDefined();
      expect(deliveryConflict).toBeDefined();
      await waitFor(async () => ((await stateOf(leave)) === 'REFUSED' && (await stats()).questions_not_analyzed_yet === 0 ? true : undefined), 90000, 'the questions settled');
      const first = await waitFor(async () => { const s = await stats(); return s.missing_subjects_count === 1 ? s : undefined; }, 90000, 'the missing subject counted');
      expect(first).toMatchObject({ total_questions: 3, questions_with_conflicts_to_manage: 2, questions_with_conflicts_analyzed: 0, total_conflicts: 2, total_documents: 6, documents_with_unmanaged_conflicts: 4, documents_to_update_count: 0 });
      expect(await entry()).toMatchObject({ unresolved_question_conflicts: 2, pending_missing_subjects: 1 });
      const detail = await op('audit_question_conflict_get', { instance_id: instanceId, conflict_id: refundConflict.id });
      expect(detail.answer_groups).toHaveLength(2);

      // 5. The expert answer gives recommendations; closing makes them pending work on the documents.
      const answered = await op('audit_question_conflict_set_answer', { instance_id: instanceId, conflict_id: refundConflict.id, answer: 'The refund of an order takes 14 days.' });
      expect(answered.recommendations.length).toBeGreaterThan(0);
      expect(await op('audit_question_conflict_close', { instance_id: instanceId, conflict_id: refundConflict.id })).toBe(true);
      const work: Json[] = [];
      for (const documentId of refundConflict.documents.map((d: Json) => d.document_id)) work.push(...(await op('audit_documents_get_recommendations', { instance_id: instanceId, document_id: documentId })));
      const changes = work.filter((r) => r.action === 'UPDATE' || r.action === 'DELETE');
      expect(changes.length).toBeGreaterThan(0);
      expect(await stats()).toMatchObject({
        questions_with_conflicts_to_manage: 1,
        questions_with_conflicts_analyzed: 1,
        managed_important_conflicts: 1,
        documents_to_update_count: new Set(changes.map((r) => r.document_id)).size,
        estimated_total_update_time: changes.reduce((n, r) => n + r.estimated_seconds, 0),
        documents_with_unmanaged_conflicts: 2,
      });

      // 5b. A writer carries out an UPDATE: the document, ingested again with the proposed text, leaves the work list.
      const update = changes.find((r) => r.action === 'UPDATE' && r.proposed_text)!;
      expect(update).toBeDefined();
      const before = await stats();
      await ingest(names.get(update.document_id)!, `# Refunds\n\n${update.proposed_text}`);
      const after = await waitFor(async () => { const s = await stats(); return s.estimated_total_update_time < before.estimated_total_update_time ? s : undefined; }, 90000, 'the applied recommendation out of the work');
      const left = changes.filter((r) => r.document_id !== update.document_id);
      expect(after).toMatchObject({ managed_important_conflicts: 1, documents_to_update_count: new Set(left.map((r) => r.document_id)).size, estimated_total_update_time: left.reduce((n, r) => n + r.estimated_seconds, 0) });
      expect((await op('audit_documents_get_recommendations', { instance_id: instanceId, document_id: update.document_id })).filter((r: Json) => r.id === update.id)).toEqual([]);

      // 6. The delivery conflict is ignored; the refund question is managed.
      expect(await op('audit_question_conflict_ignore', { instance_id: instanceId, conflict_id: deliveryConflict.id })).toBe(true);
      expect(await op('audit_mandatory_question_set_managed', { instance_id: instanceId, question_id: refund })).toBe(true);
      expect(await stats()).toMatchObject({ questions_with_conflicts_to_manage: 0, questions_with_conflicts_analyzed: 2, documents_with_unmanaged_conflicts: 0, managed_questions: 1, total_conflicts: 2 });
      expect(await entry()).toMatchObject({ unresolved_question_conflicts: 0 });

      // 7. A full-audit finding: the scan found the same disagreements without any question.
      await waitFor(async () => ((await op('audit_full_audit_have_to_show', { instance_id: instanceId })).show ? true : undefined), 120000, 'the full audit shown');
      // The worklist and the dashboard's count agree once no judgement runs between the two reads.
      const { findings, unresolvedBefore } = await waitFor(async () => {
        const page = await op('audit_full_audit_conflict_list', { instance_id: instanceId, limit: 100 });
        const unresolved = (await entry()).unresolved_full_audit_conflicts as number;
        return page.total > 0 && page.items.length === page.total && unresolved === page.total ? { findings: page.items as Json[], unresolvedBefore: unresolved } : undefined;
      }, 120000, 'a full-audit finding, counted on the dashboard');
      const finding = await op('audit_full_audit_conflict_get', { instance_id: instanceId, conflict_id: findings[0].id });
      expect(finding.explanation.length).toBeGreaterThan(0);
      const advice = await op('audit_full_audit_conflict_set_answer', { instance_id: instanceId, conflict_id: finding.id, answer: 'The shorter figure is the current one.' });
      expect(Array.isArray(advice.recommendations)).toBe(true);
      expect(await op('audit_full_audit_conflict_close', { instance_id: instanceId, conflict_id: finding.id })).toBe(true);
      expect((await entry()).unresolved_full_audit_conflicts).toBe(unresolvedBefore - 1);

      // 8. The missing subject: its questions answered, its document drafted, managed, ingested; the question is then answered by the repository.
      const subject = (await op('audit_missing_subject_list', { instance_id: instanceId })).items[0];
      const subjectQuestions = (await op('audit_missing_subject_list_questions', { instance_id: instanceId, subject_id: subject.id })) as Json[];
      expect(subjectQuestions.map((q) => q.question)).toContain('How many days of paternity leave does an employee get?');
      for (const q of subjectQuestions) expect(await op('audit_mandatory_question_set_answer', { instance_id: instanceId, question_id: q.id, answer: 'An employee gets 10 days of paternity leave.' })).toBe(true);
      const draft = await op('audit_missing_subject_generate_compagnon_document', { instance_id: instanceId, subject_id: subject.id });
      expect(draft.compagnon_proposition).toContain('10 days of paternity leave');
      expect(await op('audit_missing_subject_set_state', { instance_id: instanceId, subject_id: subject.id, state: 'MANAGED' })).toBe(true);
      expect((await entry()).pending_missing_subjects).toBe(0);
      await ingest('paternity-leave.md', draft.compagnon_proposition);
      expect(await waitFor(async () => { const s = await stateOf(leave); return s === 'NO_CONFLICT' ? s : undefined; }, 120000, 'the leave question answered by the repository')).toBe('NO_CONFLICT');
      expect((await stats()).questions_without_conflicts).toBe(1);

      // 9. The duplicate cluster: the older copy deleted, the cluster managed, its verification resolves it.
      const clusters = await waitFor(async () => {
        const page = await op('audit_duplicate_list', { instance_id: instanceId });
        return page.total === 1 ? (page.items as Json[]) : undefined;
      }, 90000, 'the duplicate cluster');
      expect(clusters[0].documents.map((d: Json) => d.document_id)).toContain(copy);
      expect((await entry()).pending_duplicate_clusters).toBe(1);
      expect((await repositoryApi('/api/documents/delete', { document_id: copy })).status).toBe(200);
      expect(await op('audit_duplicate_set_managed', { instance_id: instanceId, cluster_id: clusters[0].id })).toBe(true);
      await waitFor(async () => ((await op('audit_duplicate_list', { instance_id: instanceId })).items[0].state === 'RESOLVED' ? true : undefined), 90000, 'the cluster verified');
      expect((await entry()).pending_duplicate_clusters).toBe(0);

      // 10. What the day looked like, for everyone and for the steward, against the live tables.
      const [day] = (await op('audit_stats_get_daily', { instance_id: instanceId, begin_date: today(), end_date: today(), user_id: '' })) as Json[];
      const all = (await op('audit_question_conflict_list', { instance_id: instanceId, state_in: [], limit: 100 })).items as Json[];
      expect(day).toMatchObject({
        date: today(),
        questions_created: 3,
        questions_managed: 1,
        conflicts_detected: all.length,
        conflicts_answered: 1,
        conflicts_managed: all.filter((c) => c.state === 'MANAGED').length,
        conflicts_ignored: all.filter((c) => c.state === 'IGNORED').length,
        full_audit_managed: 1,
        full_audit_ignored: 0,
        missing_subjects_managed: 1,
        duplicates_managed: 1,
      });
      expect(day).toMatchObject({ conflicts_managed: 1, conflicts_ignored: 1 });
      const mine = await op('audit_stats_get_user', { instance_id: instanceId, begin_date: today(), end_date: today() });
      const { date: _date, ...counters } = day;
      expect(mine).toEqual({ user_id: steward.id, begin_date: today(), end_date: today(), ...counters });
      // Deleting the copy queues the questions' analysis again (PENDING, ANALYZING), more than once when several document
      // changes reach a question: the figures are those the stats give once it has settled with the leave question
      // answered again, read in the same call (a later read may fall inside the next re-analysis).
      const expected = { total_questions: 3, managed_questions: 1, questions_without_conflicts: 1, total_conflicts: 2, managed_important_conflicts: 1, total_documents: 6 };
      const settledStats = await waitFor(async () => {
        const s = await op('audit_stats_get_filtered', { instance_id: instanceId });
        return s.questions_not_analyzed_yet === 0 && s.questions_without_conflicts === 1 ? s : undefined;
      }, 90000, 'the questions analysed again');
      expect(settledStats).toMatchObject(expected);
      if (transport === 'mcp') {
        expect([...new Set(viaMcp)].sort()).toEqual(
          [
            'audit_dashboard_get',
            'audit_documents_get_recommendations',
            'audit_full_audit_conflict_close',
            'audit_full_audit_conflict_get',
            'audit_full_audit_conflict_list',
            'audit_full_audit_conflict_set_answer',
            'audit_mandatory_question_create',
            'audit_mandatory_question_list',
            'audit_missing_subject_generate_compagnon_document',
            'audit_missing_subject_list',
            'audit_missing_subject_list_questions',
            'audit_missing_subject_set_state',
            'audit_question_conflict_close',
            'audit_question_conflict_get',
            'audit_question_conflict_ignore',
            'audit_question_conflict_list',
            'audit_question_conflict_set_answer',
          ].sort(),
        );
      }
    } finally {
      await mcp?.close();
    }
  }, 600000);
});
