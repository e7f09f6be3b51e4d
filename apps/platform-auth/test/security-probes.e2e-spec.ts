import { createPublicKey, createHmac } from 'node:crypto';
import { deriveKey, SecretBox } from '@svc/config';
import { generateApiKey } from '@svc/identity-core';
import { Json, post, RunningService, startService } from '@svc/test-kit';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, JWK, JWTPayload, SignJWT } from 'jose';

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
import { Client as PgClient } from 'pg';
import { authorize, authorizeUrl, codeFrom, cookieValue, login, oauthTokens, pkce, registerClient, submitLogin, tokenRequest } from './support/auth-flows';

const PASSWORD = 'correct horse battery staple';

/**
 * SECURITY.md "What the test suite must try", probe by probe, against the distributed service
 * (PostgreSQL + Redis) so the test can also forge tokens with the real signing key (read from the
 * database with AUTH_SECRET, as an insider would) and inspect a dump of the database.
 */
describe('security probes (SECURITY.md)', () => {
  let service: RunningService;
  let db: PgClient;
  const adminKey = generateApiKey();
  let exchanged: string;
  let instanceId: string;
  let signingKey: { kid: string; key: KeyLike };
  /** Every secret the tests see; none may appear in the database dump. */
  const secrets: string[] = [adminKey, PASSWORD];

  const audit = (path: string, body: unknown, credential?: string, headers?: Record<string, string>) => post(`${service.urls.audit}${path}`, body, credential, headers);
  const platform = (path: string, body: unknown, credential?: string, headers?: Record<string, string>) => post(`${service.urls.auth}${path}`, body, credential, headers);
  const readOp = () => audit('/audit/instance/list-instances-for-user', {});
  const mcp = (credential?: string, headers: Record<string, string> = {}) =>
    fetch(`${service.urls.audit}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  /** A JWT signed with the service's real key, with every claim overridable. */
  async function forge(typ: string, claims: JWTPayload, header: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    const admin = decodeJwt(exchanged);
    return new SignJWT({ org_id: admin.org_id, roles: ['ADMIN'], key_id: admin.key_id, iss: service.urls.auth, aud: 'urn:docaudit:api', sub: admin.sub, jti: 'j-' + now, iat: now, nbf: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ, ...header })
      .sign(signingKey.key);
  }

  beforeAll(async () => {
    service = await startService('distributed', { BOOTSTRAP_ADMIN_API_KEY: adminKey, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, API_KEY_CACHE_SECONDS: '0' });
    db = new PgClient({ connectionString: service.env.DATABASE_URL });
    await db.connect();
    exchanged = (await platform('/core/api-key/token', { api_key: adminKey })).body.response.access_token;
    secrets.push(exchanged);
    instanceId = (await audit('/audit/instance/create', { name: 'Probes' }, adminKey)).body.response.instance_id;
    const row = (await db.query(`SELECT kid, private_jwk_encrypted FROM identity.signing_keys ORDER BY created_at DESC LIMIT 1`)).rows[0];
    const jwk = JSON.parse(new SecretBox(deriveKey(service.env.AUTH_SECRET, 'signing-keys')).open(row.private_jwk_encrypted)) as JWK;
    signingKey = { kid: row.kid, key: (await importJWK(jwk, 'ES256')) as KeyLike };
  }, 120000);
  afterAll(async () => {
    await db?.end();
    await service?.destroy();
  });

  describe('no or malformed credentials', () => {
    it('answers 401 on REST and on /mcp (with WWW-Authenticate pointing at the resource metadata)', async () => {
      expect((await readOp()).status).toBe(401);
      const res = await mcp();
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${service.urls.audit}/.well-known/oauth-protected-resource/mcp"`);
      const meta: Json = await (await fetch(`${service.urls.audit}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(meta).toMatchObject({ resource: `${service.urls.audit}/mcp`, authorization_servers: [service.urls.auth], bearer_methods_supported: ['header'] });
    });

    it.each([
      ['garbage', 'Bearer garbage'],
      ['empty', 'Bearer '],
      ['wrong scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['key with the wrong scheme', `Token ${'svc_org_x'}`],
    ])('answers 401 to a %s credential on REST and /mcp', async (_name, header) => {
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, { authorization: header })).status).toBe(401);
      const res = await fetch(`${service.urls.audit}/mcp`, { method: 'POST', headers: { authorization: header, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata=/);
    });

    it('ignores a token in the query string (401)', async () => {
      const res = await fetch(`${service.urls.audit}/mcp?access_token=${exchanged}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(res.status).toBe(401);
    });
  });

  describe('forged and misused JWTs (valid signature unless said)', () => {
    it('accepts the genuine article (control)', async () => {
      expect((await audit('/audit/instance/list-instances-for-user', {}, await forge('kx+jwt', {}))).status).toBe(200);
    });

    it.each<[string, () => Promise<string>]>([
      ['another audience', () => forge('kx+jwt', { aud: 'https://other.example' })],
      ['another issuer', () => forge('kx+jwt', { iss: 'https://evil.example' })],
      ['expired', () => forge('kx+jwt', { exp: Math.floor(Date.now() / 1000) - 10, iat: Math.floor(Date.now() / 1000) - 910, nbf: Math.floor(Date.now() / 1000) - 910 })],
      ['nbf in the future', () => forge('kx+jwt', { nbf: Math.floor(Date.now() / 1000) + 600 })],
      ['no jti', () => forge('kx+jwt', { jti: undefined })],
      ['the session type sent as a bearer (cookie token as Bearer)', () => forge('session+jwt', { aud: 'urn:docaudit:session', sid: 'ses_01JAAAAAAAAAAAAAAAAAAAAAAA' })],
      ['an unknown kid', () => forge('kx+jwt', {}, { kid: 'not-a-key' })],
      [
        'a key of its own (signature by another key under the real kid)',
        async () => {
          const { privateKey } = await generateKeyPair('ES256');
          const payload = decodeJwt(await forge('kx+jwt', {}));
          return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'kx+jwt' }).sign(privateKey);
        },
      ],
      [
        'alg none',
        async () => {
          const [, body] = (await forge('kx+jwt', {})).split('.');
          return `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'kx+jwt', kid: signingKey.kid })).toString('base64url')}.${body}.`;
        },
      ],
      [
        'HS256 signed with the public key (algorithm confusion)',
        async () => {
          const jwks: Json = await (await fetch(`${service.urls.auth}/.well-known/jwks.json`)).json();
          const pem = createPublicKey({ key: jwks.keys.find((k: Json) => k.kid === signingKey.kid), format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string;
          const [, body] = (await forge('kx+jwt', {})).split('.');
          const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'kx+jwt', kid: signingKey.kid })).toString('base64url');
          return `${head}.${body}.${createHmac('sha256', pem).update(`${head}.${body}`).digest('base64url')}`;
        },
      ],
    ])('answers 401 to %s on REST, /mcp and the platform API, never 500', async (_name, make) => {
      const token = await make();
      expect((await audit('/audit/instance/list-instances-for-user', {}, token)).status).toBe(401);
      expect((await mcp(token)).status).toBe(401);
      expect((await platform('/core/organization/members/list', {}, token)).status).toBe(401);
    });

    it('refuses a key-exchange token sent as the cookie (401)', async () => {
      const res = await audit('/audit/instance/list-instances-for-user', {}, undefined, { cookie: `svc_auth=${exchanged}`, origin: service.urls.audit });
      expect(res.status).toBe(401);
    });

    it('issues key-exchange tokens with exp - iat = 900', () => {
      const claims = decodeJwt(exchanged);
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    });
  });

  describe('raw organisation keys', () => {
    it('refuses a bad checksum, a wrong prefix and a truncated key (401) before any lookup', async () => {
      const good = generateApiKey();
      const flipped = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
      for (const key of [flipped, good.replace('svc_org_', 'svc_ins_'), good.slice(0, 30)]) {
        expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, key)).status).toBe(401);
      }
    });

    it('refuses a revoked and an expired key (401)', async () => {
      const expiresAt = new Date(Date.now() + 5000).toISOString();
      const created = (await platform('/core/organization/api-keys/create', { name: 'temp', roles: ['ADMIN'], expires_at: expiresAt }, exchanged)).body.response;
      secrets.push(created.api_key);
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, created.api_key)).status).toBe(200);
      await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 300));
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, created.api_key)).status).toBe(401);
      const other = (await platform('/core/organization/api-keys/create', { name: 'temp2', roles: ['ADMIN'] }, exchanged)).body.response;
      secrets.push(other.api_key);
      await platform('/core/organization/api-keys/revoke', { key_id: other.id }, exchanged);
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId }, other.api_key)).status).toBe(401);
    });
  });

  describe('browser session cookie svc_auth', () => {
    it('sets the cookie with exactly the attributes of SECURITY.md and redirects to an allow-listed next', async () => {
      const res = await submitLogin(service.urls.auth, 'admin@example.com', PASSWORD, { next: `${service.urls.audit}/docs` });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${service.urls.audit}/docs`);
      const line = res.headers.getSetCookie().find((l) => l.startsWith('svc_auth='))!;
      const attributes = line.split(';').slice(1).map((a) => a.trim());
      expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
      expect(attributes).toContain('Max-Age=1200');
      const token = cookieValue(res, 'svc_auth')!;
      secrets.push(token);
      const claims = decodeJwt(token);
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);
      expect(decodeProtectedHeader(token).typ).toBe('session+jwt');
    });

    it('never redirects to a foreign next URL after login', async () => {
      for (const next of ['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)']) {
        const res = await submitLogin(service.urls.auth, 'admin@example.com', PASSWORD, { next });
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('/auth/account');
      }
    });

    it('refuses a login form without the CSRF pair or from another site (403), and a wrong password (401)', async () => {
      const noCsrf = await fetch(`${service.urls.auth}/auth/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: service.urls.auth },
        body: new URLSearchParams({ email: 'admin@example.com', password: PASSWORD }).toString(),
      });
      expect(noCsrf.status).toBe(403);
      expect((await submitLogin(service.urls.auth, 'admin@example.com', PASSWORD, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await submitLogin(service.urls.auth, 'admin@example.com', 'wrong password here')).status).toBe(401);
    });

    it('serves the login page unframeable and uncacheable', async () => {
      const res = await fetch(`${service.urls.auth}/auth/login`);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('accepts the cookie on audit REST from a first-party page, refuses cross-site state changes (403)', async () => {
      const cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
      const headers = (extra: Record<string, string>) => ({ cookie: `svc_auth=${cookie}`, ...extra });
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, headers({ origin: service.urls.audit }))).status).toBe(200);
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, headers({ 'sec-fetch-site': 'same-site' }))).status).toBe(200);
      const crossSite = await audit('/audit/instance/list-instances-for-user', {}, undefined, headers({ 'sec-fetch-site': 'cross-site' }));
      expect(crossSite.status).toBe(403);
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, headers({ origin: 'https://evil.example' }))).status).toBe(403);
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, headers({}))).status).toBe(403);
    });

    it('never takes the cookie on /mcp (tokens only from the Authorization header)', async () => {
      const cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
      expect((await mcp(undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.audit })).status).toBe(401);
    });

    it('refuses the cookie token as a Bearer, a tampered cookie and a cookie after logout (401)', async () => {
      const cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
      expect((await audit('/audit/instance/list-instances-for-user', {}, cookie)).status).toBe(401);
      const tampered = cookie.slice(0, -3) + (cookie.endsWith('AAA') ? 'BBB' : 'AAA');
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, { cookie: `svc_auth=${tampered}`, origin: service.urls.audit })).status).toBe(401);
      const out = await platform('/auth/cookie-logout', {}, undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.auth });
      expect(out.status).toBe(200);
      expect(out.headers.getSetCookie()).toContain('svc_auth=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax');
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.audit })).status).toBe(401);
      expect((await platform('/auth/cookie-refresh', {}, undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.auth })).status).toBe(401);
    });

    it('refreshes a cookie up to 5 minutes past expiry, not beyond, and not past the absolute maximum', async () => {
      const cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
      const claims = decodeJwt(cookie);
      const now = Math.floor(Date.now() / 1000);
      const aged = (secondsPastExpiry: number) =>
        forge('session+jwt', { ...claims, aud: 'urn:docaudit:session', iat: now - 900 - secondsPastExpiry, nbf: now - 900 - secondsPastExpiry, exp: now - secondsPastExpiry });
      const refresh = (token: string) => platform('/auth/cookie-refresh', {}, undefined, { cookie: `svc_auth=${token}`, origin: service.urls.auth });
      const withinGrace = await aged(240);
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, { cookie: `svc_auth=${withinGrace}`, origin: service.urls.audit })).status).toBe(401);
      const renewed = await refresh(withinGrace);
      expect(renewed.status).toBe(200);
      const fresh = cookieValue(renewed, 'svc_auth');
      expect((await audit('/audit/instance/list-instances-for-user', {}, undefined, { cookie: `svc_auth=${fresh}`, origin: service.urls.audit })).status).toBe(200);
      expect((await refresh(await aged(330))).status).toBe(401);
      expect((await refresh(cookie)).status).toBe(200);
      await db.query(`UPDATE identity.sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [claims.sid]);
      expect((await refresh(cookie)).status).toBe(401);
      expect((await refresh(cookie)).body.code).toBe('AUTH.INVALID_SESSION');
    });

    it('refuses a cross-site cookie refresh (403)', async () => {
      const cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
      expect((await platform('/auth/cookie-refresh', {}, undefined, { cookie: `svc_auth=${cookie}`, origin: 'https://evil.example' })).status).toBe(403);
    });
  });

  describe('OAuth 2.1 authorization server', () => {
    let cookie: string;
    beforeAll(async () => {
      cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
    });

    it('publishes RFC 8414 metadata with a path-less issuer, S256 only', async () => {
      const meta: Json = await (await fetch(`${service.urls.auth}/.well-known/oauth-authorization-server`)).json();
      expect(meta).toMatchObject({ issuer: service.urls.auth, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'], registration_endpoint: `${service.urls.auth}/register` });
    });

    it('refuses registrations with non-loopback http or javascript: redirect URIs', async () => {
      for (const uri of ['http://evil.example/cb', 'javascript:alert(1)']) {
        const res = await registerClient(service.urls.auth, { redirect_uris: [uri] });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/invalid_redirect_uri|invalid_client_metadata/);
      }
    });

    it('refuses a missing or plain PKCE challenge (error redirect), an unregistered redirect URI and an unknown client (400, no redirect)', async () => {
      const client = (await registerClient(service.urls.auth)).body;
      const resource = `${service.urls.audit}/mcp`;
      for (const params of [{ challenge: null, method: null }, { method: 'plain' }]) {
        const res = await fetch(authorizeUrl(service.urls.auth, { clientId: client.client_id, resource, ...params }), { redirect: 'manual', headers: { cookie: `svc_auth=${cookie}` } });
        expect(res.status).toBe(302);
        expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
      }
      const badRedirect = await fetch(authorizeUrl(service.urls.auth, { clientId: client.client_id, resource, redirectUri: 'https://evil.example/cb' }), { redirect: 'manual', headers: { cookie: `svc_auth=${cookie}` } });
      expect(badRedirect.status).toBe(400);
      expect(badRedirect.headers.get('location')).toBeNull();
      const unknown = await fetch(authorizeUrl(service.urls.auth, { clientId: 'no-such-client', resource }), { redirect: 'manual', headers: { cookie: `svc_auth=${cookie}` } });
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get('location')).toBeNull();
    });

    it('refuses a missing or foreign resource with invalid_target', async () => {
      const client = (await registerClient(service.urls.auth)).body;
      for (const resource of [null, 'https://other.example/mcp']) {
        const res = await authorize(service.urls.auth, cookie, { clientId: client.client_id, resource });
        expect(res.status).toBe(302);
        expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
      }
    });

    it('sends a signed-out browser to the login page first', async () => {
      const client = (await registerClient(service.urls.auth)).body;
      const res = await fetch(authorizeUrl(service.urls.auth, { clientId: client.client_id, resource: `${service.urls.audit}/mcp` }), { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/^\/auth\/login\?next=%2Fauthorize%3F/);
    });

    it('issues an at+jwt with aud, iss, exp, jti, client_id and scope, with Cache-Control: no-store', async () => {
      const { client, tokens } = await oauthTokens(service, cookie, { scope: 'audit:read' });
      secrets.push(tokens.access_token, tokens.refresh_token);
      expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
      expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: `${service.urls.audit}/mcp`, iss: service.urls.auth, client_id: client.client_id, scope: 'audit:read', jti: expect.any(String), exp: expect.any(Number) });
      expect((await mcp(tokens.access_token)).status).toBe(200);
      expect((await audit('/audit/instance/list-instances-for-user', {}, tokens.access_token)).status).toBe(200);
    });

    it('answers 403 insufficient_scope to a write with a read-only token, 401 on another resource and on the platform API', async () => {
      const { tokens } = await oauthTokens(service, cookie, { scope: 'audit:read' });
      const write = await audit('/audit/instance/update-configuration', { instance_id: instanceId, configuration: {} }, tokens.access_token);
      expect(write.status).toBe(403);
      expect(write.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="audit:write"/);
      expect((await post(`${service.urls.retrieval}/retrieval/instances/list`, {}, tokens.access_token)).status).toBe(401);
      expect((await platform('/core/organization/members/list', {}, tokens.access_token)).status).toBe(401);
      const retrieval = await oauthTokens(service, cookie, { resource: `${service.urls.retrieval}/mcp` });
      expect((await mcp(retrieval.tokens.access_token)).status).toBe(401);
    });

    it('refuses a wrong verifier, a code of another client and a replayed code (which revokes the first tokens)', async () => {
      const resource = `${service.urls.audit}/mcp`;
      const client = (await registerClient(service.urls.auth)).body;
      const other = (await registerClient(service.urls.auth)).body;
      const { verifier, challenge } = pkce();
      const code = codeFrom(await authorize(service.urls.auth, cookie, { clientId: client.client_id, challenge, resource }));
      const base = { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:65000/callback', resource };
      const wrongVerifier = await tokenRequest(service.urls.auth, { ...base, client_id: client.client_id, code_verifier: pkce().verifier });
      expect(wrongVerifier.status).toBe(400);
      expect(wrongVerifier.body.error).toBe('invalid_grant');
      const otherClient = await tokenRequest(service.urls.auth, { ...base, client_id: other.client_id, code_verifier: verifier });
      expect(otherClient.body.error).toBe('invalid_grant');
      const wrongResource = await tokenRequest(service.urls.auth, { ...base, client_id: client.client_id, code_verifier: verifier, resource: `${service.urls.retrieval}/mcp` });
      expect(wrongResource.body.error).toBe('invalid_target');
      const wrongRedirect = await tokenRequest(service.urls.auth, { ...base, client_id: client.client_id, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:65001/callback' });
      expect(wrongRedirect.body.error).toBe('invalid_grant');
      const first = await tokenRequest(service.urls.auth, { ...base, client_id: client.client_id, code_verifier: verifier });
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect((await mcp(first.body.access_token)).status).toBe(200);
      const replay = await tokenRequest(service.urls.auth, { ...base, client_id: client.client_id, code_verifier: verifier });
      expect(replay.body.error).toBe('invalid_grant');
      expect((await mcp(first.body.access_token)).status).toBe(401);
      expect((await tokenRequest(service.urls.auth, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: first.body.refresh_token })).body.error).toBe('invalid_grant');
    });

    it('rotates refresh tokens; reusing an old one revokes the whole family', async () => {
      const { client, tokens } = await oauthTokens(service, cookie);
      const rotated = await tokenRequest(service.urls.auth, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
      expect((await mcp(rotated.body.access_token)).status).toBe(200);
      const reuse = await tokenRequest(service.urls.auth, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
      expect(reuse.body.error).toBe('invalid_grant');
      expect((await mcp(rotated.body.access_token)).status).toBe(401);
      expect((await tokenRequest(service.urls.auth, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: rotated.body.refresh_token })).body.error).toBe('invalid_grant');
    });

    it('revokes on request (RFC 7009) and when the user withdraws consent', async () => {
      const a = await oauthTokens(service, cookie);
      const revoke = await fetch(`${service.urls.auth}/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: a.client.client_id, token: a.tokens.refresh_token }).toString() });
      expect(revoke.status).toBe(200);
      expect((await mcp(a.tokens.access_token)).status).toBe(401);
      const b = await oauthTokens(service, cookie);
      const listed = await platform('/auth/consents/list', {}, undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.auth });
      expect(listed.body.response.map((c: Json) => c.client_id)).toContain(b.client.client_id);
      expect((await platform('/auth/consents/withdraw', { client_id: b.client.client_id }, undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.auth })).status).toBe(200);
      expect((await mcp(b.tokens.access_token)).status).toBe(401);
    });

    it('refuses a confidential client with a wrong secret (401 invalid_client), accepts the right one', async () => {
      const client = (await registerClient(service.urls.auth, { token_endpoint_auth_method: 'client_secret_post' })).body;
      expect(client.client_secret).toEqual(expect.any(String));
      secrets.push(client.client_secret);
      const { verifier, challenge } = pkce();
      const resource = `${service.urls.audit}/mcp`;
      const code = codeFrom(await authorize(service.urls.auth, cookie, { clientId: client.client_id, challenge, resource }));
      const base = { grant_type: 'authorization_code', client_id: client.client_id, code, code_verifier: verifier, resource };
      const wrong = await tokenRequest(service.urls.auth, { ...base, client_secret: 'x'.repeat(64) });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_client');
      expect((await tokenRequest(service.urls.auth, { ...base, client_secret: client.client_secret })).status).toBe(200);
    });
  });

  it('refuses a disallowed Origin on /mcp and REST (403)', async () => {
    expect((await mcp(adminKey, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await audit('/audit/instance/list-instances-for-user', {}, adminKey, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await mcp(adminKey, { origin: service.urls.audit })).status).toBe(200);
  });

  it('keeps no raw key, secret, password or token in the database (dump of every table)', async () => {
    const tables = (await db.query(`SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ('identity','workspace','repository','jobs','activity') AND table_type = 'BASE TABLE'`)).rows;
    let dump = '';
    for (const t of tables) {
      const rows = (await db.query(`SELECT row_to_json(x)::text AS j FROM "${t.table_schema}"."${t.table_name}" x`)).rows;
      dump += rows.map((r) => r.j).join('\n');
    }
    expect(dump.length).toBeGreaterThan(1000);
    const leaked = secrets.filter((secret) => dump.includes(secret)).map((secret) => dump.slice(Math.max(0, dump.indexOf(secret) - 300), dump.indexOf(secret)));
    expect(leaked).toEqual([]);
    expect(dump).toMatch(/scrypt\$/);
  });
});
