import { generateApiKey } from '@svc/identity-core';
import { AUDIT_OPERATIONS } from '@svc/contracts';
import { Json, post, RunningService, startService, validateOpenApi, waitFor } from '@svc/test-kit';
import { createPublicKey } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import jsonwebtoken from 'jsonwebtoken';

/** Organisation keys, the key exchange and the JWKS, over HTTP against the built standalone service. */
describe('API keys and key exchange', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let token: string;
  let instanceId: string;

  const platform = (path: string, body: unknown, credential?: string) => post(`${service.urls.auth}${path}`, body, credential);
  const audit = (path: string, body: unknown, credential?: string) => post(`${service.urls.audit}${path}`, body, credential);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, API_KEY_CACHE_SECONDS: '0', LOG_LEVEL: 'debug' });
    token = (await platform('/core/api-key/token', { api_key: adminKey })).body.response.access_token;
    instanceId = (await audit('/audit/instance/create', { name: 'Policies' }, adminKey)).body.response.instance_id;
  }, 90000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('exchanges a key for a 900-second bearer token that a third-party JOSE library verifies against the JWKS', async () => {
    const res = await platform('/core/api-key/token', { api_key: adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ response: { access_token: expect.any(String), token_type: 'bearer', expires_in: 900 } });
    // No cache may keep it, nor validate it against a stored copy.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    const jwks = createRemoteJWKSet(new URL(`${service.urls.auth}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(res.body.response.access_token, jwks, { issuer: service.urls.auth, algorithms: ['ES256'] });
    expect(protectedHeader.alg).toBe('ES256');
    expect(typeof protectedHeader.kid).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(900);
    for (const claim of ['iss', 'aud', 'sub', 'jti', 'nbf']) expect(payload[claim]).toBeDefined();
  });

  it('verifies with a second, independent JWT library (jsonwebtoken) given the JWKS public key', async () => {
    const jwks: Json = await (await fetch(`${service.urls.auth}/.well-known/jwks.json`)).json();
    const issued = (await platform('/core/api-key/token', { api_key: adminKey })).body.response.access_token;
    const kid = JSON.parse(Buffer.from(issued.split('.')[0], 'base64url').toString()).kid;
    const jwk = jwks.keys.find((k: Json) => k.kid === kid);
    const pem = createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const claims = jsonwebtoken.verify(issued, pem, { algorithms: ['ES256'], issuer: service.urls.auth, audience: 'urn:docaudit:api' }) as Json;
    expect(claims.exp - claims.iat).toBe(900);
    expect(() => jsonwebtoken.verify(issued, pem, { algorithms: ['ES256'], audience: 'https://another.example' })).toThrow(/audience/);
  });

  it('publishes only public key material', async () => {
    const res = await fetch(`${service.urls.auth}/.well-known/jwks.json`);
    const jwks: Json = await res.json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('refuses bad keys at the exchange with 401 and bad bodies with 400', async () => {
    expect((await platform('/core/api-key/token', { api_key: generateApiKey() })).status).toBe(401);
    expect((await platform('/core/api-key/token', { api_key: 'svc_org_short' })).status).toBe(401);
    const missing = await platform('/core/api-key/token', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('api_key');
  });

  it('refuses the raw key on the platform API (exchange first) but accepts the token', async () => {
    const raw = await platform('/core/organization/members/list', {}, adminKey);
    expect(raw.status).toBe(401);
    expect(raw.body.code).toBe('AUTH.EXCHANGE_REQUIRED');
    expect((await platform('/core/organization/members/list', {}, token)).status).toBe(200);
  });

  it('ignores a token in the query string', async () => {
    const res = await fetch(`${service.urls.audit}/audit/instance/get-instance?access_token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ instance_id: instanceId }) });
    expect(res.status).toBe(401);
  });

  it('keeps organisation administration to ADMIN (403 for others)', async () => {
    const steward = await platform('/core/organization/api-keys/create', { name: 'steward', roles: ['STEWARD'] }, token);
    const stewardToken = (await platform('/core/api-key/token', { api_key: steward.body.response.api_key })).body.response.access_token;
    const res = await platform('/core/organization/api-keys/create', { name: 'sneaky', roles: ['ADMIN'] }, stewardToken);
    expect(res.status).toBe(403);
  });

  it('never shows a key again after creation, nor its hash', async () => {
    const list = await platform('/core/organization/api-keys/list', {}, token);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain('svc_org_');
    // Field names, not the whole text: a ULID can spell "HASH" or "SECRET".
    const fields = list.body.response.items.flatMap((item: Json) => Object.keys(item));
    expect(fields.filter((name: string) => /secret|hash|lookup/i.test(name))).toEqual([]);
    expect(list.body.response.items[0]).toMatchObject({ id: expect.stringMatching(/^key_/), roles: expect.any(Array) });
  });

  it('stops a revoked key at once (cache disabled here) and marks its last use', async () => {
    const created = await platform('/core/organization/api-keys/create', { name: 'to revoke', roles: ['ADMIN'] }, token);
    const key = created.body.response.api_key;
    expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, key)).status).toBe(200);
    // last_used_at is written after the answer, off the request's path: poll for it.
    const lastUsedAt = await waitFor(async () => {
      const listed = await platform('/core/organization/api-keys/list', {}, token);
      return listed.body.response.items.find((k: { id: string }) => k.id === created.body.response.id).last_used_at ?? undefined;
    }, 2000, 'last_used_at');
    expect(lastUsedAt).not.toBeNull();
    expect((await platform('/core/organization/api-keys/revoke', { key_id: created.body.response.id }, token)).body).toEqual({ response: true });
    const after = await audit('/audit/instance/get-instance', { instance_id: instanceId }, key);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('AUTH.INVALID_API_KEY');
    expect((await platform('/core/api-key/token', { api_key: key })).status).toBe(401);
  });

  it('stops a key at its expires_at', async () => {
    const expiresAt = new Date(Date.now() + 5000).toISOString();
    const created = await platform('/core/organization/api-keys/create', { name: 'short-lived', roles: ['ADMIN'], expires_at: expiresAt }, token);
    expect(created.body.response.expires_at).toBe(expiresAt);
    const key = created.body.response.api_key;
    expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, key)).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 300);
    expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, key)).status).toBe(401);
    expect((await platform('/core/api-key/token', { api_key: key })).status).toBe(401);
  });

  it('refuses a key expiry in the past and an unknown role with 400', async () => {
    expect((await platform('/core/organization/api-keys/create', { name: 'x', roles: ['ADMIN'], expires_at: '2001-01-01T00:00:00Z' }, token)).status).toBe(400);
    const role = await platform('/core/organization/api-keys/create', { name: 'x', roles: ['ORG_OWNER'] }, token);
    expect(role.status).toBe(400);
    expect(role.body.errors[0].field).toBe('roles');
  });

  it('refuses a duplicate member email with 409', async () => {
    expect((await platform('/core/organization/members/create', { email: 'dup@example.com', name: 'A', roles: ['CONSUMER'] }, token)).status).toBe(200);
    expect((await platform('/core/organization/members/create', { email: 'DUP@example.com', name: 'B', roles: ['CONSUMER'] }, token)).status).toBe(409);
  });

  it('answers a body over 1 MiB with 413 and an unknown route with 404, in the error shape', async () => {
    const big = await audit('/audit/instance/get-instance', { instance_id: instanceId, padding: 'x'.repeat(1_100_000) }, adminKey);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('REQUEST.TOO_LARGE');
    const unknown = await audit('/audit/nothing-here', {}, adminKey);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, code: 'HTTP.ROUTE_NOT_FOUND' });
  });

  it('echoes a sane caller request id and replaces an unsafe one', async () => {
    const kept = await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey, { 'x-request-id': 'gateway-123' });
    expect(kept.headers.get('x-request-id')).toBe('gateway-123');
    const replaced = await post(`${service.urls.audit}/audit/instance/get-instance`, {}, adminKey, { 'x-request-id': 'bad id with spaces' });
    expect(replaced.body.request_id).not.toBe('bad id with spaces');
    expect(replaced.body.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(replaced.headers.get('x-request-id')).toBe(replaced.body.request_id);
  });

  it('logs each request with its real path and its own app, also for the OAuth endpoints mounted on a router', async () => {
    await fetch(`${service.urls.auth}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'log-path-token' }, body: 'grant_type=x' });
    await post(`${service.urls.audit}/audit/instance/get-instance`, { instance_id: instanceId }, adminKey, { 'x-request-id': 'log-path-audit' });
    const entry = (requestId: string) =>
      waitFor(async () => {
        const line = service.output().split('\n').find((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'));
        return line ? (JSON.parse(line.slice(line.indexOf('{'))) as Json) : undefined;
      }, 5000, `the request log line of ${requestId}`);
    expect(await entry('log-path-token')).toMatchObject({ app: 'platform-auth', method: 'POST', path: '/token', status: 400 });
    expect(await entry('log-path-audit')).toMatchObject({ app: 'audit', path: '/audit/instance/get-instance', status: 200 });
  });

  it('never writes a raw key or token into its logs', async () => {
    expect(service.output()).not.toContain(adminKey);
    expect(service.output()).not.toContain(token);
  });

  it('serves an OpenAPI document and a docs page on each app', async () => {
    const doc: Json = await (await fetch(`${service.urls.audit}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/audit/instance/get-instance'].post.operationId).toBe('audit_instance_get');
    expect(doc.paths['/audit/instance/get-instance'].post.requestBody.content['application/json'].schema.properties.instance_id.pattern).toMatch(/^\^ki_/);
    // The audit app's document lists every operation of the spec (48), each under its path and name.
    const listed = Object.entries(AUDIT_OPERATIONS).map(([name, { path }]) => ({ name, documented: doc.paths[path]?.post.operationId }));
    expect(listed).toEqual(Object.keys(AUDIT_OPERATIONS).map((name) => ({ name, documented: name })));
    expect(listed).toHaveLength(48);
    const authDoc: Json = await (await fetch(`${service.urls.auth}/openapi.json`)).json();
    expect(authDoc.paths['/core/api-key/token']).toBeDefined();
    // Each app's document is valid OpenAPI 3.1, and every operation documents what it returns.
    for (const url of [service.urls.auth, service.urls.audit, service.urls.retrieval]) {
      const served: Json = await (await fetch(`${url}/openapi.json`)).json();
      const result = await validateOpenApi(served);
      expect({ url, valid: result.valid, errors: result.errors }).toEqual({ url, valid: true, errors: undefined });
      const operations = Object.entries(served.paths as Record<string, Json>);
      expect(operations.length).toBeGreaterThan(5);
      for (const [path, item] of operations) {
        const response = item.post.responses['200'].content['application/json'].schema.properties.response;
        expect({ path, documented: Object.keys(response).length > 0 }).toEqual({ path, documented: true });
      }
    }
    expect(doc.paths['/audit/instance/get-instance'].post.responses['200'].content['application/json'].schema.properties.response.required).toEqual(
      expect.arrayContaining(['instance_id', 'name', 'step', 'configuration']),
    );
    const page = await fetch(`${service.urls.audit}/docs`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('audit_instance_get');
  });
});
