import { generateApiKey } from '@svc/identity-core';
import { RunningService, startService } from '@svc/test-kit';
import { authorizeUrl, login, loginForm, pkce, registerClient } from './support/auth-flows';

const PASSWORD = 'correct horse battery staple';

/**
 * Issue 28: what the OAuth endpoints and the sign-out form do with input a probe sent. Client
 * credentials in a Basic header that cannot be read are `invalid_client` (RFC 6749 §5.2), never a
 * 500; every OAuth parameter is bounded before any redirect is built from it; a form sign-out logs
 * nothing at error level.
 */
describe('OAuth input bounds and sign-out (embedded)', () => {
  let service: RunningService;
  let cookie: string;
  let clientId: string;
  const resource = () => `${service.urls.audit}/mcp`;
  const errorLines = () => service.output().split('\n').filter((line) => /"level":(50|60)/.test(line));

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: generateApiKey(), BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' });
    cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
    clientId = (await registerClient(service.urls.auth)).body.client_id;
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

  it.each([
    ['a bad percent-escape in the client id', basic('%zz:secret')],
    ['a bad percent-escape in the secret', () => basic(`${clientId}:%E0%A4%A`)],
    ['a NUL in the client id', basic('client%00id:secret')],
    ['a NUL in the secret', () => basic(`${clientId}:se%00cret`)],
    ['no colon', basic('just-a-client-id')],
    ['a header that is not base64', 'Basic not*base64'],
  ])('answers %s in Authorization: Basic with 401 invalid_client on /token and /revoke, never a 500', async (_name, header) => {
    const authorization = typeof header === 'function' ? header() : header;
    for (const [path, form] of [
      ['/token', { grant_type: 'authorization_code', code: 'x', code_verifier: pkce().verifier, redirect_uri: 'http://127.0.0.1:65000/callback' }],
      ['/revoke', { token: 'x' }],
    ] as const) {
      const res = await fetch(`${service.urls.auth}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization }, body: new URLSearchParams(form).toString() });
      expect({ path, status: res.status, body: await res.json() }).toEqual({ path, status: 401, body: { error: 'invalid_client', error_description: expect.any(String) } });
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('refuses an over-long OAuth parameter with 400 invalid_request before any redirect, signed in or not', async () => {
    const base = { clientId, resource: resource() };
    const longScope = await fetch(authorizeUrl(service.urls.auth, { ...base, scope: 'audit:read '.repeat(200) }), { redirect: 'manual', headers: { cookie: `svc_auth=${cookie}` } });
    expect([longScope.status, longScope.headers.get('location'), await longScope.json()]).toEqual([400, null, { error: 'invalid_request', error_description: 'scope is longer than 512 characters, the limit of this server.' }]);
    // Signed out, the login page's detour would have carried the whole query in its Location.
    const longState = await fetch(authorizeUrl(service.urls.auth, { ...base, state: 's'.repeat(5000) }), { redirect: 'manual' });
    expect([longState.status, longState.headers.get('location')]).toEqual([400, null]);
    // The probe's 900 KB scope, as a JSON body (the only way past the 16 KB request line and the 64 KB form limit).
    const { challenge } = pkce();
    const huge = await fetch(`${service.urls.auth}/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', cookie: `svc_auth=${cookie}` },
      body: JSON.stringify({ response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:65000/callback', code_challenge: challenge, code_challenge_method: 'S256', resource: resource(), state: 'st', scope: 'audit:read '.repeat(90_000) }),
    });
    expect([huge.status, huge.headers.get('location'), ((await huge.json()) as { error: string }).error]).toEqual([400, null, 'invalid_request']);
    // Within the bounds, the same request still reaches the consent page.
    const fine = await fetch(authorizeUrl(service.urls.auth, { ...base, scope: 'audit:read', state: 's'.repeat(1024) }), { redirect: 'manual', headers: { cookie: `svc_auth=${cookie}` } });
    expect(fine.status).toBe(200);
    const token = await fetch(`${service.urls.auth}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'r'.repeat(5000) }).toString() });
    expect([token.status, ((await token.json()) as { error_description: string }).error_description]).toEqual([400, 'refresh_token is longer than 256 characters, the limit of this server.']);
  });

  it('signs a form out with a redirect to the login page and logs nothing at error level', async () => {
    const session = await login(service.urls.auth, 'admin@example.com', PASSWORD);
    const form = await loginForm(service.urls.auth);
    const before = errorLines().length;
    const res = await fetch(`${service.urls.auth}/auth/cookie-logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: service.urls.auth, cookie: `svc_auth=${session}; svc_csrf=${form.csrfCookie}` },
      body: new URLSearchParams({ csrf: form.csrf }).toString(),
    });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/auth/login']);
    expect(res.headers.getSetCookie().some((line) => line.startsWith('svc_auth=;'))).toBe(true);
    // The JSON sign-out of a script keeps its envelope.
    const other = await login(service.urls.auth, 'admin@example.com', PASSWORD);
    const json = await fetch(`${service.urls.auth}/auth/cookie-logout`, { method: 'POST', headers: { 'content-type': 'application/json', origin: service.urls.auth, cookie: `svc_auth=${other}` }, body: '{}' });
    expect([json.status, await json.json()]).toEqual([200, { response: { signed_out: true } }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(errorLines().slice(before)).toEqual([]);
    expect(service.output()).not.toContain('ERR_HTTP_HEADERS_SENT');
  });

  it('logged no error for any of the refusals above', () => {
    expect(errorLines()).toEqual([]);
  });
});
