import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, Json, post, RunningService, startService } from '@svc/test-kit';
import { Client } from 'pg';

/**
 * The 12 instance and user operations over HTTP, against the built service in both runtime modes:
 * success and envelope, 400 (bad field, wrong prefix), 401, 403 (role, non-member, admin-only), 404.
 * Both modes (BOTH_MODES): the lifecycle jobs, cross-app credentials, the activity log (read from PostgreSQL)
 * and the data kept across a restart; the error matrix of every operation, embedded only.
 */
describe.each(BOTH_MODES)('instance and user operations (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let token: string;
  const people: Record<'steward' | 'consumer' | 'billing' | 'outsider', { id: string; key: string }> = {} as never;
  let instanceId: string;
  let organizationId: string;
  let adminUserId: string;

  const audit = (path: string, body: unknown, credential?: string) => post(`${service.urls.audit}${path}`, body, credential);
  const platform = (path: string, body: unknown, credential?: string) => post(`${service.urls.auth}${path}`, body, credential);

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, API_KEY_CACHE_SECONDS: '0' });
    const exchanged = await platform('/core/api-key/token', { api_key: adminKey });
    expect(exchanged.status).toBe(200);
    token = exchanged.body.response.access_token;
    const roles = { steward: 'STEWARD', consumer: 'CONSUMER', billing: 'BILLING', outsider: 'KNOWLEDGE_EXPERT' } as const;
    for (const [name, role] of Object.entries(roles)) {
      const member = await platform('/core/organization/members/create', { email: `${name}@example.com`, name, roles: [role] }, token);
      expect(member.status).toBe(200);
      const key = await platform('/core/organization/api-keys/create', { name: `${name} key`, roles: [role], user_id: member.body.response.id }, token);
      expect(key.status).toBe(200);
      people[name as keyof typeof people] = { id: member.body.response.id, key: key.body.response.api_key };
    }
    const created = await audit('/audit/instance/create', { name: 'Handbook' }, adminKey);
    expect(created.status).toBe(200);
    instanceId = created.body.response.instance_id;
    organizationId = created.body.response.organization_id;
    const members = await platform('/core/organization/members/list', { limit: 100 }, token);
    adminUserId = members.body.response.items.find((u: Json) => u.email === 'admin@example.com').id;
    for (const who of ['steward', 'consumer'] as const) {
      expect((await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people[who].id }, adminKey)).status).toBe(200);
    }
  }, 120000);

  afterAll(async () => {
    await service?.destroy();
  });

  const unknownInstance = 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV';
  const unknownUser = 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV';

  /** Polls the instance until it reaches `step` (the workers advance it) or 30 s pass. */
  async function stepEventually(step: string): Promise<string> {
    let current = '';
    for (const deadline = Date.now() + 30000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      current = (await audit('/audit/instance/get-instance', { instance_id: instanceId }, adminKey)).body.response.step;
      if (current === step) break;
    }
    return current;
  }

  it('carries a new instance through the automated lifecycle to RUNNING_PHASE (background jobs)', async () => {
    expect(await stepEventually('RUNNING_PHASE')).toBe('RUNNING_PHASE');
  });

  describe('audit_instance_list_for_user', () => {
    it('lists every instance of the organisation for an admin, in a paginated envelope', async () => {
      const res = await audit('/audit/instance/list-instances-for-user', {}, adminKey);
      expect(res.status).toBe(200);
      expect(res.body.response).toMatchObject({ total: 1, offset: 0, limit: 50 });
      expect(res.body.response.items[0]).toMatchObject({ instance_id: instanceId, name: 'Handbook', configuration: { need_detect_owner_document_feature: false } });
    });

    it('lists only memberships for other roles', async () => {
      expect((await audit('/audit/instance/list-instances-for-user', {}, people.consumer.key)).body.response.total).toBe(1);
      expect((await audit('/audit/instance/list-instances-for-user', {}, people.outsider.key)).body.response).toMatchObject({ items: [], total: 0 });
    });

    it('refuses an unknown field and an out-of-range limit by name', async () => {
      const unknown = await audit('/audit/instance/list-instances-for-user', { colour: 'red' }, adminKey);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toContainEqual({ field: 'colour', message: 'colour is not a known field' });
      const limit = await audit('/audit/instance/list-instances-for-user', { limit: 5000 }, adminKey);
      expect(limit.status).toBe(400);
      expect(limit.body.errors[0].field).toBe('limit');
    });

    it('needs a credential', async () => {
      const res = await audit('/audit/instance/list-instances-for-user', {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ code: 'AUTH.MISSING_CREDENTIAL', status: 401 });
      expect(typeof res.body.request_id).toBe('string');
    });
  });

  describe('audit_instance_get', () => {
    it('returns the instance with its step and configuration', async () => {
      const res = await audit('/audit/instance/get-instance', { instance_id: instanceId }, people.consumer.key);
      expect(res.status).toBe(200);
      expect(res.body.response).toMatchObject({ instance_id: instanceId, organization_id: organizationId, name: 'Handbook' });
      expect(['INIT', 'ON_CHECKING_INDEXATION', 'CHECK_INDEXATION_DONE', 'LAUNCH_DUPLICATE_IDENTIFICATION', 'ON_DUPLICATE_IDENTIFICATION', 'DUPLICATE_IDENTIFICATION_DONE', 'RUNNING_PHASE']).toContain(res.body.response.step);
    });

    it('answers a wrong id prefix with a 400 and a hint', async () => {
      const res = await audit('/audit/instance/get-instance', { instance_id: 'qc_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, adminKey);
      expect(res.status).toBe(400);
      expect(res.body.code).toMatch(/\.WRONG_NAMESPACE$/);
      expect(res.body.hint).toContain('ki_');
    });

    it('answers a missing field with a 400 naming it', async () => {
      const res = await audit('/audit/instance/get-instance', {}, adminKey);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: Json) => e.field)).toContain('instance_id');
    });

    it('answers malformed JSON with a 400, never a 500', async () => {
      const res = await audit('/audit/instance/get-instance', '{"instance_id": ', adminKey);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('REQUEST.MALFORMED_JSON');
    });

    it('refuses garbage, revoked and foreign credentials with 401', async () => {
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, 'garbage')).status).toBe(401);
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, generateApiKey())).status).toBe(401);
      const typo = adminKey.slice(0, 20) + (adminKey[20] === 'a' ? 'b' : 'a') + adminKey.slice(21);
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, typo)).status).toBe(401);
    });

    it('refuses a role that may not read (403) and a non-member (403)', async () => {
      const billing = await audit('/audit/instance/get-instance', { instance_id: instanceId }, people.billing.key);
      expect(billing.status).toBe(403);
      expect(billing.body.code).toBe('AUTH.ROLE_NOT_ALLOWED');
      const outsider = await audit('/audit/instance/get-instance', { instance_id: instanceId }, people.outsider.key);
      expect(outsider.status).toBe(403);
      expect(outsider.body.code).toBe('WORKSPACE.NOT_A_MEMBER');
    });

    it('answers 404 for an instance that does not exist', async () => {
      const res = await audit('/audit/instance/get-instance', { instance_id: unknownInstance }, adminKey);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('WORKSPACE.INSTANCE_NOT_FOUND');
    });

    it('accepts an exchanged token as well as the raw key', async () => {
      const res = await audit('/audit/instance/get-instance', { instance_id: instanceId }, token);
      expect(res.status).toBe(200);
    });
  });

  describe('audit_instance_get_svc_instances', () => {
    it('shows the linked repository instance and its instance key to an instance admin', async () => {
      const res = await audit('/audit/instance/get-svc-instances', { instance_id: instanceId }, adminKey);
      expect(res.status).toBe(200);
      expect(res.body.response).toEqual([{ svc_instance_id: instanceId, api_key: expect.stringMatching(/^svc_ins_/) }]);
    });

    it('refuses a regular member (403): CONSUMER is not a key-management role', async () => {
      const res = await audit('/audit/instance/get-svc-instances', { instance_id: instanceId }, people.consumer.key);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('AUTH.ROLE_NOT_ALLOWED');
    });
  });

  describe('audit_instance_update_configuration', () => {
    it('lets a governing member change the owner flag', async () => {
      const res = await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: true }, people.steward.key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ response: true });
      const after = await audit('/audit/instance/get-instance', { instance_id: instanceId }, adminKey);
      expect(after.body.response.configuration.need_detect_owner_document_feature).toBe(true);
    });

    it('refuses a consumer (403) and a non-boolean flag (400)', async () => {
      expect((await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: false }, people.consumer.key)).status).toBe(403);
      const bad = await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: 'yes' }, adminKey);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('need_detect_owner_document_feature');
    });
  });

  describe('audit_user_get_users', () => {
    it('lists members with their instance role, paginated', async () => {
      const res = await audit('/audit/user/get-users-for-instance', { instance_id: instanceId }, people.consumer.key);
      expect(res.status).toBe(200);
      expect(res.body.response.total).toBe(3);
      const admin = res.body.response.items.find((u: Json) => u.user_id === adminUserId);
      expect(admin).toMatchObject({ is_admin: true, email: 'admin@example.com' });
      const page = await audit('/audit/user/get-users-for-instance', { instance_id: instanceId, offset: 1, limit: 1 }, adminKey);
      expect(page.body.response).toMatchObject({ total: 3, offset: 1, limit: 1 });
      expect(page.body.response.items).toHaveLength(1);
    });

    it('refuses a non-member (403)', async () => {
      expect((await audit('/audit/user/get-users-for-instance', { instance_id: instanceId }, people.outsider.key)).status).toBe(403);
    });
  });

  describe('audit_user_list_instances', () => {
    it('lets a user list their own instances', async () => {
      const res = await audit('/audit/user/list-user-instances', { user_id: people.consumer.id, organization_id: organizationId }, people.consumer.key);
      expect(res.status).toBe(200);
      expect(res.body.response.items.map((i: Json) => i.instance_id)).toEqual([instanceId]);
    });

    it("lets a global admin list anyone's, and nobody else", async () => {
      const byAdmin = await audit('/audit/user/list-user-instances', { user_id: people.outsider.id, organization_id: organizationId }, adminKey);
      expect(byAdmin.body.response.total).toBe(0);
      const byOther = await audit('/audit/user/list-user-instances', { user_id: people.steward.id, organization_id: organizationId }, people.consumer.key);
      expect(byOther.status).toBe(403);
    });

    it('never reveals another organisation (404)', async () => {
      const res = await audit('/audit/user/list-user-instances', { user_id: people.consumer.id, organization_id: 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, people.consumer.key);
      expect(res.status).toBe(404);
    });
  });

  describe('membership commands (admin only)', () => {
    it('audit_user_add: refuses a regular member, adds for an admin, 404 for an unknown user, 400 for a wrong prefix', async () => {
      expect((await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people.outsider.id }, people.steward.key)).status).toBe(403);
      const added = await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people.outsider.id }, adminKey);
      expect(added.body).toEqual({ response: true });
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, people.outsider.key)).status).toBe(200);
      expect((await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: unknownUser }, adminKey)).status).toBe(404);
      expect((await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, adminKey)).status).toBe(400);
      expect((await audit('/audit/user/add-user-to-instance', { instance_id: unknownInstance, user_id: people.outsider.id }, adminKey)).status).toBe(404);
    });

    it('audit_user_set_admin and audit_user_is_admin: a promoted member administers the instance', async () => {
      expect((await audit('/audit/user/user-is-admin-for-instance', { instance_id: instanceId }, people.steward.key)).body).toEqual({ response: false });
      expect((await audit('/audit/user/set-user-admin-for-instance', { instance_id: instanceId, user_id: people.steward.id }, people.consumer.key)).status).toBe(403);
      expect((await audit('/audit/user/set-user-admin-for-instance', { instance_id: instanceId, user_id: people.steward.id }, adminKey)).body).toEqual({ response: true });
      expect((await audit('/audit/user/user-is-admin-for-instance', { instance_id: instanceId }, people.steward.key)).body).toEqual({ response: true });
      expect((await audit('/audit/user/user-is-admin-for-instance', { instance_id: instanceId }, adminKey)).body).toEqual({ response: true });
      expect((await audit('/audit/user/set-user-admin-for-instance', { instance_id: instanceId, user_id: people.billing.id }, adminKey)).status).toBe(404);
    });

    it('audit_instance_update_step: an instance admin may set any step, which restarts its work; others get 403', async () => {
      expect((await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'RUNNING_PHASE' }, people.consumer.key)).status).toBe(403);
      expect((await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'DONE' }, adminKey)).status).toBe(400);
      const res = await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'ON_CHECKING_INDEXATION' }, people.steward.key);
      expect(res.body).toEqual({ response: true });
      // The indexation check runs again (nothing is pending) and the lifecycle carries on to the end.
      expect(await stepEventually('RUNNING_PHASE')).toBe('RUNNING_PHASE');
    });

    it('audit_user_set_normal: demotes, and never the last admin (409)', async () => {
      expect((await audit('/audit/user/set-user-normal-for-instance', { instance_id: instanceId, user_id: people.steward.id }, adminKey)).body).toEqual({ response: true });
      expect((await audit('/audit/user/user-is-admin-for-instance', { instance_id: instanceId }, people.steward.key)).body).toEqual({ response: false });
      const last = await audit('/audit/user/set-user-normal-for-instance', { instance_id: instanceId, user_id: adminUserId }, adminKey);
      expect(last.status).toBe(409);
      expect(last.body.code).toBe('WORKSPACE.LAST_ADMIN');
    });

    it('audit_user_remove: removes a member, 404 for a non-member, 409 for the last admin', async () => {
      expect((await audit('/audit/user/remove-user-from-instance', { instance_id: instanceId, user_id: people.outsider.id }, people.consumer.key)).status).toBe(403);
      expect((await audit('/audit/user/remove-user-from-instance', { instance_id: instanceId, user_id: people.outsider.id }, adminKey)).body).toEqual({ response: true });
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, people.outsider.key)).status).toBe(403);
      expect((await audit('/audit/user/remove-user-from-instance', { instance_id: instanceId, user_id: people.outsider.id }, adminKey)).status).toBe(404);
      expect((await audit('/audit/user/remove-user-from-instance', { instance_id: instanceId, user_id: adminUserId }, adminKey)).status).toBe(409);
    });
  });

  // The validation, guards and envelopes of the HTTP layer, the same code in either mode: embedded only (the rule at
  // BOTH_MODES in @svc/test-kit; role-matrix.e2e-spec runs every operation by role, embedded too). The distributed
  // run keeps the operations themselves, their jobs, their activity log and the restart.
  if (mode === 'embedded') {
    describe('error matrix, every operation', () => {
      /** A valid body per operation, and whether it names an instance. */
      const operations: { name: string; path: string; body: () => Record<string, unknown>; instance: boolean; idField: string }[] = [
        { name: 'audit_instance_list_for_user', path: '/audit/instance/list-instances-for-user', body: () => ({}), instance: false, idField: '' },
        { name: 'audit_instance_get', path: '/audit/instance/get-instance', body: () => ({ instance_id: instanceId }), instance: true, idField: 'instance_id' },
        { name: 'audit_instance_get_svc_instances', path: '/audit/instance/get-svc-instances', body: () => ({ instance_id: instanceId }), instance: true, idField: 'instance_id' },
        { name: 'audit_instance_update_step', path: '/audit/instance/update-instance-step', body: () => ({ instance_id: instanceId, step: 'RUNNING_PHASE' }), instance: true, idField: 'instance_id' },
        { name: 'audit_instance_update_configuration', path: '/audit/instance/update-configuration', body: () => ({ instance_id: instanceId, need_detect_owner_document_feature: true }), instance: true, idField: 'instance_id' },
        { name: 'audit_user_get_users', path: '/audit/user/get-users-for-instance', body: () => ({ instance_id: instanceId }), instance: true, idField: 'instance_id' },
        { name: 'audit_user_list_instances', path: '/audit/user/list-user-instances', body: () => ({ user_id: adminUserId, organization_id: organizationId }), instance: false, idField: 'user_id' },
        { name: 'audit_user_add', path: '/audit/user/add-user-to-instance', body: () => ({ instance_id: instanceId, user_id: people.consumer.id }), instance: true, idField: 'user_id' },
        { name: 'audit_user_remove', path: '/audit/user/remove-user-from-instance', body: () => ({ instance_id: instanceId, user_id: people.consumer.id }), instance: true, idField: 'user_id' },
        { name: 'audit_user_set_admin', path: '/audit/user/set-user-admin-for-instance', body: () => ({ instance_id: instanceId, user_id: people.consumer.id }), instance: true, idField: 'user_id' },
        { name: 'audit_user_set_normal', path: '/audit/user/set-user-normal-for-instance', body: () => ({ instance_id: instanceId, user_id: people.consumer.id }), instance: true, idField: 'user_id' },
        { name: 'audit_user_is_admin', path: '/audit/user/user-is-admin-for-instance', body: () => ({ instance_id: instanceId }), instance: true, idField: 'instance_id' },
      ];

      it('covers the 12 instance and user operations', () => {
        expect(new Set(operations.map((o) => o.name)).size).toBe(12);
      });

      it.each(operations.map((o) => [o.name, o] as const))('%s: 401 without or with a bad credential', async (_n, op) => {
        for (const credential of [undefined, 'not-a-key', generateApiKey()]) {
          const res = await audit(op.path, op.body(), credential);
          expect(res.status).toBe(401);
          expect(res.body).toMatchObject({ status: 401, code: expect.stringMatching(/^AUTH\./) });
        }
      });

      it.each(operations.map((o) => [o.name, o] as const))('%s: 400 naming an unknown field', async (_n, op) => {
        const res = await audit(op.path, { ...op.body(), surprise: 1 }, adminKey);
        expect(res.status).toBe(400);
        expect(res.body.errors).toContainEqual({ field: 'surprise', message: 'surprise is not a known field' });
      });

      it.each(operations.filter((o) => o.idField).map((o) => [o.name, o] as const))('%s: 400 with a hint for an id of the wrong kind', async (_n, op) => {
        const res = await audit(op.path, { ...op.body(), [op.idField]: 'fc_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, adminKey);
        expect(res.status).toBe(400);
        expect(res.body.code).toMatch(/\.WRONG_NAMESPACE$/);
        expect(res.body.hint).toEqual(expect.any(String));
      });

      it.each(operations.map((o) => [o.name, o] as const))('%s: 403 for a role the operation does not allow (BILLING)', async (_n, op) => {
        const res = await audit(op.path, op.body(), people.billing.key);
        expect(res.status).toBe(403);
      });

      it.each(operations.filter((o) => o.instance).map((o) => [o.name, o] as const))('%s: 403 for a member of the organisation who is not on the instance', async (_n, op) => {
        // A fresh service account allowed by role and unknown to the instance: STEWARD, or ACTIVATION_MANAGER
        // for the audit link key, which follows the key-management roles (ADR 0028).
        const role = op.name === 'audit_instance_get_svc_instances' ? 'ACTIVATION_MANAGER' : 'STEWARD';
        const outsider = await platform('/core/organization/api-keys/create', { name: `${role} ${op.name}`, roles: [role] }, token);
        const res = await audit(op.path, op.body(), outsider.body.response.api_key);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('WORKSPACE.NOT_A_MEMBER');
      });

      it.each(operations.filter((o) => o.instance).map((o) => [o.name, o] as const))('%s: 404 for an instance that does not exist', async (_n, op) => {
        const res = await audit(op.path, { ...op.body(), instance_id: unknownInstance }, adminKey);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('WORKSPACE.INSTANCE_NOT_FOUND');
      });

      it.each(operations.filter((o) => o.instance).map((o) => [o.name, o] as const))('%s: 400 for a bad field before the instance is looked up (an unknown instance does not mask it)', async (_n, op) => {
        const res = await audit(op.path, { ...op.body(), instance_id: unknownInstance, bogus: 1 }, adminKey);
        expect(res.status).toBe(400);
        expect(res.body.errors).toContainEqual({ field: 'bogus', message: 'bogus is not a known field' });
        const illTyped = await audit(op.path, { ...op.body(), instance_id: 42 }, adminKey);
        expect(illTyped.status).toBe(400);
        expect(illTyped.body.errors).toContainEqual(expect.objectContaining({ field: 'instance_id' }));
      });

      it('audit_user_list_instances: 404 for another organisation, 403 for another user when not a global admin', async () => {
        expect((await audit('/audit/user/list-user-instances', { user_id: adminUserId, organization_id: 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, adminKey)).status).toBe(404);
        expect((await audit('/audit/user/list-user-instances', { user_id: adminUserId, organization_id: organizationId }, people.consumer.key)).status).toBe(403);
      });
    });
  }

  if (mode === 'distributed') {
    it('records every mutation in the activity log with actor and credential', async () => {
      const client = new Client({ connectionString: service.env.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT action, actor_user_id, credential_kind, before, after FROM activity.entries WHERE instance_id = $1 ORDER BY occurred_at`, [instanceId]);
        const actions = rows.map((r) => r.action);
        expect(actions.filter((a) => a === 'workspace.step_advanced').length).toBeGreaterThanOrEqual(6);
        for (const action of ['audit_instance_create', 'audit_user_add', 'audit_user_set_admin', 'audit_user_set_normal', 'audit_user_remove', 'audit_instance_update_step', 'audit_instance_update_configuration']) {
          expect(actions).toContain(action);
        }
        const step = rows.find((r) => r.action === 'audit_instance_update_step');
        expect(step).toMatchObject({ actor_user_id: people.steward.id, credential_kind: 'org_api_key', after: { step: 'ON_CHECKING_INDEXATION' } });
      } finally {
        await client.end();
      }
    });
  }

  it('keeps its data across a restart', async () => {
    await service.restart();
    const res = await audit('/audit/instance/get-instance', { instance_id: instanceId }, adminKey);
    expect(res.status).toBe(200);
    expect(res.body.response.configuration.need_detect_owner_document_feature).toBe(true);
  }, 90000);
});
