import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_OPERATIONS } from '@svc/contracts';
import { generateApiKey } from '@svc/identity-core';
import { freePort, post, RunningService, runToExit, startService } from '@svc/test-kit';

/** What a careless or hostile caller can send, and what an operator can misconfigure. */
describe('robustness of the standalone service', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, DEMO_DATA: 'true' });
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Fuzz' }, adminKey)).body.response.instance_id;
  }, 90000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('creates a searchable demo repository on the first start, owned by the admin', async () => {
    const res = await post(`${service.urls.audit}/audit/instance/list-instances-for-user`, {}, adminKey);
    expect(res.body.response.items.map((i: { name: string }) => i.name).sort()).toEqual(['Demo repository', 'Fuzz']);
    const demo = res.body.response.items.find((i: { name: string }) => i.name === 'Demo repository').instance_id;
    // The Northwind Outdoor intranet: every libs/composition/demo/<department>/*.md file, indexed by the workers.
    const DEMO_DOCUMENT_COUNT = 35;
    let indexed = 0;
    for (const deadline = Date.now() + 60000; Date.now() < deadline && indexed < DEMO_DOCUMENT_COUNT; await new Promise((r) => setTimeout(r, 300))) {
      indexed = (await post(`${service.urls.retrieval}/retrieval/documents/list`, { instance_id: demo, state: 'INDEXED' }, adminKey)).body.response.total;
    }
    expect(indexed).toBe(DEMO_DOCUMENT_COUNT);
    const documents = await post(`${service.urls.retrieval}/retrieval/documents/list`, { instance_id: demo }, adminKey);
    expect(documents.body.response.total).toBe(DEMO_DOCUMENT_COUNT);
    const found = await post(`${service.urls.retrieval}/retrieval/semantic-nodes/search`, { query: 'how long does a refund take', instance_id: demo }, adminKey);
    const texts: string[] = found.body.response.semantic_nodes.map((n: { text: string }) => n.text);
    // Both contradicting figures are in the demo repository, for the conflict analysis to find.
    expect(texts.slice(0, 3).join(' ')).toMatch(/30 days|14 days/);
  }, 90000);

  const implemented = Object.entries(AUDIT_OPERATIONS).filter(([name]) => name.startsWith('audit_instance_') || name.startsWith('audit_user_'));
  const hostileBodies: unknown[] = [
    '[]', '"text"', 'null', '42', 'true', '{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {}}}',
    { instance_id: 42 }, { instance_id: null }, { instance_id: ['ki_01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, { instance_id: { $ne: '' } },
    { instance_id: "ki_' OR '1'='1" }, { instance_id: 'ki_'.padEnd(5000, 'A') }, { offset: -1, limit: 0 }, { offset: 1e12, limit: 1.5 },
    { user_id: 'usr_\u0000', organization_id: 'org_%00' }, { step: { nested: true } }, { need_detect_owner_document_feature: 'true' },
  ];

  it.each(implemented)('%s never answers 5xx, whatever the body', async (_name, { path }) => {
    for (const body of [...hostileBodies, { instance_id: instanceId, extra: { deep: [1, 2, { x: 'y' }] } }]) {
      const res = await post(`${service.urls.audit}${path}`, body, adminKey);
      expect({ path, body, status: res.status }).toEqual({ path, body, status: expect.any(Number) });
      expect(res.status).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(res.body).toMatchObject({ detail: expect.any(String), code: expect.any(String), status: res.status, request_id: expect.any(String) });
    }
  });

  it('answers a non-JSON content type as a body-less call (400 naming the fields), not a 500', async () => {
    const res = await fetch(`${service.urls.audit}/audit/instance/get-instance`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'text/plain' }, body: 'instance_id=x' });
    expect(res.status).toBe(400);
  });

  it('stops cleanly on SIGTERM (exit code 0) and starts again on the same data', async () => {
    await service.restart();
    expect(service.exitCodes()).toEqual([0]);
    const res = await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey);
    expect(res.status).toBe(200);
  }, 90000);

  it('refuses to start on a bad setting, naming the variable (exit code 78)', async () => {
    const { code, output } = await runToExit('standalone', { DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')), AUDIT_PORT: 'eighty', REDIS_URL: 'http://wrong' });
    expect(code).toBe(78);
    expect(output).toContain('AUDIT_PORT');
    expect(output).toContain('REDIS_URL');
  });

  it('refuses to open a data directory another process is using', async () => {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()].map(String);
    const { code, output } = await runToExit('standalone', { DATA_DIR: service.env.DATA_DIR, PLATFORM_AUTH_PORT: ports[0], AUDIT_PORT: ports[1], RETRIEVAL_PORT: ports[2], WORKERS_HEALTH_PORT: ports[3] });
    expect(code).toBe(1);
    expect(output).toMatch(/in use by process \d+/);
  });
});
