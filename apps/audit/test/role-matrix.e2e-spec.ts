import { generateApiKey } from '@svc/identity-core';
import { AccessRule, AUDIT_ACCESS, auditAccessRule, PERMISSIONS, Role, ROLES } from '@svc/kernel';
import { ApiResponse, Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

/**
 * The role matrix (BEHAVIOUR.md §3, ADR 0028), generated: every operation the audit app registers
 * (read from its /openapi.json, so a new operation is walked as soon as it is served) × the 7
 * organisation roles × { non-member, member, instance admin }, each with a valid body, over real
 * HTTP; MCP tools the same way over /mcp. What each call must answer is derived from the one rule
 * table, `AUDIT_ACCESS` in @svc/kernel, and the instance-access semantics of ADR 0007 written out
 * below: a refusal is a 403 with its code, an allowed call is the operation's success.
 * Authorization does not depend on the runtime mode: embedded only.
 */
type Standing = 'non-member' | 'member' | 'admin';
const STANDINGS: Standing[] = ['non-member', 'member', 'admin'];

interface Caller {
  role: Role;
  standing: Standing;
  userId: string;
  key: string;
}

type Expected = { allowed: true } | { allowed: false; code: string };

/** ADR 0007 and 0028, stated independently of the authorizer: role class first, then the standing on the instance. */
function expectedAnswer(rule: AccessRule, role: Role, standing: Standing): Expected {
  if (!(PERMISSIONS[rule.permission] as readonly Role[]).includes(role)) return { allowed: false, code: 'AUTH.ROLE_NOT_ALLOWED' };
  // ADMIN is the global admin; AUTHORITY_MANAGER sees every instance of its organisation but administers none by role.
  if (rule.instance === 'none' || role === 'ADMIN') return { allowed: true };
  if (standing === 'non-member' && role !== 'AUTHORITY_MANAGER') return { allowed: false, code: 'WORKSPACE.NOT_A_MEMBER' };
  if (rule.instance === 'admin' && standing !== 'admin') return { allowed: false, code: 'WORKSPACE.INSTANCE_ADMIN_ONLY' };
  return { allowed: true };
}

interface BodyBuilder {
  body(caller: Caller): Record<string, unknown>;
  /** Puts the target back in the state the call needs (run before an allowed call only), so every allowed call succeeds. */
  prepare?(): Promise<void>;
  /** A further check of an allowed call's answer. */
  check?(response: Json, caller: Caller): void;
  /**
   * True when an allowed call lost a race with background work that moved the target between `prepare` and the call
   * (checked after the answer): the call is prepared and made again, at most three times in all.
   */
  raced?(answer: { status: number; code?: string }): Promise<boolean>;
}

describe('role matrix: every registered audit operation × 7 roles × non-member, member, instance admin', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let organizationId: string;
  let documentId: string;
  /** A member the membership operations act on. */
  let targetUserId: string;
  const callers: Caller[] = [];
  /** Operations the audit app serves under /audit, from its OpenAPI document. */
  let registered: { name: string; path: string; permission: string; mcp: boolean }[] = [];

  const audit = (path: string, body: unknown, credential = adminKey) => post(`${service.urls.audit}${path}`, body, credential);
  const asAdmin = async (path: string, body: unknown, accept: number[] = [200]): Promise<ApiResponse<Json>> => {
    const res = await audit(path, body);
    if (!accept.includes(res.status)) throw new Error(`setup ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  };
  const target = () => ({ instance_id: instanceId, user_id: targetUserId });

  /** A valid body per operation. A registered operation without one fails the first test. */
  const BODIES: Partial<Record<keyof typeof AUDIT_ACCESS, BodyBuilder>> = {
    audit_instance_create: { body: () => ({ name: 'Matrix extra' }) },
    audit_instance_list_for_user: { body: () => ({}) },
    audit_instance_get: { body: () => ({ instance_id: instanceId }) },
    audit_instance_get_svc_instances: {
      body: () => ({ instance_id: instanceId }),
      check: (res) => expect(res).toEqual([{ svc_instance_id: instanceId, api_key: expect.stringMatching(/^svc_ins_/) }]),
    },
    audit_instance_update_step: { body: () => ({ instance_id: instanceId, step: 'RUNNING_PHASE' }) },
    audit_instance_update_configuration: { body: () => ({ instance_id: instanceId, need_detect_owner_document_feature: false }) },
    audit_user_get_users: { body: () => ({ instance_id: instanceId }) },
    audit_user_list_instances: { body: (caller) => ({ user_id: caller.userId, organization_id: organizationId }) },
    audit_user_add: {
      prepare: async () => void (await asAdmin('/audit/user/remove-user-from-instance', target(), [200, 404])),
      body: target,
    },
    audit_user_remove: {
      prepare: async () => void (await asAdmin('/audit/user/add-user-to-instance', target())),
      body: target,
    },
    audit_user_set_admin: {
      prepare: async () => {
        await asAdmin('/audit/user/add-user-to-instance', target());
        await asAdmin('/audit/user/set-user-normal-for-instance', target());
      },
      body: target,
    },
    audit_user_set_normal: {
      prepare: async () => {
        await asAdmin('/audit/user/add-user-to-instance', target());
        await asAdmin('/audit/user/set-user-admin-for-instance', target());
      },
      body: target,
    },
    audit_user_is_admin: {
      body: () => ({ instance_id: instanceId }),
      check: (res, caller) => expect(res).toBe(caller.role === 'ADMIN' || caller.standing === 'admin'),
    },
    audit_documents_list: { body: () => ({ instance_id: instanceId }) },
    audit_documents_set_owner: { body: () => ({ instance_id: instanceId, document_id: documentId, owner_user_id: null }) },
    audit_documents_get_by_ids: {
      body: () => ({ instance_id: instanceId, document_ids: [documentId] }),
      check: (res) => expect(res).toEqual([expect.objectContaining({ document_id: documentId })]),
    },
    audit_documents_count: { body: () => ({ instance_id: instanceId }), check: (res) => expect(res).toBe(Object.keys(CORPUS).length) },
    audit_documents_list_with_state: { body: () => ({ instance_id: instanceId, state: 'INDEXED' }) },
    audit_mandatory_question_list: { body: () => ({ instance_id: instanceId }) },
    audit_mandatory_question_create: { body: () => ({ instance_id: instanceId, question: 'Which floor is the archive room on?' }), check: (res) => expect(res).toMatchObject({ id: expect.stringMatching(/^mq_/) }) },
    audit_mandatory_question_set_answer: { body: () => ({ instance_id: instanceId, question_id: questions.plain, answer: 'The legal team signs contracts.' }) },
    audit_mandatory_question_set_managed: { body: () => ({ instance_id: instanceId, question_id: questions.managed }) },
    audit_mandatory_question_set_ignored: { body: () => ({ instance_id: instanceId, question_id: questions.ignored }) },
    audit_mandatory_question_force_analyze: {
      // Only a REFUSED question may be re-analysed: wait for the previous call's re-analysis to end.
      prepare: async () => void (await questionIn(questions.refused, 'REFUSED')),
      body: () => ({ instance_id: instanceId, question_id: questions.refused }),
      check: (res) => expect(res).toBe(true),
      // A background re-analysis (a document's indexing, the running phase's start) may take the question to ANALYZING
      // between the wait and the call: that 409 is right, and the question is REFUSED again once it ends.
      raced: async (answer) => answer.code === 'MANDATORY_QUESTION.INVALID_TRANSITION' && (await questionState(questions.refused)) !== 'REFUSED',
    },
    audit_question_conflict_list: { body: () => ({ instance_id: instanceId, state_in: [] }), check: (res) => expect(res.total).toBe(3) },
    audit_question_conflict_get: { body: () => ({ instance_id: instanceId, conflict_id: conflicts.answered }), check: (res) => expect(res.id).toBe(conflicts.answered) },
    audit_question_conflict_set_answer: { body: () => ({ instance_id: instanceId, conflict_id: conflicts.answered, answer: '30 days' }) },
    audit_question_conflict_close: {
      // Close needs an answer first; once MANAGED, a repeat is idempotent.
      prepare: async () => void (await asAdmin('/audit/conflict/set-answer', { instance_id: instanceId, conflict_id: conflicts.closed, answer: '14 characters' }, [200, 409])),
      body: () => ({ instance_id: instanceId, conflict_id: conflicts.closed }),
    },
    audit_question_conflict_ignore: { body: () => ({ instance_id: instanceId, conflict_id: conflicts.ignored }) },
    audit_conflict_get_top_collaborators: { body: () => ({ instance_id: instanceId }) },
    audit_full_audit_conflict_list: { body: () => ({ instance_id: instanceId, state_in: [] }), check: (res) => expect(res.total).toBeGreaterThanOrEqual(3) },
    audit_full_audit_have_to_show: { body: () => ({ instance_id: instanceId }), check: (res) => expect(res.show).toBe(true) },
    audit_full_audit_conflict_get: { body: () => ({ instance_id: instanceId, conflict_id: findings.answered }), check: (res) => expect(res.id).toBe(findings.answered) },
    // detected on a DETECTED conflict is an idempotent repeat: every allowed call succeeds and the conflict stays answerable.
    audit_full_audit_set_state: { body: () => ({ instance_id: instanceId, conflict_id: findings.answered, state: 'detected' }) },
    audit_full_audit_conflict_set_answer: { body: () => ({ instance_id: instanceId, conflict_id: findings.answered, answer: 'Visitor parking costs 4 EUR per hour.' }) },
    audit_full_audit_conflict_close: { body: () => ({ instance_id: instanceId, conflict_id: findings.closed }) },
    audit_full_audit_conflict_ignore: { body: () => ({ instance_id: instanceId, conflict_id: findings.ignored }) },
    audit_documents_get_recommendations: { body: () => ({ instance_id: instanceId, document_id: documentId }) },
    audit_duplicate_list: { body: () => ({ instance_id: instanceId }), check: (res) => expect(res.items.map((c: Json) => c.id)).toEqual([cluster]) },
    audit_duplicate_set_managed: { body: () => ({ instance_id: instanceId, cluster_id: cluster }) },
    audit_missing_subject_list: { body: () => ({ instance_id: instanceId }), check: (res) => expect(res.items.map((s: Json) => s.id)).toContain(subject) },
    audit_missing_subject_find: { body: () => ({ instance_id: instanceId, subject_id: subject }), check: (res) => expect(res.id).toBe(subject) },
    audit_missing_subject_list_questions: { body: () => ({ instance_id: instanceId, subject_id: subject }), check: (res) => expect(res.length).toBeGreaterThanOrEqual(1) },
    audit_missing_subject_set_state: { body: () => ({ instance_id: instanceId, subject_id: subject, state: 'PENDING' }) },
    audit_missing_subject_generate_compagnon_document: {
      // Generation needs every question answered (msq_ ids through the mandatory-question set-answer).
      prepare: async () => {
        for (const q of (await asAdmin('/audit/missing-subject/questions', { instance_id: instanceId, subject_id: subject })).body.response as Json[]) {
          if (!q.answer) await asAdmin('/audit/mandatory-question/set-answer', { instance_id: instanceId, question_id: q.id, answer: 'The chief executive officer drives a blue car.' });
        }
      },
      body: () => ({ instance_id: instanceId, subject_id: subject }),
      check: (res) => expect(res.compagnon_proposition).toContain('blue car'),
    },
    audit_stats_get_filtered: { body: () => ({ instance_id: instanceId }), check: (res) => expect(res.total_conflicts).toBeGreaterThanOrEqual(1) },
    audit_stats_get_daily: {
      body: () => ({ instance_id: instanceId, begin_date: today(), end_date: today(), user_id: '' }),
      check: (res) => expect(res).toEqual([expect.objectContaining({ date: today(), conflicts_detected: expect.any(Number) })]),
    },
    // Everyone may read their own stats (user_id left out).
    audit_stats_get_user: { body: () => ({ instance_id: instanceId, begin_date: today(), end_date: today() }), check: (res, caller) => expect(res.user_id).toBe(caller.userId) },
    audit_dashboard_get: { body: () => ({}), check: (res) => expect(Array.isArray(res)).toBe(true) },
  };
  const today = () => new Date().toISOString().slice(0, 10);

  /** Three pairs of documents that disagree (one question conflict each), and the document the document operations act on. */
  const CORPUS: Record<string, string> = {
    'policy.md': '# Policy\n\nRefunds of an order are processed within 30 days of the request.',
    'faq.md': '# FAQ\n\nThe refund of an order takes 14 days.',
    'passwords.md': '# Passwords\n\nPasswords must be at least 14 characters long.',
    'guidelines.md': '# Guidelines\n\nPasswords must be at least 12 characters long.',
    'laptops.md': '# Laptops\n\nLaptops are replaced every three years.',
    'desk.md': '# Service desk\n\nLaptops are replaced every four years.',
    // Three contradictions of the full audit.
    'parking.md': '# Parking\n\nVisitor parking costs 4 EUR per hour.',
    'reception.md': '# Parking\n\nVisitor parking costs 6 EUR per hour.',
    'travel.md': '# Taxis\n\nTaxi rides are refunded up to 40 EUR per trip.',
    'expenses.md': '# Taxis\n\nTaxi rides are refunded up to 60 EUR per trip.',
    'gym.md': '# Gym\n\nThe gym membership costs 30 EUR per month.',
    'benefits.md': '# Gym\n\nThe gym membership costs 25 EUR per month.',
    // An exact duplicate (one cluster).
    'archive.md': '# Archive\n\nThe archive room is on the second floor, next to the mail room.',
    'archive-copy.md': '# Archive\n\nThe archive room is on the second floor, next to the mail room.',
  };
  const questions: Record<'plain' | 'managed' | 'ignored' | 'refused', string> = { plain: '', managed: '', ignored: '', refused: '' };
  const conflicts: Record<'answered' | 'closed' | 'ignored', string> = { answered: '', closed: '', ignored: '' };
  const findings: Record<'answered' | 'closed' | 'ignored', string> = { answered: '', closed: '', ignored: '' };
  let cluster = '';
  let subject = '';
  const questionState = async (id: string) => (await asAdmin('/audit/mandatory-question/list', { instance_id: instanceId, limit: 1000 })).body.response.items.find((q: Json) => q.id === id)?.state as string | undefined;
  const questionIn = (id: string, state: string) => waitFor(async () => ((await questionState(id)) === state ? true : undefined), 60000, `${id} in ${state}`);

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, API_KEY_CACHE_SECONDS: '0' });
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    const platform = async (path: string, body: unknown) => {
      const res = await post(`${service.urls.auth}${path}`, body, token);
      if (res.status !== 200) throw new Error(`setup ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.response;
    };
    const created = (await asAdmin('/audit/instance/create', { name: 'Matrix' })).body.response;
    instanceId = created.instance_id;
    organizationId = created.organization_id;
    targetUserId = (await platform('/core/organization/members/create', { email: 'target@example.com', name: 'target', roles: ['CONSUMER'] })).id;
    for (const role of ROLES) {
      for (const standing of STANDINGS) {
        const name = `${role.toLowerCase()}-${standing}`;
        const userId = (await platform('/core/organization/members/create', { email: `${name}@example.com`, name, roles: [role] })).id;
        const key = (await platform('/core/organization/api-keys/create', { name, roles: [role], user_id: userId })).api_key;
        if (standing !== 'non-member') await asAdmin('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: userId });
        if (standing === 'admin') await asAdmin('/audit/user/set-user-admin-for-instance', { instance_id: instanceId, user_id: userId });
        callers.push({ role, standing, userId, key });
      }
    }
    const linkKey = (await asAdmin('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    for (const [name, content_text] of Object.entries(CORPUS)) {
      const ingested = await post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, url: `https://intranet.example/${name}`, content_text }, undefined, { 'instance-id': instanceId, 'api-key': linkKey });
      if (ingested.status !== 200) throw new Error(`ingestion answered ${ingested.status}: ${JSON.stringify(ingested.body)}`);
      documentId ||= ingested.body.response.id;
    }
    await waitFor(async () => ((await asAdmin('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' })).body.response === Object.keys(CORPUS).length ? true : undefined), 60000, 'documents indexed');
    const ask = async (question: string) => (await asAdmin('/audit/mandatory-question/create', { instance_id: instanceId, question })).body.response.id as string;
    const refund = await ask('How long does the refund of an order take?');
    const password = await ask('What is the minimum length of a password?');
    const laptop = await ask('How often are laptops replaced?');
    questions.plain = await ask('Who signs supplier contracts?');
    questions.managed = await ask('Who approves overtime?');
    questions.ignored = await ask('Where are visitors badges collected?');
    questions.refused = await ask('Which colour is the chief executive officer car?');
    const conflictOf = (questionId: string) =>
      waitFor(async () => (await asAdmin('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId, question_id_in: [questionId] })).body.response.items[0]?.id as string | undefined, 90000, `a conflict on ${questionId}`);
    conflicts.answered = await conflictOf(refund);
    conflicts.closed = await conflictOf(password);
    conflicts.ignored = await conflictOf(laptop);
    await questionIn(questions.refused, 'REFUSED');
    // Documents indexed after the first full scan are rescanned one by one: wait until the three planted pairs are raised.
    const raised = (items: Json[], text: string) => items.find((c) => c.excerpts.some((e: Json) => e.text.includes(text)))?.id as string | undefined;
    const found = await waitFor(async () => {
      const items = (await asAdmin('/audit/full-audit/list', { instance_id: instanceId, limit: 100 })).body.response.items as Json[];
      return ['parking', 'Taxi', 'gym'].every((text) => raised(items, text)) ? items : undefined;
    }, 90000, 'the three full-audit conflicts');
    const about = (text: string) => raised(found, text)!;
    [findings.answered, findings.closed, findings.ignored] = [about('parking'), about('Taxi'), about('gym')];
    cluster = await waitFor(async () => (await asAdmin('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId })).body.response.items[0]?.id as string | undefined, 90000, 'the duplicate cluster');
    // The refused question is a missing subject.
    subject = await waitFor(async () => {
      for (const s of (await asAdmin('/audit/missing-subject/list', { instance_id: instanceId, limit: 100 })).body.response.items as Json[]) {
        const asked = (await asAdmin('/audit/missing-subject/questions', { instance_id: instanceId, subject_id: s.id })).body.response as Json[];
        if (asked.some((q) => /chief executive officer car/.test(q.question))) return s.id as string;
      }
      return undefined;
    }, 90000, 'the missing subject of the refused question');
    const openapi = (await (await fetch(`${service.urls.audit}/openapi.json`)).json()) as { paths: Record<string, { post: { operationId: string; 'x-permission': string; 'x-mcp-tool': boolean } }> };
    registered = Object.entries(openapi.paths)
      .filter(([path]) => path.startsWith('/audit/'))
      .map(([path, { post: op }]) => ({ name: op.operationId, path, permission: op['x-permission'], mcp: op['x-mcp-tool'] }));
  }, 300000);

  afterAll(async () => {
    await service?.destroy();
  });

  it('has a rule and a valid body for every registered operation, and publishes the rule in OpenAPI', () => {
    expect(registered.length).toBeGreaterThanOrEqual(18);
    expect(registered.filter((op) => !auditAccessRule(op.name)).map((op) => op.name)).toEqual([]);
    expect(registered.filter((op) => !BODIES[op.name as keyof typeof AUDIT_ACCESS]).map((op) => op.name)).toEqual([]);
    for (const op of registered) expect({ op: op.name, permission: op.permission }).toEqual({ op: op.name, permission: auditAccessRule(op.name)?.permission });
    expect(callers).toHaveLength(21);
  });

  /** Calls one operation as one caller and returns what differs from the matrix, or nothing. */
  async function check(op: { name: string; path: string }, caller: Caller, send: (body: Record<string, unknown>, caller: Caller) => Promise<{ status: number; code?: string; response?: Json }>): Promise<string | null> {
    const rule = auditAccessRule(op.name);
    const builder = BODIES[op.name as keyof typeof AUDIT_ACCESS];
    if (!rule || !builder) return `${op.name}: no rule or no body`;
    const expected = expectedAnswer(rule, caller.role, caller.standing);
    if (expected.allowed) await builder.prepare?.();
    let answer = await send(builder.body(caller), caller);
    for (let attempt = 1; expected.allowed && attempt < 3 && builder.raced && (await builder.raced(answer)); attempt += 1) {
      await builder.prepare?.();
      answer = await send(builder.body(caller), caller);
    }
    const who = `${op.name} as ${caller.role} ${caller.standing}`;
    if (!expected.allowed) {
      return answer.status === 403 && answer.code === expected.code ? null : `${who}: expected 403 ${expected.code}, got ${answer.status} ${answer.code ?? ''}`;
    }
    if (answer.status !== 200) return `${who}: expected 200, got ${answer.status} ${answer.code ?? ''}`;
    try {
      builder.check?.(answer.response, caller);
    } catch (error) {
      return `${who}: ${(error as Error).message}`;
    }
    return null;
  }

  const rest = async (path: string, body: Record<string, unknown>, caller: Caller) => {
    const res: ApiResponse<Json> = await audit(path, body, caller.key);
    return { status: res.status, code: res.body?.code, response: res.body?.response };
  };

  it.each(ROLES)('%s: every registered operation over REST, as non-member, member and instance admin', async (role) => {
    const mismatches: string[] = [];
    let calls = 0;
    for (const op of registered) {
      for (const caller of callers.filter((c) => c.role === role)) {
        const mismatch = await check(op, caller, (body) => rest(op.path, body, caller));
        calls += 1;
        if (mismatch) mismatches.push(mismatch);
      }
    }
    expect(mismatches).toEqual([]);
    expect(calls).toBe(registered.length * STANDINGS.length);
  });

  it('every registered MCP tool, × 7 roles × 3 standings, through the same authorizer', async () => {
    const tools = registered.filter((op) => op.mcp);
    const mcp = async (body: Json, caller: Caller) => {
      const res = await fetch(`${service.urls.audit}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${caller.key}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Json };
    };
    const listed = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, callers[0]);
    expect(listed.json.result.tools.map((t: Json) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    expect(tools.length).toBeGreaterThanOrEqual(1);
    const mismatches: string[] = [];
    for (const op of tools) {
      for (const caller of callers) {
        const mismatch = await check(op, caller, async (args) => {
          const { status, json } = await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: op.name, arguments: args } }, caller);
          if (status !== 200) return { status };
          const result = json.result.structuredContent as Json;
          return json.result.isError ? { status: result.status, code: result.code } : { status: 200, response: result.response };
        });
        if (mismatch) mismatches.push(`MCP ${mismatch}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
