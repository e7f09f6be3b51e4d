import { createHash } from 'node:crypto';
import { Principal } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { AuthSettings } from './auth-settings';
import type { User } from './identity.model';
import {
  AuthenticateOAuthClient,
  AuthenticateOAuthToken,
  AuthorizationRequest,
  AuthorizeOAuthClient,
  DecideOAuthConsent,
  IssueOAuthTokens,
  ManageOAuthConsents,
  OAuthClient,
  OAuthErrorCode,
  OAuthProtocolError,
  RegisterOAuthClient,
  RevokeOAuthToken,
  TokenResponse,
} from './oauth';
import {
  FakeTokenService,
  FixedClock,
  ImmediateUnitOfWork,
  InMemoryOAuthStore,
  InMemoryUserRepository,
  PlainSecretHasher,
  RecordingActivityLog,
  TestIds,
} from './testing/in-memory-identity';

const AUDIT = 'https://audit.example.com/mcp';
const RETRIEVAL = 'https://audit.example.com/retrieval/mcp';
const REDIRECT = 'https://client.example.com/callback';
const VERIFIER = 'a-high-entropy-code-verifier-of-at-least-43-characters-0123456789';
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const ACCESS_SECONDS = 600;
const REFRESH_SECONDS = 30 * 24 * 3600;

function setup() {
  const clock = new FixedClock();
  const store = new InMemoryOAuthStore();
  const users = new InMemoryUserRepository();
  const tokens = new FakeTokenService(clock);
  const hasher = new PlainSecretHasher();
  const activity = new RecordingActivityLog();
  const ids = new TestIds();
  const settings = new AuthSettings(8 * 3600, ACCESS_SECONDS, REFRESH_SECONDS, 5, [
    { url: AUDIT, api: 'audit' },
    { url: RETRIEVAL, api: 'retrieval' },
  ]);
  const authorize = new AuthorizeOAuthClient(store, settings, clock);
  return {
    clock,
    store,
    users,
    tokens,
    activity,
    register: new RegisterOAuthClient(store, hasher, clock),
    clients: new AuthenticateOAuthClient(store, hasher, clock),
    authorize,
    decide: new DecideOAuthConsent(store, authorize, settings, ids, clock, activity),
    issue: new IssueOAuthTokens(store, tokens, users, settings, ids, clock, new ImmediateUnitOfWork()),
    revoke: new RevokeOAuthToken(store, tokens, settings, clock),
    authenticate: new AuthenticateOAuthToken(tokens, store),
    consents: new ManageOAuthConsents(store, clock, activity),
  };
}

type Setup = ReturnType<typeof setup>;

const ADA: User = { id: 'usr_ada', organizationId: 'org_a', email: 'ada@example.com', name: 'Ada', roles: ['STEWARD'], kind: 'person', createdAt: new Date('2026-01-01T00:00:00Z') };
const actorOf = (user: User): Principal => ({ organizationId: user.organizationId, userId: user.id, roles: user.roles, credential: { kind: 'session_cookie', id: 'ses_x' } });

function request(overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest {
  return { clientId: 'client_1', redirectUri: REDIRECT, codeChallenge: s256(VERIFIER), scopes: [], resource: AUDIT, state: 'st-123', ...overrides };
}

async function withClient(s: Setup, clientId = 'client_1', metadata: Record<string, unknown> = {}): Promise<OAuthClient> {
  await s.register.execute({ client_name: `App ${clientId}`, redirect_uris: [REDIRECT], ...metadata }, clientId, undefined, undefined);
  return (await s.clients.find(clientId)) as OAuthClient;
}

async function signedIn(s: Setup): Promise<User> {
  await s.users.insert(ADA);
  return (await s.users.get(ADA.organizationId, ADA.id)) as User;
}

/** Consent (approved on the page) and the code it redirects with. */
async function approve(s: Setup, req: AuthorizationRequest = request()): Promise<{ code: string; location: URL }> {
  const user = (await s.users.get(ADA.organizationId, ADA.id)) as User;
  const location = new URL(await s.decide.execute(user, actorOf(user), req, true));
  return { code: location.searchParams.get('code') as string, location };
}

/** Client, person, consent and first token pair: the state most token tests start from. */
async function authorized(s: Setup, req: AuthorizationRequest = request()) {
  await withClient(s, req.clientId);
  await signedIn(s);
  const { code } = await approve(s, req);
  const tokens = await s.issue.exchangeCode(req.clientId, code, req.redirectUri, req.resource);
  return { code, tokens };
}

async function oauthError(promise: Promise<unknown>, code: OAuthErrorCode): Promise<OAuthProtocolError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthProtocolError);
  expect((error as OAuthProtocolError).code).toBe(code);
  return error as OAuthProtocolError;
}


