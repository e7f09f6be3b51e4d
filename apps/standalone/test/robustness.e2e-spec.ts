import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_OPERATIONS } from '@svc/contracts';
import { generateApiKey } from '@svc/identity-core';
import { freePort, Json, post, RunningService, runToExit, startService, waitFor } from '@svc/test-kit';

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

    // Its mandatory questions (libs/composition/demo/questions.json) are analysed once the documents are indexed:
    // four the documents answer differently, two they answer alike, one none answers.
    const questions = () => post(`${service.urls.audit}/audit/mandatory-question/list`, { instance_id: demo, limit: 100 }, adminKey);
    const analysed = await waitFor(async () => {
      const items: Json[] = (await questions()).body.response.items;
      return items.length > 0 && items.every((q) => !['PENDING', 'ANALYZING'].includes(q.state)) ? items : undefined;
    }, 60000, 'demo questions analysed');
    const byState = (state: string) => analysed.filter((q) => q.state === state).map((q) => q.question as string).sort();
    expect(byState('CONFLICTS')).toEqual([
      'How long does a customer wait for a refund to be processed?',
      'How many characters must a password have at least?',
      'What nightly hotel rate will the company pay back?',
      'Within how many days must expense claims be submitted?',
    ]);
    expect(byState('NO_CONFLICT')).toEqual(['Above which order value is standard delivery free?', 'How much paid holiday does a full-time employee get per year?']);
    expect(byState('REFUSED')).toEqual(['How long is maternity or paternity leave?']);
    const conflicts = (await post(`${service.urls.audit}/audit/conflict/list-conflicts-for-instance`, { instance_id: demo }, adminKey)).body.response;
    expect(conflicts.total).toBeGreaterThanOrEqual(4);
    // The refund conflict sets the refund policy and the customer FAQ on different sides.
    const refund = conflicts.items.find((c: Json) => /refund/.test(c.question));
    const sideOf = (name: RegExp) => refund.answer_groups.findIndex((g: Json) => g.excerpts.some((e: Json) => name.test(e.document_name)));
    expect(sideOf(/^Refund policy$/i)).toBeGreaterThanOrEqual(0);
    expect(sideOf(/FAQ/i)).toBeGreaterThanOrEqual(0);
    expect(sideOf(/^Refund policy$/i)).not.toBe(sideOf(/FAQ/i));
    // The full audit scans the whole repository on its own: the refund contradiction is among its findings too.
    await waitFor(async () => ((await post(`${service.urls.audit}/audit/full-audit/have-to-show`, { instance_id: demo }, adminKey)).body.response.show ? true : undefined), 90000, 'the demo full scan');
    const scanned = (await post(`${service.urls.audit}/audit/full-audit/list`, { instance_id: demo, limit: 100 }, adminKey)).body.response;
    expect(scanned.total).toBeGreaterThanOrEqual(10);
    expect(scanned.items.some((c: Json) => c.documents.some((d: Json) => /^Refund policy$/i.test(d.document_name)) && c.documents.some((d: Json) => /FAQ/i.test(d.document_name)))).toBe(true);
    // Duplicate identification ran in its step, before RUNNING_PHASE: the exact copy and the four older or
    // renamed copies of ANSWER-KEY.md are clustered in pairs, and nothing else (the look-alike product sheets are not).
    const clusters = (await post(`${service.urls.audit}/audit/duplicate/list-duplicates-for-instance`, { instance_id: demo, limit: 100 }, adminKey)).body.response;
    expect(clusters.items.map((c: Json) => c.documents.length)).toEqual([2, 2, 2, 2, 2]);
    expect(clusters.items.filter((c: Json) => c.exact)).toHaveLength(1);
    expect(clusters.items.some((c: Json) => c.documents.every((d: Json) => /password/i.test(d.document_name)))).toBe(true);
    expect(clusters.items.some((c: Json) => c.documents.some((d: Json) => /basecamp/i.test(d.document_name)))).toBe(false);
    // The demo question no document answers (parental leave, M1 of ANSWER-KEY.md) is a missing subject.
    const missing = (await post(`${service.urls.audit}/audit/missing-subject/list`, { instance_id: demo, limit: 100 }, adminKey)).body.response;
    expect(missing.items.some((s: Json) => /paternity|maternity|leave/i.test(s.subject))).toBe(true);
  }, 240000);

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

  it('refuses what no operation can accept with a 400 naming the field, authenticated or not, on every app', async () => {
    // The field named is where the problem is (for nesting, the path down to the limit).
    const deep = (levels: number, open: string, close: string) => `{"name":${open.repeat(levels)}1${close.repeat(levels)}}`;
    const cases: Array<{ url: string; body: unknown; field: string; credential?: string; form?: boolean }> = [
      // Deep nesting once overflowed the validator's stack (a 500), even on the unauthenticated token exchange.
      { url: `${service.urls.auth}/core/api-key/token`, body: deep(3000, '{"a":', '}'), field: 'name' },
      { url: `${service.urls.auth}/core/api-key/token`, body: deep(1500, '[', ']'), field: 'name' },
      { url: `${service.urls.audit}/audit/instance/create`, body: deep(3000, '{"a":', '}'), field: 'name', credential: adminKey },
      // NUL reached PostgreSQL ("invalid byte sequence"); a lone surrogate reached jsonb.
      { url: `${service.urls.audit}/audit/instance/create`, body: { name: 'a\u0000b' }, field: 'name', credential: adminKey },
      { url: `${service.urls.audit}/audit/instance/create`, body: '{"name":"\\ud800"}', field: 'name', credential: adminKey },
      { url: `${service.urls.retrieval}/retrieval/semantic-nodes/search`, body: { instance_id: instanceId, query: 'refund\u0000' }, field: 'query', credential: adminKey },
      { url: `${service.urls.auth}/token`, body: 'grant_type=authorization_code&client_id=a%00b', field: 'client_id', form: true },
      // Prototype keys are unknown fields, not silently dropped.
      { url: `${service.urls.audit}/audit/instance/create`, body: '{"name":"x","__proto__":{"admin":true}}', field: '__proto__', credential: adminKey },
      { url: `${service.urls.audit}/audit/instance/create`, body: '{"name":"x","constructor":{"prototype":{}}}', field: 'constructor', credential: adminKey },
    ];
    for (const { url, body, field, credential, form } of cases) {
      const res = await post(url, body, credential, form ? { 'content-type': 'application/x-www-form-urlencoded' } : {});
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({ url, status: 400, errors: [expect.objectContaining({ field: expect.stringMatching(new RegExp(`^${field}`)) })] });
      expect(res.body).toMatchObject({ code: 'REQUEST.VALIDATION_FAILED', detail: expect.stringContaining(field) });
    }
  });

  it('answers CORS preflights for the allowed origins and refuses the others in the error shape', async () => {
    const listUrl = `${service.urls.audit}/audit/instance/list-instances-for-user`;
    const allowedOrigin = new URL(service.urls.auth).origin;
    const preflight = (origin: string) =>
      fetch(listUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    const ok = await preflight(allowedOrigin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toEqual(expect.stringContaining('authorization'));
    const evil = await preflight('https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(await evil.json()).toMatchObject({ status: 403, code: 'AUTH.ORIGIN_NOT_ALLOWED' });
    // The actual call from the allowed origin can be read by the page.
    const call = await fetch(listUrl, { method: 'POST', headers: { origin: allowedOrigin, authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: '{}' });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    expect(call.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });

  it('answers oversized headers with 431 in the error shape, not a bare status line', async () => {
    const res = await fetch(`${service.urls.audit}/audit/instance/list-instances-for-user`, { method: 'POST', headers: { 'x-padding': 'x'.repeat(20_000), 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(431);
    expect(await res.json()).toMatchObject({ status: 431, code: 'REQUEST.HEADERS_TOO_LARGE', detail: expect.any(String) });
  });

  it('answers a body that is not UTF-8 JSON with 415, never reading it as fields', async () => {
    const getInstance = `${service.urls.audit}/audit/instance/get-instance`;
    for (const [contentType, body] of [
      ['text/plain', `{"instance_id":"${instanceId}"}`],
      ['application/x-www-form-urlencoded', `instance_id=${instanceId}`],
      ['application/json; charset=utf-16', Buffer.from(`{"instance_id":"${instanceId}"}`, 'utf16le')],
    ] as const) {
      const res = await fetch(getInstance, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': contentType }, body });
      expect({ contentType, status: res.status }).toEqual({ contentType, status: 415 });
      expect(await res.json()).toMatchObject({ status: 415, code: expect.stringMatching(/^REQUEST\.UNSUPPORTED_/) });
    }
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

  it("refuses to start on a bad setting of the chosen adapter, checked by its registry before any app is built (exit code 78)", async () => {
    const { code, output } = await runToExit('standalone', { DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')), REPOSITORY_CLIENT: 'http', REPOSITORY_API_URL: 'ftp://repository', LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'http://llm:hunter2@127.0.0.1:9/v1', OPENAI_COMPATIBLE_MODEL: 'qwen3' });
    expect(code).toBe(78);
    expect(output).toContain('OPENAI_COMPATIBLE_BASE_URL: must be an http:// or https:// URL without credentials');
    expect(output).toContain('REPOSITORY_API_URL: must be an http:// or https:// URL');
    expect(output).not.toContain('hunter2');
  });

  it('refuses to open a data directory another process is using', async () => {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()].map(String);
    const { code, output } = await runToExit('standalone', { DATA_DIR: service.env.DATA_DIR, PLATFORM_AUTH_PORT: ports[0], AUDIT_PORT: ports[1], RETRIEVAL_PORT: ports[2], WORKERS_HEALTH_PORT: ports[3] });
    expect(code).toBe(1);
    expect(output).toMatch(/in use by process \d+/);
  });
});
