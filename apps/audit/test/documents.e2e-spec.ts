import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, Json, post, RunningService, startService } from '@svc/test-kit';

/**
 * The 5 audit document operations. Embedded: the audit side reads the repository in-process;
 * distributed: through the HTTP RepositoryInstanceClient against the retrieval app's instance API.
 */
describe.each(BOTH_MODES)('audit document operations (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let token: string;
  let instanceId: string;
  let instanceKey: string;
  const people: Record<'expert' | 'consumer' | 'billing' | 'outsider', { id: string; key: string }> = {} as never;
  const docs: Record<string, string> = {};

  const audit = (path: string, body: unknown, credential = adminKey) => post(`${service.urls.audit}${path}`, body, credential);
  const ingest = (name: string, body: Record<string, unknown>) =>
    post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, url: `https://intranet.example/${name}`, ...body }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, ...(mode === 'distributed' ? { REPOSITORY_CLIENT: 'http' } : {}) });
    token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    for (const [name, role] of Object.entries({ expert: 'KNOWLEDGE_EXPERT', consumer: 'CONSUMER', billing: 'BILLING', outsider: 'STEWARD' })) {
      const member = await post(`${service.urls.auth}/core/organization/members/create`, { email: `${name}@example.com`, name, roles: [role] }, token);
      const key = await post(`${service.urls.auth}/core/organization/api-keys/create`, { name, roles: [role], user_id: member.body.response.id }, token);
      people[name as keyof typeof people] = { id: member.body.response.id, key: key.body.response.api_key };
    }
    instanceId = (await audit('/audit/instance/create', { name: 'Docs' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    for (const who of ['expert', 'consumer'] as const) await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people[who].id });
    docs.a = (await ingest('a.md', { content_text: '# A\n\nRefunds take 30 days.', extraproperties: { team: 'finance' } })).body.response.id;
    docs.b = (await ingest('b.md', { content_text: '# B\n\nRefunds take 14 days.' })).body.response.id;
    docs.broken = (await ingest('broken.pdf', { content_base64: Buffer.from('%PDF-1.7 broken').toString('base64') })).body.response.id;
    for (const deadline = Date.now() + 60000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      const waiting = await Promise.all(['PENDING', 'PARSING'].map(async (state) => (await audit('/audit/document/count', { instance_id: instanceId, state })).body.response));
      if (waiting.every((n) => n === 0)) break;
    }
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('audit_documents_list: the repository documents with their audit records, paginated', async () => {
    const res = await audit('/audit/document/list', { instance_id: instanceId });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ total: 3, offset: 0, limit: 50 });
    expect(res.body.response.items.find((d: Json) => d.document_id === docs.a)).toEqual({
      document_id: docs.a, instance_id: instanceId, document_name: 'a.md', document_owner: null, extraproperties: { team: 'finance' }, web_url: 'https://intranet.example/a.md', indexation_state: 'INDEXED',
    });
    expect((await audit('/audit/document/list', { instance_id: instanceId, limit: 1, offset: 1 })).body.response.items).toHaveLength(1);
  });

  it('audit_documents_count and audit_documents_list_with_state: by indexation state', async () => {
    expect((await audit('/audit/document/count', { instance_id: instanceId })).body).toEqual({ response: 3 });
    expect((await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' })).body).toEqual({ response: 2 });
    const failed = await audit('/audit/document/list-with-state', { instance_id: instanceId, state: 'PARSING_ERROR' });
    expect(failed.body.response.items.map((d: Json) => d.document_id)).toEqual([docs.broken]);
    expect((await audit('/audit/document/list-with-state', { instance_id: instanceId, state: 'BROKEN' })).status).toBe(400);
  });

  it('audit_documents_get_by_ids: up to 100 ids, unknown ones left out; also an MCP tool', async () => {
    const res = await audit('/audit/document/get-by-ids', { instance_id: instanceId, document_ids: [docs.a, docs.b, 'kd_01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect(res.body.response.map((d: Json) => [d.document_name, d.web_url]).sort()).toEqual([['a.md', 'https://intranet.example/a.md'], ['b.md', 'https://intranet.example/b.md']]);
    const tooMany = await audit('/audit/document/get-by-ids', { instance_id: instanceId, document_ids: Array.from({ length: 101 }, () => docs.a) });
    expect(tooMany.status).toBe(400);
    expect((await audit('/audit/document/get-by-ids', { instance_id: instanceId, document_ids: ['qc_01ARZ3NDEKTSV4RRFFQ69G5FAV'] })).status).toBe(400);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), { requestInit: { headers: { authorization: `Bearer ${adminKey}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('audit_documents_get_by_ids');
    const result = await client.callTool({ name: 'audit_documents_get_by_ids', arguments: { instance_id: instanceId, document_ids: [docs.a] } });
    expect((result.structuredContent as Json).response[0]).toMatchObject({ document_id: docs.a, document_name: 'a.md' });
    await client.close();
  });

  it('refuses missing credentials (401), other roles and non-members (403), unknown instances (404)', async () => {
    for (const path of ['/audit/document/list', '/audit/document/count', '/audit/document/list-with-state', '/audit/document/get-by-ids']) {
      const body = { instance_id: instanceId, ...(path.endsWith('state') ? { state: 'INDEXED' } : {}), ...(path.endsWith('ids') ? { document_ids: [docs.a] } : {}) };
      expect((await post(`${service.urls.audit}${path}`, body)).status).toBe(401);
      expect((await audit(path, body, people.billing.key)).status).toBe(403);
      expect((await audit(path, body, people.outsider.key)).status).toBe(403);
      expect((await audit(path, { ...body, instance_id: 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status).toBe(404);
    }
  });

  it('audit_documents_set_owner: admins only, never to an admin, only to a member; null unassigns', async () => {
    expect((await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: docs.a, owner_user_id: people.expert.id }, people.consumer.key)).status).toBe(403);
    expect((await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: docs.a, owner_user_id: people.expert.id })).body).toEqual({ response: true });
    const members = await post(`${service.urls.auth}/core/organization/members/list`, { limit: 100 }, token);
    const adminId = members.body.response.items.find((u: Json) => u.email === 'admin@example.com').id;
    const toAdmin = await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: docs.b, owner_user_id: adminId });
    expect(toAdmin.status).toBe(403);
    expect(toAdmin.body.code).toBe('WORKSPACE.ADMIN_CANNOT_OWN');
    expect((await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: docs.b, owner_user_id: people.outsider.id })).status).toBe(404);
    expect((await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: 'kd_01ARZ3NDEKTSV4RRFFQ69G5FAV', owner_user_id: people.expert.id })).status).toBe(404);
    expect((await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: docs.b, owner_user_id: people.consumer.id })).status).toBe(200);
    expect((await audit('/audit/document/set-owner', { instance_id: instanceId, document_id: docs.b, owner_user_id: null })).status).toBe(200);
    const listed = await audit('/audit/document/list', { instance_id: instanceId });
    expect(listed.body.response.items.find((d: Json) => d.document_id === docs.a).document_owner).toBe(people.expert.id);
    expect(listed.body.response.items.find((d: Json) => d.document_id === docs.b).document_owner).toBeNull();
  });

  it('applies the visibility rule when the owner flag is on: non-admins see only what they own', async () => {
    await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: true });
    try {
      const expertList = await audit('/audit/document/list', { instance_id: instanceId }, people.expert.key);
      expect(expertList.body.response).toMatchObject({ total: 1, items: [expect.objectContaining({ document_id: docs.a })] });
      expect((await audit('/audit/document/count', { instance_id: instanceId }, people.expert.key)).body.response).toBe(1);
      expect((await audit('/audit/document/get-by-ids', { instance_id: instanceId, document_ids: [docs.a, docs.b] }, people.expert.key)).body.response.map((d: Json) => d.document_id)).toEqual([docs.a]);
      expect((await audit('/audit/document/list', { instance_id: instanceId }, people.consumer.key)).body.response.total).toBe(0);
      expect((await audit('/audit/document/list', { instance_id: instanceId })).body.response.total).toBe(3);
    } finally {
      await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: false });
    }
    expect((await audit('/audit/document/list', { instance_id: instanceId }, people.expert.key)).body.response.total).toBe(3);
  });
  // Last: it breaks the instance's repository link.
  it('reports a revoked audit link key as a configuration error, not as an outage to retry', async () => {
    const [link] = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response;
    const keys = await post(`${service.urls.retrieval}/retrieval/instances/api-keys/list`, { instance_id: link.svc_instance_id }, adminKey);
    const linkKey = keys.body.response.items.find((k: Json) => k.name === 'audit link');
    expect((await post(`${service.urls.retrieval}/retrieval/instances/api-keys/revoke`, { instance_id: link.svc_instance_id, api_key_id: linkKey.id }, adminKey)).status).toBe(200);
    const res = await audit('/audit/document/list', { instance_id: instanceId });
    if (mode === 'embedded') {
      // In one process the audit side reads the repository directly: the instance API key plays no part.
      expect(res.status).toBe(200);
      return;
    }
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('REPOSITORY.LINK_CREDENTIAL_REJECTED');
    expect(res.body.detail).toContain('was revoked or is wrong');
    expect(res.headers.get('retry-after')).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain(link.api_key);
  });
});
