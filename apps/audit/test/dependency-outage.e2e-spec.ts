import { generateApiKey } from '@svc/identity-core';
import { post, RunningService, startService, TcpProxy } from '@svc/test-kit';

/**
 * PostgreSQL goes away under a running distributed deployment: the direct-key path answers only
 * 503 with Retry-After, readiness reports the database down, and service resumes when it returns.
 */
describe('database outage (distributed mode)', () => {
  let service: RunningService;
  let proxy: TcpProxy;
  const adminKey = generateApiKey();
  let instanceId: string;

  beforeAll(async () => {
    service = await startService('distributed', { BOOTSTRAP_ADMIN_API_KEY: adminKey, API_KEY_CACHE_SECONDS: '0' });
    // Same database, reached through the proxy from now on (wherever the test PostgreSQL runs).
    const url = new URL(service.env.DATABASE_URL);
    proxy = new TcpProxy(Number(url.port || 5432), url.hostname);
    const port = await proxy.start();
    url.host = `127.0.0.1:${port}`;
    service.env.DATABASE_URL = url.toString();
    await service.restart();
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Outage' }, adminKey)).body.response.instance_id;
  }, 120000);
  afterAll(async () => {
    proxy?.restore();
    await service?.destroy();
    await proxy?.stop();
  });

  it('answers 503 with Retry-After on the direct-key path, reports not ready, and recovers', async () => {
    expect((await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey)).status).toBe(200);
    proxy.outage();
    const during = await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey);
    expect(during.status).toBe(503);
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(during.body).toMatchObject({ code: 'AUTH.KEY_STORE_UNAVAILABLE', status: 503 });
    const ready = await fetch(`${service.urls.audit}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { database: 'down', redis: 'up' } });
    expect((await fetch(`${service.urls.audit}/health/live`)).status).toBe(200);

    proxy.restore();
    let status = 0;
    for (const deadline = Date.now() + 20000; Date.now() < deadline && status !== 200; await new Promise((r) => setTimeout(r, 250))) {
      status = (await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey)).status;
      expect([200, 503]).toContain(status);
    }
    expect(status).toBe(200);
  }, 60000);

  it('answers every call after its database connections drop under load (a reset, not an outage)', async () => {
    const call = () => post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey).then((r) => r.status);
    expect(await call()).toBe(200);
    const inFlight = Array.from({ length: 40 }, () => call().catch(() => 0));
    await new Promise((r) => setTimeout(r, 30));
    proxy.outage();
    proxy.restore();
    // Calls in flight may fail (503, the pool's connection dropped under them), never with a 500.
    for (const status of await Promise.all(inFlight)) expect([200, 503]).toContain(status);
    for (let i = 0; i < 30; i++) expect(await call()).toBe(200);
    expect((await fetch(`${service.urls.audit}/health/ready`)).status).toBe(200);
  }, 60000);
});
