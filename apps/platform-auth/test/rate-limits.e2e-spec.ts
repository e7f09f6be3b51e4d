import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, post, RunningService, startService } from '@svc/test-kit';
import { login, registerClient, submitLogin, tokenRequest } from './support/auth-flows';

const PASSWORD = 'correct horse battery staple';

/**
 * SECURITY.md: brute force on key exchange, login, registration, token and refresh → 429 with Retry-After. Both modes
 * (BOTH_MODES): the counters are in memory in the standalone, in Redis for the distributed apps.
 */
describe.each(BOTH_MODES)('rate limits (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();

  beforeAll(async () => {
    service = await startService(mode, {
      BOOTSTRAP_ADMIN_API_KEY: adminKey,
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
      RATE_LIMIT_KEY_EXCHANGE_PER_MINUTE: '3',
      RATE_LIMIT_LOGIN_PER_MINUTE: '4',
      LOGIN_MAX_FAILURES: '2',
      RATE_LIMIT_REGISTRATION_PER_HOUR: '2',
      RATE_LIMIT_TOKEN_PER_MINUTE: '2',
    });
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  const expect429 = (res: { status: number; headers: Headers }) => {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  };

  it('limits the key exchange per key id, and per IP at ten times that', async () => {
    const exchange = (key: string) => post(`${service.urls.auth}/core/api-key/token`, { api_key: key });
    for (let i = 0; i < 3; i++) expect((await exchange(adminKey)).status).toBe(200);
    const refused = await exchange(adminKey);
    expect429(refused);
    expect(refused.body.code).toBe('RATE_LIMIT.EXCEEDED');
    // Other keys (unknown ones: 401) still go through until the IP's budget (30 per minute) is spent:
    // the four requests above count too (the refused one was within the IP's budget).
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) statuses.push((await exchange(generateApiKey())).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect429(await exchange(generateApiKey()));
  });

  it('locks an account after repeated failed logins (429 even with the right password), then limits the IP', async () => {
    expect((await submitLogin(service.urls.auth, 'admin@example.com', 'wrong password one')).status).toBe(401);
    expect((await submitLogin(service.urls.auth, 'admin@example.com', 'wrong password two')).status).toBe(401);
    expect429(await submitLogin(service.urls.auth, 'admin@example.com', PASSWORD));
    expect((await submitLogin(service.urls.auth, 'nobody@example.com', PASSWORD)).status).toBe(401);
    expect429(await submitLogin(service.urls.auth, 'nobody@example.com', PASSWORD));
  });

  it('limits dynamic client registration per IP', async () => {
    expect((await registerClient(service.urls.auth)).status).toBe(201);
    expect((await registerClient(service.urls.auth)).status).toBe(201);
    const res = await fetch(`${service.urls.auth}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:65000/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect429(res);
    expect(((await res.json()) as { error: string }).error).toBe('too_many_requests');
  });

  it('limits the token endpoint (code exchange and refresh) per client', async () => {
    const clientId = 'a-client-that-hammers';
    const attempt = () => tokenRequest(service.urls.auth, { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'guess' });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

/** The cookie refresh is limited per session; a separate service so the login lockout above does not interfere. */
describe('cookie refresh rate limit', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_TOKEN_PER_MINUTE: '2' });
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('answers 429 with Retry-After past the per-session budget', async () => {
    const cookie = await login(service.urls.auth, 'admin@example.com', PASSWORD);
    const refresh = () => post(`${service.urls.auth}/auth/cookie-refresh`, {}, undefined, { cookie: `svc_auth=${cookie}`, origin: service.urls.auth });
    expect((await refresh()).status).toBe(200);
    expect((await refresh()).status).toBe(200);
    const refused = await refresh();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

/** The lockout must not tell which e-mails have accounts: an unknown e-mail is refused like a locked one. */
describe.each(BOTH_MODES)('login lockout without account enumeration (%s)', (mode) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOGIN_MAX_FAILURES: '3', RATE_LIMIT_LOGIN_PER_MINUTE: '50' });
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('answers a known and an unknown e-mail alike: 401 up to the failure limit, then 429 for about 15 minutes', async () => {
    const attempts = async (email: string) => {
      const seen: { status: number; retryAfter: number }[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await submitLogin(service.urls.auth, email, `wrong password ${i}`);
        seen.push({ status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) });
      }
      return seen;
    };
    const known = await attempts('admin@example.com');
    const unknown = await attempts('nobody@example.com');
    expect(known.map((a) => a.status)).toEqual([401, 401, 401, 429, 429]);
    expect(unknown.map((a) => a.status)).toEqual(known.map((a) => a.status));
    for (const a of [...known, ...unknown].filter((x) => x.status === 429)) expect(a.retryAfter).toBeGreaterThan(800);
    // The right password is refused while locked, like any other.
    expect((await submitLogin(service.urls.auth, 'admin@example.com', PASSWORD)).status).toBe(429);
  });
});