const grantOf = (s: Setup, t: TokenResponse) => {
  const minted = s.tokens.inspect(t.access_token);
  if (minted.kind !== 'access') throw new Error('not an access token');
  return minted.claims.grantId;
};

describe('RegisterOAuthClient', () => {
  it('accepts https, loopback http and native-app redirect URIs and keeps only the metadata', async () => {
    const s = setup();
    const redirect_uris = [REDIRECT, 'http://localhost:8976/cb', 'http://127.0.0.1/cb', 'http://[::1]:9000/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback'];
    await s.register.execute({ redirect_uris, client_name: 'Cursor', client_secret: 'leak?', client_id: 'spoofed', client_id_issued_at: 1 }, 'client_1', 'the-secret', 2_000_000_000);
    const stored = s.store.clients.get('client_1');
    expect(stored).toEqual({ clientId: 'client_1', secretHash: 'h:the-secret', secretExpiresAt: 2_000_000_000, metadata: { redirect_uris, client_name: 'Cursor' }, createdAt: s.clock.now() });
  });

  it.each([
    ['no redirect URI at all', []],
    ['plain http to a public host', ['http://client.example.com/cb']],
    ['a javascript: URI', ['javascript:alert(1)']],
    ['a data: URI', ['data:text/html,hi']],
    ['a file: URI', ['file:///etc/passwd']],
    ['a URI with a fragment', ['https://client.example.com/cb#frag']],
    ['a relative URI', ['/callback']],
    ['one bad URI among good ones', [REDIRECT, 'http://evil.example.com/cb']],
  ])('refuses %s with invalid_redirect_uri and stores nothing', async (_case, redirect_uris) => {
    const s = setup();
    await oauthError(s.register.execute({ redirect_uris }, 'client_1', undefined, undefined), 'invalid_redirect_uri');
    expect(s.store.clients.size).toBe(0);
  });

  it('refuses grant types other than authorization_code and refresh_token', async () => {
    const s = setup();
    await oauthError(s.register.execute({ redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'client_credentials'] }, 'client_1', undefined, undefined), 'invalid_client_metadata');
    await s.register.execute({ redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'] }, 'client_2', undefined, undefined);
    expect([...s.store.clients.keys()]).toEqual(['client_2']);
  });

  it('refuses a registration asking for an unknown scope', async () => {
    const s = setup();
    await oauthError(s.register.execute({ redirect_uris: [REDIRECT], scope: 'audit:read admin:all' }, 'client_1', undefined, undefined), 'invalid_client_metadata');
    await s.register.execute({ redirect_uris: [REDIRECT], scope: 'audit:read retrieval:write' }, 'client_2', undefined, undefined);
    expect(s.store.clients.has('client_2')).toBe(true);
  });

  it('refuses a client name the consent page would show as another (control characters, bidi overrides) and over-long redirect URIs', async () => {
    const s = setup();
    await oauthError(s.register.execute({ redirect_uris: [REDIRECT], client_name: 'Trusted \u202eppA liveE' }, 'client_1', undefined, undefined), 'invalid_client_metadata');
    await oauthError(s.register.execute({ redirect_uris: [REDIRECT], client_name: 'Claude\u001b[2J' }, 'client_2', undefined, undefined), 'invalid_client_metadata');
    await oauthError(s.register.execute({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(201) }, 'client_3', undefined, undefined), 'invalid_client_metadata');
    await oauthError(s.register.execute({ redirect_uris: [`${REDIRECT}?${'q'.repeat(2000)}`] }, 'client_4', undefined, undefined), 'invalid_redirect_uri');
    await s.register.execute({ redirect_uris: [REDIRECT], client_name: 'Éditeur – 😀 (نسخة\u200f)' }, 'client_5', undefined, undefined);
    expect([...s.store.clients.keys()]).toEqual(['client_5']);
  });

  it('registers a public client without secret nor secret expiry', async () => {
    const s = setup();
    await s.register.execute({ redirect_uris: [REDIRECT] }, 'client_1', undefined, 2_000_000_000);
    expect(s.store.clients.get('client_1')).toMatchObject({ secretHash: null, secretExpiresAt: null });
  });
});

describe('AuthenticateOAuthClient', () => {
  it('authenticates a confidential client by its secret only', async () => {
    const s = setup();
    await s.register.execute({ redirect_uris: [REDIRECT] }, 'client_1', 'the-secret', undefined);
    await expect(s.clients.execute('client_1', 'the-secret')).resolves.toMatchObject({ clientId: 'client_1' });
    await oauthError(s.clients.execute('client_1', 'wrong-secret'), 'invalid_client');
    await oauthError(s.clients.execute('client_1', undefined), 'invalid_client');
    await oauthError(s.clients.execute('client_unknown', 'the-secret'), 'invalid_client');
  });

  it('refuses a confidential client once its secret has expired', async () => {
    const s = setup();
    const expiry = Math.floor(s.clock.now().getTime() / 1000) + 60;
    await s.register.execute({ redirect_uris: [REDIRECT] }, 'client_1', 'the-secret', expiry);
    s.clock.advance(60_000);
    await expect(s.clients.execute('client_1', 'the-secret')).resolves.toBeDefined();
    s.clock.advance(1_000);
    await oauthError(s.clients.execute('client_1', 'the-secret'), 'invalid_client');
  });

  it('lets a public client through without a secret', async () => {
    const s = setup();
    await withClient(s);
    await expect(s.clients.execute('client_1', undefined)).resolves.toMatchObject({ clientId: 'client_1', secretHash: null });
  });
});

describe('AuthorizeOAuthClient', () => {
  it('requires a resource this deployment serves, with or without a trailing slash', async () => {
    const s = setup();
    const client = await withClient(s);
    const user = await signedIn(s);
    await oauthError(s.authorize.execute(user, client, request({ resource: undefined })), 'invalid_target');
    await oauthError(s.authorize.execute(user, client, request({ resource: 'https://other.example.com/mcp' })), 'invalid_target');
    await expect(s.authorize.execute(user, client, request({ resource: `${AUDIT}/` }))).resolves.toMatchObject({ kind: 'consent', resource: { url: AUDIT } });
  });

  it('asks for read and write of the resource API when no scope is requested', async () => {
    const s = setup();
    const client = await withClient(s);
    const user = await signedIn(s);
    await expect(s.authorize.execute(user, client, request({ scopes: [''] }))).resolves.toMatchObject({ kind: 'consent', scopes: ['audit:read', 'audit:write'] });
    await expect(s.authorize.execute(user, client, request({ resource: RETRIEVAL }))).resolves.toMatchObject({ scopes: ['retrieval:read', 'retrieval:write'] });
  });

  it('refuses unknown scopes and scopes of another API than the resource', async () => {
    const s = setup();
    const client = await withClient(s);
    const user = await signedIn(s);
    await oauthError(s.authorize.execute(user, client, request({ scopes: ['audit:read', 'retrieval:read'] })), 'invalid_scope');
    await oauthError(s.authorize.execute(user, client, request({ scopes: ['audit:admin'] })), 'invalid_scope');
    await expect(s.authorize.execute(user, client, request({ scopes: ['audit:read', 'audit:read'] }))).resolves.toMatchObject({ scopes: ['audit:read'] });
  });

  it('asks for consent first, then redirects with a code and the state while the consent covers the scopes', async () => {
    const s = setup();
    const client = await withClient(s);
    const user = await signedIn(s);
    expect(await s.authorize.execute(user, client, request({ scopes: ['audit:read'] }))).toMatchObject({ kind: 'consent' });
    expect(s.store.codes.size).toBe(0);

    await approve(s, request({ scopes: ['audit:read'] }));
    const outcome = await s.authorize.execute(user, client, request({ scopes: ['audit:read'], state: 'second' }));
    if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.kind}`);
    const location = new URL(outcome.location);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('second');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // A wider request than what was consented goes back to the consent page.
    expect(await s.authorize.execute(user, client, request({ scopes: ['audit:read', 'audit:write'] }))).toMatchObject({ kind: 'consent', scopes: ['audit:read', 'audit:write'] });
  });

  it('stores only a hash of the authorization code', async () => {
    const s = setup();
    await withClient(s);
    await signedIn(s);
    const { code } = await approve(s);
    expect(s.store.codes.has(code)).toBe(false);
    expect(JSON.stringify([...s.store.codes.values()])).not.toContain(code);
  });
});

describe('DecideOAuthConsent', () => {
  it('redirects a denial with access_denied and the state, storing no consent and no code', async () => {
    const s = setup();
    await withClient(s);
    const user = await signedIn(s);
    const location = new URL(await s.decide.execute(user, actorOf(user), request(), false));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('code')).toBeNull();
    expect(s.store.consents).toEqual([]);
    expect(s.store.codes.size).toBe(0);
  });

  it('refuses a decision for an unknown client or an unregistered redirect URI, even a denial', async () => {
    const s = setup();
    await withClient(s);
    const user = await signedIn(s);
    await oauthError(s.decide.execute(user, actorOf(user), request({ redirectUri: 'https://evil.example.com/cb' }), false), 'invalid_request');
    await oauthError(s.decide.execute(user, actorOf(user), request({ redirectUri: 'https://evil.example.com/cb' }), true), 'invalid_request');
    await oauthError(s.decide.execute(user, actorOf(user), request({ clientId: 'client_unknown' }), true), 'invalid_request');
    expect(s.store.consents).toEqual([]);
  });

  it('remembers the union of approved scopes but issues the code for the requested ones only', async () => {
    const s = setup();
    await withClient(s);
    await signedIn(s);
    await approve(s, request({ scopes: ['audit:read'] }));
    const firstId = s.store.consents[0].id;
    const { code } = await approve(s, request({ scopes: ['audit:write'] }));

    expect(s.store.consents).toHaveLength(1);
    expect(s.store.consents[0]).toMatchObject({ id: firstId, scopes: ['audit:read', 'audit:write'], revokedAt: null });
    const tokens = await s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT);
    expect(tokens.scope).toBe('audit:write');
    expect(s.activity.entries.map((e) => e.action)).toEqual(['identity.oauth.consent', 'identity.oauth.consent']);
    expect(s.activity.entries[1]).toMatchObject({ subjectId: firstId, before: { scopes: ['audit:read'] }, after: { client_id: 'client_1', scopes: ['audit:read', 'audit:write'] } });
  });
});

describe('IssueOAuthTokens: authorization codes', () => {
  it('exchanges a code for an access token bound to the resource, scopes and user, and a refresh token', async () => {
    const s = setup();
    const { tokens } = await authorized(s, request({ scopes: ['audit:read'] }));
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: ACCESS_SECONDS, scope: 'audit:read' });
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.tokens.inspect(tokens.access_token).claims).toMatchObject({ subject: ADA.id, organizationId: 'org_a', roles: ['STEWARD'], clientId: 'client_1', scopes: ['audit:read'], audience: AUDIT });

    const principal = await s.authenticate.execute(tokens.access_token, [AUDIT]);
    expect(principal).toMatchObject({ organizationId: 'org_a', userId: ADA.id, scopes: ['audit:read'], clientId: 'client_1', credential: { kind: 'oauth_token', id: grantOf(s, tokens) } });
    expect(s.store.refreshTokens.has(tokens.refresh_token)).toBe(false);
  });

  it('hands out the PKCE challenge of the code only to the client it was issued to', async () => {
    const s = setup();
    await withClient(s);
    await withClient(s, 'client_2');
    await signedIn(s);
    const { code } = await approve(s);
    const challenge = await s.issue.challenge('client_1', code);
    expect(challenge).toBe(s256(VERIFIER));
    await oauthError(s.issue.challenge('client_2', code), 'invalid_grant');
    await oauthError(s.issue.challenge('client_1', 'not-a-code'), 'invalid_grant');
  });

  it('accepts a code once: a replay is refused and revokes the tokens the first exchange issued', async () => {
    const s = setup();
    const { code, tokens } = await authorized(s);
    await expect(s.authenticate.execute(tokens.access_token, [AUDIT])).resolves.toBeDefined();

    await oauthError(s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT), 'invalid_grant');

    expect((await domainErrorOf(s.authenticate.execute(tokens.access_token, [AUDIT]))).kind).toBe('unauthenticated');
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');
    expect(s.store.grants.size).toBe(1);
  });

  it('lets only one of two concurrent exchanges of a code succeed', async () => {
    const s = setup();
    await withClient(s);
    await signedIn(s);
    const { code } = await approve(s);
    const results = await Promise.allSettled([s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT), s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // The loser's exchange is a replay: the winner's grant is revoked, so its tokens stop working.
    const won = results.find((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof s.issue.exchangeCode>>> => r.status === 'fulfilled')!.value;
    expect((await domainErrorOf(s.authenticate.execute(won.access_token, [AUDIT]))).code).toBe('AUTH.INVALID_TOKEN');
  });

  it('refuses a code presented by another client, without burning it for its own client', async () => {
    const s = setup();
    await withClient(s);
    await withClient(s, 'client_2');
    await signedIn(s);
    const { code } = await approve(s);
    await oauthError(s.issue.exchangeCode('client_2', code, REDIRECT, AUDIT), 'invalid_grant');
    await expect(s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT)).resolves.toBeDefined();
  });

  it('refuses a redirect_uri other than the one of the authorization request', async () => {
    const s = setup();
    await withClient(s, 'client_1', { redirect_uris: [REDIRECT, 'https://client.example.com/other'] });
    await signedIn(s);
    const { code } = await approve(s);
    await oauthError(s.issue.exchangeCode('client_1', code, 'https://client.example.com/other', AUDIT), 'invalid_grant');
    await expect(s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT)).resolves.toBeDefined();
  });

  it('refuses a resource other than the one the code was issued for', async () => {
    const s = setup();
    await withClient(s);
    await signedIn(s);
    const { code } = await approve(s);
    await oauthError(s.issue.exchangeCode('client_1', code, REDIRECT, RETRIEVAL), 'invalid_target');
    await oauthError(s.issue.exchangeCode('client_1', code, REDIRECT, 'https://other.example.com/mcp'), 'invalid_target');
    const tokens = await s.issue.exchangeCode('client_1', code, REDIRECT, `${AUDIT}/`);
    expect(s.tokens.inspect(tokens.access_token).claims).toMatchObject({ audience: AUDIT });
    await domainErrorOf(s.authenticate.execute(tokens.access_token, [RETRIEVAL]));
  });

  it('refuses a code after its five minutes', async () => {
    const s = setup();
    await withClient(s);
    await signedIn(s);
    const { code } = await approve(s);
    s.clock.advance(300_000);
    await oauthError(s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT), 'invalid_grant');
    expect(s.store.grants.size).toBe(0);
  });

  it('refuses a code whose user no longer exists', async () => {
    const s = setup();
    await withClient(s);
    await signedIn(s);
    const { code } = await approve(s);
    s.users.users.delete(ADA.id);
    await oauthError(s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT), 'invalid_grant');
  });

  it('issues a separate token family per authorization', async () => {
    const s = setup();
    const first = await authorized(s);
    const { code } = await approve(s);
    const second = await s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT);
    expect(grantOf(s, second)).not.toBe(grantOf(s, first.tokens));
    await oauthError(s.issue.exchangeCode('client_1', first.code, REDIRECT, AUDIT), 'invalid_grant');
    await expect(s.authenticate.execute(second.access_token, [AUDIT])).resolves.toBeDefined();
  });
});

describe('IssueOAuthTokens: refresh tokens', () => {
  it('rotates the refresh token: each one buys a new pair once, in the same family', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    s.clock.advance(ACCESS_SECONDS * 1000);
    const next = await s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.access_token).not.toBe(tokens.access_token);
    expect(next.scope).toBe('audit:read audit:write');
    expect(grantOf(s, next)).toBe(grantOf(s, tokens));
    await expect(s.authenticate.execute(next.access_token, [AUDIT])).resolves.toBeDefined();
    await expect(s.issue.refresh('client_1', next.refresh_token, undefined, AUDIT)).resolves.toBeDefined();
  });

  it('treats reuse of a rotated refresh token as theft and revokes the whole family', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    const next = await s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined);

    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');

    await oauthError(s.issue.refresh('client_1', next.refresh_token, undefined, undefined), 'invalid_grant');
    for (const access of [tokens.access_token, next.access_token]) expect((await domainErrorOf(s.authenticate.execute(access, [AUDIT]))).code).toBe('AUTH.INVALID_TOKEN');
  });

  it('lets only one of two concurrent refreshes with the same token succeed', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    const results = await Promise.allSettled([s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // Reuse detected by the race's loser revokes the family, the winner's new tokens included
    // (outside the loser's transaction, so a transactional UnitOfWork cannot roll it back).
    const won = results.find((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof s.issue.refresh>>> => r.status === 'fulfilled')!.value;
    expect((await domainErrorOf(s.authenticate.execute(won.access_token, [AUDIT]))).code).toBe('AUTH.INVALID_TOKEN');
    await oauthError(s.issue.refresh('client_1', won.refresh_token, undefined, undefined), 'invalid_grant');
  });

  it('leaves other families of the same user and client alive when one is revoked for reuse', async () => {
    const s = setup();
    const first = await authorized(s);
    const { code } = await approve(s);
    const second = await s.issue.exchangeCode('client_1', code, REDIRECT, AUDIT);
    await s.issue.refresh('client_1', first.tokens.refresh_token, undefined, undefined);
    await oauthError(s.issue.refresh('client_1', first.tokens.refresh_token, undefined, undefined), 'invalid_grant');
    await expect(s.issue.refresh('client_1', second.refresh_token, undefined, undefined)).resolves.toBeDefined();
  });

  it('refuses a refresh token presented by another client, without revoking it', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await withClient(s, 'client_2');
    await oauthError(s.issue.refresh('client_2', tokens.refresh_token, undefined, undefined), 'invalid_grant');
    await expect(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined)).resolves.toBeDefined();
  });

  it('refuses unknown and expired refresh tokens', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await oauthError(s.issue.refresh('client_1', 'not-a-refresh-token', undefined, undefined), 'invalid_grant');
    s.clock.advance(REFRESH_SECONDS * 1000);
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');
  });

  it('narrows scopes on request for the new access token only, and never widens them', async () => {
    const s = setup();
    const { tokens } = await authorized(s, request({ scopes: ['audit:read'] }));
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, ['audit:read', 'audit:write'], undefined), 'invalid_scope');
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, ['retrieval:read'], undefined), 'invalid_scope');

    const s2 = setup();
    const wide = (await authorized(s2)).tokens;
    const narrowed = await s2.issue.refresh('client_1', wide.refresh_token, ['audit:read'], undefined);
    expect(narrowed.scope).toBe('audit:read');
    expect(await s2.authenticate.execute(narrowed.access_token, [AUDIT])).toMatchObject({ scopes: ['audit:read'] });
    // The grant keeps what was consented: the next refresh without a scope parameter gets it all back.
    const again = await s2.issue.refresh('client_1', narrowed.refresh_token, undefined, undefined);
    expect(again.scope).toBe('audit:read audit:write');
  });

  it('refuses a resource other than the grant one', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, RETRIEVAL), 'invalid_target');
    await expect(s.issue.refresh('client_1', tokens.refresh_token, undefined, AUDIT)).resolves.toBeDefined();
  });

  it('gives the new access token the user current roles', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    const ada = (await s.users.get(ADA.organizationId, ADA.id)) as User;
    ada.roles = ['CONSUMER'];
    const next = await s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined);
    expect(await s.authenticate.execute(next.access_token, [AUDIT])).toMatchObject({ roles: ['CONSUMER'] });
  });

  it('refuses to refresh for a user who no longer exists', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    s.users.users.delete(ADA.id);
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');
  });
});

describe('RevokeOAuthToken', () => {
  it('ends the whole grant when its refresh token is revoked', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await s.revoke.execute('client_1', tokens.refresh_token);
    await domainErrorOf(s.authenticate.execute(tokens.access_token, [AUDIT]));
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');
  });

  it('ends the whole grant when its access token is revoked', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await s.revoke.execute('client_1', tokens.access_token);
    await domainErrorOf(s.authenticate.execute(tokens.access_token, [AUDIT]));
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');
  });

  it('ignores unknown tokens and tokens of another client', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await withClient(s, 'client_2');
    await expect(s.revoke.execute('client_1', 'not-a-token')).resolves.toBeUndefined();
    await expect(s.revoke.execute('client_2', tokens.refresh_token)).resolves.toBeUndefined();
    await expect(s.revoke.execute('client_2', tokens.access_token)).resolves.toBeUndefined();
    await expect(s.authenticate.execute(tokens.access_token, [AUDIT])).resolves.toBeDefined();
    await expect(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined)).resolves.toBeDefined();
  });
});

describe('AuthenticateOAuthToken', () => {
  it('accepts a token only for its own audience', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    await expect(s.authenticate.execute(tokens.access_token, [RETRIEVAL, AUDIT])).resolves.toBeDefined();
    expect((await domainErrorOf(s.authenticate.execute(tokens.access_token, [RETRIEVAL]))).kind).toBe('unauthenticated');
  });

  it('answers 503-unavailable, not 401, when the grant store is unreachable', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    s.store.failWith = new Error('connect ECONNREFUSED');
    expect(await domainErrorOf(s.authenticate.execute(tokens.access_token, [AUDIT]))).toMatchObject({ kind: 'unavailable', code: 'AUTH.TOKEN_STORE_UNAVAILABLE', retryAfterSeconds: 5 });
  });
});

describe('ManageOAuthConsents', () => {
  it('lists the clients a person allowed, with their names and scopes', async () => {
    const s = setup();
    await authorized(s, request({ scopes: ['audit:read'] }));
    s.clock.advance(1000);
    await authorized(s, request({ clientId: 'client_2', resource: RETRIEVAL }));
    expect(await s.consents.list(ADA.id)).toEqual([
      { id: expect.stringMatching(/^cns_/), client_id: 'client_2', client_name: 'App client_2', scopes: ['retrieval:read', 'retrieval:write'], created_at: s.clock.now().toISOString() },
      { id: expect.stringMatching(/^cns_/), client_id: 'client_1', client_name: 'App client_1', scopes: ['audit:read'], created_at: new Date(s.clock.now().getTime() - 1000).toISOString() },
    ]);
    expect(await s.consents.list('usr_other')).toEqual([]);
  });

  it('withdrawing a consent stops its tokens at once and asks for consent again next time', async () => {
    const s = setup();
    const { tokens } = await authorized(s);
    const user = (await s.users.get(ADA.organizationId, ADA.id)) as User;
    const client = (await s.clients.find('client_1')) as OAuthClient;

    await s.consents.withdraw(actorOf(user), 'client_1');

    await domainErrorOf(s.authenticate.execute(tokens.access_token, [AUDIT]));
    await oauthError(s.issue.refresh('client_1', tokens.refresh_token, undefined, undefined), 'invalid_grant');
    expect(await s.consents.list(ADA.id)).toEqual([]);
    expect(await s.authorize.execute(user, client, request())).toMatchObject({ kind: 'consent' });
    expect(s.activity.entries.at(-1)).toMatchObject({ action: 'identity.oauth.consent-withdrawn', subjectId: 'client_1', actor: actorOf(user) });
  });

  it('does not bring back withdrawn scopes when the person approves again', async () => {
    const s = setup();
    await authorized(s, request({ scopes: ['audit:write'] }));
    const user = (await s.users.get(ADA.organizationId, ADA.id)) as User;
    await s.consents.withdraw(actorOf(user), 'client_1');
    await approve(s, request({ scopes: ['audit:read'] }));
    expect(await s.consents.list(ADA.id)).toMatchObject([{ client_id: 'client_1', scopes: ['audit:read'] }]);
  });

  it('leaves the grants of other clients alone', async () => {
    const s = setup();
    await authorized(s);
    const other = await authorized(s, request({ clientId: 'client_2' }));
    const user = (await s.users.get(ADA.organizationId, ADA.id)) as User;
    await s.consents.withdraw(actorOf(user), 'client_1');
    await expect(s.authenticate.execute(other.tokens.access_token, [AUDIT])).resolves.toBeDefined();
  });

  it('answers not found for a consent that does not exist or was already withdrawn', async () => {
    const s = setup();
    await authorized(s);
    const user = (await s.users.get(ADA.organizationId, ADA.id)) as User;
    expect(await domainErrorOf(s.consents.withdraw(actorOf(user), 'client_unknown'))).toMatchObject({ kind: 'not_found', code: 'AUTH.CONSENT_NOT_FOUND' });
    await s.consents.withdraw(actorOf(user), 'client_1');
    expect(await domainErrorOf(s.consents.withdraw(actorOf(user), 'client_1'))).toMatchObject({ kind: 'not_found' });
  });
});
