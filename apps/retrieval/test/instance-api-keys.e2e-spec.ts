import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, Json, post, RunningService, startService } from '@svc/test-kit';
import { Client } from 'pg';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'tools', 'cli', 'src', 'main.js');
const KEY_FIELDS = ['created_at', 'id', 'instance_id', 'name', 'revoked_at'];

/**
 * Instance API keys managed over the retrieval API (bearer credentials; ADMIN and ACTIVATION_MANAGER)
 * and used on the instance API (`instance-id` + `api-key` headers), in both runtime modes.
 */
describe.each(BOTH_MODES)('instance API keys (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  const people: Record<'activation' | 'outsider' | 'steward' | 'consumer', { id: string; key: string }> = {} as never;
  let instanceId: string;
  let otherInstanceId: string;
  /** Every raw instance key seen in this file: none may ever show up again in a list or a log. */
  const rawKeys: string[] = [];
  const created: Record<'byAdmin' | 'byActivation', Json> = {} as never;

  const keys = (action: 'create' | 'list' | 'revoke', body: unknown, credential?: string) => post(`${service.urls.retrieval}/retrieval/instances/api-keys/${action}`, body, credential);
  const count = (instance: string, apiKey: string) => post(`${service.urls.retrieval}/api/documents/count`, {}, undefined, { 'instance-id': instance, 'api-key': apiKey });
  const platform = (path: string, body: unknown, credential?: string) => post(`${service.urls.auth}${path}`, body, credential);
  const audit = (path: string, body: unknown, credential: string) => post(`${service.urls.audit}${path}`, body, credential);

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, API_KEY_CACHE_SECONDS: '0' });
    const token = (await platform('/core/api-key/token', { api_key: adminKey })).body.response.access_token;
    instanceId = (await audit('/audit/instance/create', { name: 'Handbook' }, adminKey)).body.response.instance_id;
    otherInstanceId = (await audit('/audit/instance/create', { name: 'Other' }, adminKey)).body.response.instance_id;
    rawKeys.push((await audit('/audit/instance/get-svc-instances', { instance_id: instanceId }, adminKey)).body.response[0].api_key);
    // Members of the instance with each role, and an ACTIVATION_MANAGER service account that is not a member.
    const roles = { activation: 'ACTIVATION_MANAGER', steward: 'STEWARD', consumer: 'CONSUMER' } as const;
    for (const [name, role] of Object.entries(roles)) {
      const member = await platform('/core/organization/members/create', { email: `${name}@example.com`, name, roles: [role] }, token);
      expect(member.status).toBe(200);
      const key = await platform('/core/organization/api-keys/create', { name: `${name} key`, roles: [role], user_id: member.body.response.id }, token);
      expect(key.status).toBe(200);
      people[name as keyof typeof roles] = { id: member.body.response.id, key: key.body.response.api_key };
      expect((await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: member.body.response.id }, adminKey)).status).toBe(200);
    }
    const outsider = await platform('/core/organization/api-keys/create', { name: 'activation outsider', roles: ['ACTIVATION_MANAGER'] }, token);
    people.outsider = { id: outsider.body.response.user_id, key: outsider.body.response.api_key };
  }, 120000);

  afterAll(async () => {
    await service?.destroy();
  });

  it('lets an ADMIN create a key: the raw key once, and it opens the instance API of that instance', async () => {
    const res = await keys('create', { instance_id: instanceId, name: 'ingestion bot' }, adminKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      response: { id: expect.stringMatching(/^key_[0-9A-Z]{26}$/), instance_id: instanceId, name: 'ingestion bot', created_at: expect.any(String), revoked_at: null, api_key: expect.stringMatching(/^svc_ins_[A-Za-z0-9_-]{59}$/) },
    });
    created.byAdmin = res.body.response;
    rawKeys.push(created.byAdmin.api_key);
    expect(await count(instanceId, created.byAdmin.api_key)).toMatchObject({ status: 200, body: { response: 0 } });
  });

  it('lets an ACTIVATION_MANAGER member of the instance create one too', async () => {
    const res = await keys('create', { instance_id: instanceId, name: 'crawler' }, people.activation.key);
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ instance_id: instanceId, name: 'crawler', revoked_at: null });
    created.byActivation = res.body.response;
    rawKeys.push(created.byActivation.api_key);
    expect(await count(instanceId, created.byActivation.api_key)).toMatchObject({ status: 200, body: { response: 0 } });
  });

  it('accepts the key on its own instance only, and never as a bearer credential', async () => {
    const key = created.byAdmin.api_key;
    expect((await count(otherInstanceId, key)).status).toBe(401);
    const asBearer = await post(`${service.urls.retrieval}/retrieval/documents/list`, { instance_id: instanceId }, key);
    expect(asBearer.status).toBe(401);
    expect((await keys('list', { instance_id: instanceId }, key)).status).toBe(401);
    expect((await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, key)).status).toBe(401);
  });

  it('lists the keys newest first, with the audit link, paginated, and never a secret', async () => {
    const res = await keys('list', { instance_id: instanceId }, people.activation.key);
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ total: 3, offset: 0, limit: 50 });
    expect(res.body.response.items.map((k: Json) => k.name)).toEqual(['crawler', 'ingestion bot', 'audit link']);
    expect(res.body.response.items[1]).toEqual({ id: created.byAdmin.id, instance_id: instanceId, name: 'ingestion bot', created_at: created.byAdmin.created_at, revoked_at: null });
    for (const item of res.body.response.items) expect(Object.keys(item).sort()).toEqual(KEY_FIELDS);
    const text = JSON.stringify(res.body);
    for (const raw of rawKeys) {
      expect(text).not.toContain(raw);
      expect(text).not.toContain(raw.slice(8, 24));
    }
    const page = await keys('list', { instance_id: instanceId, offset: 1, limit: 1 }, adminKey);
    expect(page.body.response).toMatchObject({ total: 3, offset: 1, limit: 1, items: [{ id: created.byAdmin.id }] });
    expect((await keys('list', { instance_id: otherInstanceId }, adminKey)).body.response.items.map((k: Json) => k.name)).toEqual(['audit link']);
  });

  it('refuses STEWARD and CONSUMER (403) on every operation, and an ACTIVATION_MANAGER outside the instance', async () => {
    const bodies = { create: { instance_id: instanceId, name: 'nope' }, list: { instance_id: instanceId }, revoke: { instance_id: instanceId, api_key_id: created.byAdmin.id } };
    for (const who of ['steward', 'consumer'] as const) {
      for (const [action, body] of Object.entries(bodies)) {
        const res = await keys(action as keyof typeof bodies, body, people[who].key);
        expect({ who, action, status: res.status, code: res.body.code }).toEqual({ who, action, status: 403, code: 'AUTH.ROLE_NOT_ALLOWED' });
      }
    }
    const outsider = await keys('create', bodies.create, people.outsider.key);
    expect(outsider).toMatchObject({ status: 403, body: { code: 'WORKSPACE.NOT_A_MEMBER' } });
    expect((await keys('list', { instance_id: instanceId }, adminKey)).body.response.total).toBe(3);
    expect((await count(instanceId, created.byAdmin.api_key)).status).toBe(200);
  });

  it('answers 401 without a credential, 404 for an unknown instance, 400 for bad input', async () => {
    expect((await keys('list', { instance_id: instanceId })).status).toBe(401);
    const unknown = 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    expect(await keys('create', { instance_id: unknown, name: 'x' }, adminKey)).toMatchObject({ status: 404, body: { code: 'WORKSPACE.INSTANCE_NOT_FOUND' } });
    expect((await keys('list', { instance_id: unknown }, people.activation.key)).status).toBe(404);
    const invalid = [
      { instance_id: instanceId, name: '' },
      { instance_id: instanceId, name: 'n'.repeat(101) },
      { instance_id: instanceId },
      { instance_id: instanceId, name: 'ok', roles: ['ADMIN'] },
      { instance_id: 'kd_01ARZ3NDEKTSV4RRFFQ69G5FAV', name: 'x' },
    ];
    for (const body of invalid) expect({ body, status: (await keys('create', body, adminKey)).status }).toEqual({ body, status: 400 });
    const blank = await keys('create', { instance_id: instanceId, name: '   ' }, adminKey);
    expect(blank).toMatchObject({ status: 400, body: { code: 'REPOSITORY.INVALID_KEY_NAME', errors: [{ field: 'name' }] } });
    expect((await keys('list', { instance_id: instanceId, limit: 5000 }, adminKey)).status).toBe(400);
    const wrongPrefix = await keys('revoke', { instance_id: instanceId, api_key_id: 'kd_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, adminKey);
    expect(wrongPrefix.status).toBe(400);
    expect(wrongPrefix.body.hint).toContain('key_');
    expect((await keys('list', { instance_id: instanceId }, adminKey)).body.response.total).toBe(3);
  });

  it('revokes: the key gets 401 on the instance API right after; revoking again is fine; others keep working', async () => {
    const doomed = created.byAdmin;
    expect(await keys('revoke', { instance_id: instanceId, api_key_id: doomed.id }, people.activation.key)).toMatchObject({ status: 200, body: { response: true } });
    const refused = await count(instanceId, doomed.api_key);
    expect(refused).toMatchObject({ status: 401, body: { code: 'AUTH.INVALID_INSTANCE_KEY' } });
    expect(await keys('revoke', { instance_id: instanceId, api_key_id: doomed.id }, adminKey)).toMatchObject({ status: 200, body: { response: true } });
    expect((await count(instanceId, created.byActivation.api_key)).status).toBe(200);
    expect((await count(instanceId, rawKeys[0])).status).toBe(200);

    const listed = await keys('list', { instance_id: instanceId }, adminKey);
    const entry = listed.body.response.items.find((k: Json) => k.id === doomed.id);
    expect(entry).toEqual({ id: doomed.id, instance_id: instanceId, name: 'ingestion bot', created_at: doomed.created_at, revoked_at: expect.any(String) });
    expect(Date.parse(entry.revoked_at)).toBeGreaterThanOrEqual(Date.parse(doomed.created_at));
    for (const raw of rawKeys) expect(JSON.stringify(listed.body)).not.toContain(raw);
  });

  it("answers 404 for an unknown key id and for another instance's key, which stays valid", async () => {
    expect(await keys('revoke', { instance_id: instanceId, api_key_id: 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, adminKey)).toMatchObject({ status: 404, body: { code: 'REPOSITORY.INSTANCE_API_KEY_NOT_FOUND' } });
    const elsewhere = (await keys('create', { instance_id: otherInstanceId, name: 'elsewhere' }, adminKey)).body.response;
    rawKeys.push(elsewhere.api_key);
    expect((await keys('revoke', { instance_id: instanceId, api_key_id: elsewhere.id }, adminKey)).status).toBe(404);
    expect((await count(otherInstanceId, elsewhere.api_key)).status).toBe(200);
  });

  if (mode === 'distributed') {
    // A second organisation can only be made with the admin CLI, which needs the database to itself
    // in the embedded mode; on PostgreSQL it runs beside the service.
    it("never reveals another organisation's instance (404), in either direction", async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'organization', 'create', '--name', 'Rival', '--admin-email', 'ops@rival.test', '--json'], { env: { PATH: process.env.PATH ?? '', ...service.env } });
      const rivalKey: string = JSON.parse(stdout).admin_key.api_key;
      const rivalInstance = (await audit('/audit/instance/create', { name: 'Rival handbook' }, rivalKey)).body.response.instance_id;
      const rivalLink = (await keys('list', { instance_id: rivalInstance }, rivalKey)).body.response.items[0];
      for (const [action, body] of Object.entries({ create: { instance_id: rivalInstance, name: 'x' }, list: { instance_id: rivalInstance }, revoke: { instance_id: rivalInstance, api_key_id: rivalLink.id } })) {
        const res = await keys(action as 'create', body, adminKey);
        expect({ action, status: res.status, code: res.body.code }).toEqual({ action, status: 404, code: 'WORKSPACE.INSTANCE_NOT_FOUND' });
      }
      expect((await keys('list', { instance_id: rivalInstance }, rivalKey)).body.response.items).toEqual([{ ...rivalLink, revoked_at: null }]);
      expect((await keys('list', { instance_id: instanceId }, rivalKey)).status).toBe(404);
      expect((await keys('revoke', { instance_id: instanceId, api_key_id: created.byActivation.id }, rivalKey)).status).toBe(404);
      expect((await count(instanceId, created.byActivation.api_key)).status).toBe(200);
    });

    it('records each change in the activity log, and stores no raw key anywhere', async () => {
      const client = new Client({ connectionString: service.env.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT action, subject_id, actor_user_id, credential_kind, before, after FROM activity.entries WHERE instance_id = $1 AND action LIKE 'repository.instance_api_key.%' ORDER BY occurred_at, id`, [instanceId]);
        expect(rows.map((r) => [r.action, r.subject_id])).toEqual([
          ['repository.instance_api_key.create', created.byAdmin.id],
          ['repository.instance_api_key.create', created.byActivation.id],
          ['repository.instance_api_key.revoke', created.byAdmin.id],
        ]);
        expect(rows[1]).toMatchObject({ actor_user_id: people.activation.id, credential_kind: 'org_api_key', before: null, after: { name: 'crawler', revoked_at: null } });
        expect(rows[2]).toMatchObject({ actor_user_id: people.activation.id, before: { revoked_at: null }, after: { revoked_at: expect.any(String) } });
        const dump = JSON.stringify([(await client.query(`SELECT * FROM repository.instance_api_keys`)).rows, (await client.query(`SELECT * FROM activity.entries`)).rows]);
        for (const raw of rawKeys) expect(dump).not.toContain(raw);
      } finally {
        await client.end();
      }
    });
  }
});
