import { createHash, randomBytes } from 'node:crypto';
import { auth, OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { generateApiKey } from '@svc/identity-core';
import { newId } from '@svc/kernel';
import { BOTH_MODES, Json, post, RunningService, startService } from '@svc/test-kit';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { Client as PgClient } from 'pg';

/**
 * SECURITY.md, "OAuth 2.1 for MCP clients": the official MCP SDK client completes discovery (RFC 9728
 * then RFC 8414), dynamic registration, PKCE authorization, token exchange and a tool call against the
 * audit `/mcp` endpoint. The consent is pre-approved by a stored consent record so the real authorize
 * path runs: inserted into `identity.oauth_consents` on PostgreSQL (distributed); the embedded
 * database (PGlite) accepts one connection, held by the running service, so there the record is
 * stored by approving the consent form once and the authorize request is then sent again. Both modes (BOTH_MODES):
 * the tokens platform-auth issues are verified by another app in the distributed mode.
 */

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'correct-horse-battery-staple';
const REDIRECT_URI = 'http://127.0.0.1:53682/callback';
const CLIENT_NAME = 'e2e MCP client';
/** The only audit operation exposed as an MCP tool so far (a read); the write tools of the catalogue are not implemented yet. */
const READ_TOOL = 'audit_documents_get_by_ids';
/** A write tool of the catalogue (libs/shared/contracts), for the insufficient_scope test once it exists. */
const WRITE_TOOL = 'audit_question_conflict_set_answer';

interface LoggedRequest {
  method: string;
  url: string;
  status: number;
  cacheControl: string | null;
  etag: string | null;
}

/** The MCP SDK's client-side OAuth storage, in memory; the "user agent" step is `authorizeInBrowser`. */
class InMemoryOAuthProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  readonly authorizationUrls: URL[] = [];
  readonly codes: string[] = [];
  private lastState?: string;

  constructor(private readonly authorizeInBrowser: (url: URL) => Promise<string>) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'audit:read audit:write',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('No PKCE verifier saved');
    return this.verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    const code = await this.authorizeInBrowser(url);
    this.codes.push(code);
  }

  get expectedState(): string | undefined {
    return this.lastState;
  }
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function cookieValue(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    if (pair.slice(0, index) === name) return pair.slice(index + 1);
  }
  return undefined;
}

function hiddenField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`No hidden field ${name} in:\n${html.slice(0, 800)}`);
  return match[1].replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

describe.each(BOTH_MODES)('audit MCP endpoint with OAuth 2.1 and the official SDK client (%s)', (mode) => {
  let service: RunningService;
  let urls: RunningService['urls'];
  let mcpUrl: string;
  let sessionCookie: string;
  let csrfCookie: string;
  let adminUserId: string;
  let instanceId: string;
  let documentId: string;
  let pg: PgClient | undefined;
  const adminKey = generateApiKey();
  const requests: LoggedRequest[] = [];
  let provider: InMemoryOAuthProvider;
  /** The tokens the SDK got from the code exchange (before the forced refresh). */
  let firstTokens: OAuthTokens;

  const cookies = () => `svc_auth=${sessionCookie}; svc_csrf=${csrfCookie}`;

  /** Every request the SDK makes (MCP, discovery, registration, token) goes through this fetch. */
  const loggingFetch: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    requests.push({ method: init?.method ?? 'GET', url: String(url), status: res.status, cacheControl: res.headers.get('cache-control'), etag: res.headers.get('etag') });
    return res;
  };

  const clientId = (): string => {
    const id = provider?.information?.client_id;
    if (!id) throw new Error('The SDK client has not registered (see the first test)');
    return id;
  };

  /** One JSON-RPC request on an MCP endpoint with a bearer token, as raw HTTP (status and headers visible). */
  const mcpCall = async (token: string, message: Json, url = mcpUrl) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    });
    const text = await res.text();
    let body: Json = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate'), body };
  };

  const tokenRequest = async (params: Record<string, string>) => {
    const res = await fetch(`${urls.auth}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, cacheControl: res.headers.get('cache-control'), body: (await res.json()) as Json };
  };

  /** GET /authorize as the signed-in browser would, without following the redirect. */
  const getAuthorize = (url: URL | string) => fetch(url, { redirect: 'manual', headers: { cookie: cookies() } });

  /**
   * Makes sure a consent record covers this authorization request before the real authorize path
   * runs: a row in identity.oauth_consents (PostgreSQL), or the consent form approved once (embedded).
   */
  const storeConsent = async (authorizeUrl: URL): Promise<void> => {
    const client = authorizeUrl.searchParams.get('client_id') as string;
    const scopes = (authorizeUrl.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
    if (pg) {
      await pg.query(
        `INSERT INTO identity.oauth_consents (id, user_id, client_id, scopes, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, now(), NULL)
         ON CONFLICT (user_id, client_id) DO UPDATE
           SET scopes = ARRAY(SELECT DISTINCT s FROM unnest(identity.oauth_consents.scopes || EXCLUDED.scopes) AS s),
               revoked_at = NULL`,
        [newId('cns_'), adminUserId, client, scopes],
      );
      return;
    }
    const page = await getAuthorize(authorizeUrl);
    if (page.status === 302) return; // an earlier approval already covers it
    const html = await page.text();
    expect([page.status, html]).toEqual([200, expect.stringContaining('action="/oauth/consent"')]);
    const approved = await fetch(`${urls.auth}/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: urls.auth, cookie: cookies() },
      body: new URLSearchParams({ csrf: hiddenField(html, 'csrf'), request: hiddenField(html, 'request'), decision: 'approve' }).toString(),
    });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
  };

  /** The authorize path with a stored consent: 302 straight back to the redirect URI with a code. */
  const authorizeWithStoredConsent = async (authorizeUrl: URL): Promise<string> => {
    await storeConsent(authorizeUrl);
    const res = await getAuthorize(authorizeUrl);
    const location = res.headers.get('location') ?? '';
    if (res.status !== 302 || !location.startsWith(`${REDIRECT_URI}?`)) {
      throw new Error(`GET /authorize answered ${res.status} ${location}: ${(await res.text()).slice(0, 800)}`);
    }
    const back = new URL(location);
    expect(back.searchParams.get('error')).toBeNull();
    expect(back.searchParams.get('state')).toBe(authorizeUrl.searchParams.get('state'));
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`No code in ${location}`);
    return code;
  };

  /** A raw authorization-code flow for the SDK-registered client (other scopes or another resource). */
  const codeFlowTokens = async (scope: string, resource: string): Promise<Json> => {
    const { verifier, challenge } = pkce();
    const url = new URL(`${urls.auth}/authorize`);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId(), redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', scope, resource, state: randomBytes(8).toString('hex') })) {
      url.searchParams.set(k, v);
    }
    const code = await authorizeWithStoredConsent(url);
    const res = await tokenRequest({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: clientId(), resource });
    expect(res.status).toBe(200);
    return res.body;
  };

  const connectSdk = async (): Promise<Client> => {
    const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: loggingFetch }));
    return client;
  };

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD });
    urls = service.urls;
    mcpUrl = `${urls.audit}/mcp`;

    // Sign in on the login page (CSRF double submit, Origin) to get the svc_auth cookie. The apps
    // report ready before the bootstrap has stored the admin password (it runs after listen), so the
    // first attempts may be refused: retry with a backoff that stays under the login rate limit.
    const form = await fetch(`${urls.auth}/auth/login`);
    const html = await form.text();
    csrfCookie = cookieValue(form, 'svc_csrf') as string;
    let login: Response | undefined;
    for (const delay of [0, 250, 500, 1000, 2000, 4000, 8000]) {
      await new Promise((r) => setTimeout(r, delay));
      login = await fetch(`${urls.auth}/auth/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: urls.auth, cookie: `svc_csrf=${csrfCookie}` },
        body: new URLSearchParams({ csrf: hiddenField(html, 'csrf'), email: ADMIN_EMAIL, password: ADMIN_PASSWORD, next: '/auth/account' }).toString(),
      });
      if (login.status !== 401) break;
      await login.text();
    }
    sessionCookie = login ? (cookieValue(login, 'svc_auth') as string) : '';
    if (login?.status !== 303 || !sessionCookie) throw new Error(`Login failed with ${login?.status}: ${await login?.text()}`);
    adminUserId = decodeJwt(sessionCookie).sub as string;

    if (mode === 'distributed') {
      pg = new PgClient({ connectionString: service.env.DATABASE_URL });
      await pg.connect();
      const users = await pg.query<{ id: string }>('SELECT id FROM identity.users WHERE email = $1', [ADMIN_EMAIL]);
      expect(users.rows.map((r) => r.id)).toEqual([adminUserId]);
    }

    // One instance with one document, for a real tool call.
    const created = await post(`${urls.audit}/audit/instance/create`, { name: 'OAuth e2e' }, adminKey);
    instanceId = created.body.response.instance_id;
    const instanceKey = (await post(`${urls.audit}/audit/instance/get-svc-instances`, { instance_id: instanceId }, adminKey)).body.response[0].api_key;
    const upserted = await post(
      `${urls.retrieval}/api/documents/upsert`,
      { external_id: 'policy.md', name: 'policy.md', url: 'https://intranet.example/policy.md', content_text: '# Policy\n\nRefunds take 30 days.' },
      undefined,
      { 'instance-id': instanceId, 'api-key': instanceKey },
    );
    documentId = upserted.body.response.id;
    expect(documentId).toMatch(/^kd_/);

    provider = new InMemoryOAuthProvider(async (url) => {
      // The user agent: the signed-in browser opens the authorization URL.
      expect(url.origin).toBe(urls.auth);
      expect(url.searchParams.get('state')).toBe(provider.expectedState);
      return authorizeWithStoredConsent(url);
    });
  }, 120000);

  afterAll(async () => {
    await pg?.end();
    await service?.destroy();
  });

  it('completes discovery, dynamic registration, PKCE authorization (stored consent), token exchange and a tool call', async () => {
    // 1. No token yet: the server answers 401, the SDK discovers, registers and sends the user to /authorize.
    await expect(connectSdk()).rejects.toBeInstanceOf(UnauthorizedError);
    const seen = requests.map((r) => `${r.method} ${r.url} ${r.status}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        `POST ${mcpUrl} 401`,
        `GET ${urls.audit}/.well-known/oauth-protected-resource/mcp 200`,
        `GET ${urls.auth}/.well-known/oauth-authorization-server 200`,
        `POST ${urls.auth}/register 201`,
      ]),
    );
    const order = (prefix: string) => seen.findIndex((line) => line.startsWith(prefix));
    expect(order(`GET ${urls.audit}/.well-known/oauth-protected-resource/mcp`)).toBeLessThan(order(`GET ${urls.auth}/.well-known/oauth-authorization-server`));
    expect(order(`GET ${urls.auth}/.well-known/oauth-authorization-server`)).toBeLessThan(order(`POST ${urls.auth}/register`));

    // Dynamic registration: a public client with our redirect URI.
    expect(provider.information).toMatchObject({ client_id: expect.any(String), redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', client_name: CLIENT_NAME });
    expect((provider.information as Json).client_secret).toBeUndefined();
    if (pg) {
      const rows = await pg.query('SELECT client_id, secret_hash, metadata FROM identity.oauth_clients WHERE client_id = $1', [clientId()]);
      expect(rows.rows).toEqual([{ client_id: clientId(), secret_hash: null, metadata: expect.objectContaining({ client_name: CLIENT_NAME, redirect_uris: [REDIRECT_URI] }) }]);
    }

    // The authorization request: PKCE S256, the RFC 8707 resource, the scopes of the PRM.
    expect(provider.authorizationUrls).toHaveLength(1);
    const asked = provider.authorizationUrls[0];
    expect(`${asked.origin}${asked.pathname}`).toBe(`${urls.auth}/authorize`);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: clientId(),
      redirect_uri: REDIRECT_URI,
      code_challenge: createHash('sha256').update(provider.codeVerifier()).digest('base64url'),
      code_challenge_method: 'S256',
      resource: mcpUrl,
      scope: 'audit:read audit:write',
    });
    expect(provider.codes).toHaveLength(1);

    // The stored consent is listed on the account API (both modes).
    const consents = await post(`${urls.auth}/auth/consents/list`, {}, undefined, { cookie: cookies(), origin: urls.auth });
    expect(consents.status).toBe(200);
    expect(consents.body.response).toEqual([expect.objectContaining({ client_id: clientId(), client_name: CLIENT_NAME, scopes: expect.arrayContaining(['audit:read', 'audit:write']) })]);

    // 2. Back from the browser: the SDK exchanges the code (with the verifier) for tokens.
    const callbackTransport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: loggingFetch });
    await callbackTransport.finishAuth(provider.codes[0]);
    const tokenCall = requests.filter((r) => r.method === 'POST' && r.url === `${urls.auth}/token`);
    // A token response is never cached nor validated against a cache (no ETag).
    expect(tokenCall).toEqual([expect.objectContaining({ status: 200, cacheControl: 'no-store', etag: null })]);
    expect(provider.saved).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: expect.stringMatching(/^bearer$/i), expires_in: 3600, scope: 'audit:read audit:write' });
    firstTokens = { ...(provider.saved as OAuthTokens) };

    // 3. A new transport with the stored token: list the tools and call one.
    const client = await connectSdk();
    try {
      expect(client.getServerVersion()?.name).toBe('docaudit-audit');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain(READ_TOOL);
      const result = await client.callTool({ name: READ_TOOL, arguments: { instance_id: instanceId, document_ids: [documentId] } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as Json).response).toEqual([expect.objectContaining({ document_id: documentId, instance_id: instanceId, document_name: 'policy.md' })]);
    } finally {
      await client.close();
    }
  });

  it('issues an ES256 at+jwt for the audit MCP resource, verifiable with the published JWKS', async () => {
    const token = firstTokens.access_token;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: expect.any(String) });
    const metadata = (await (await fetch(`${urls.auth}/.well-known/oauth-authorization-server`)).json()) as Json;
    expect(metadata).toMatchObject({ issuer: urls.auth, jwks_uri: `${urls.auth}/.well-known/jwks.json`, code_challenge_methods_supported: ['S256'] });
    const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri));
    const { payload } = await jwtVerify(token, jwks, { algorithms: ['ES256'], typ: 'at+jwt', issuer: urls.auth, audience: mcpUrl });
    expect(payload).toMatchObject({ iss: urls.auth, aud: mcpUrl, sub: adminUserId, client_id: clientId(), scope: 'audit:read audit:write' });
    expect(payload.jti).toEqual(expect.any(String));
    expect(typeof payload.exp).toBe('number');
    expect((payload.exp as number) - (payload.iat as number)).toBe(firstTokens.expires_in);
    // A tampered signature does not verify.
    const [h, p, s] = token.split('.');
    const flipped = `${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
    await expect(jwtVerify(flipped, jwks, { algorithms: ['ES256'] })).rejects.toThrow();
    expect((await mcpCall(flipped, { method: 'tools/list' })).status).toBe(401);
  });

  it('rotates refresh tokens; reusing the old one is invalid_grant and revokes the whole family', async () => {
    // The SDK refreshes when it holds a refresh token and has no code.
    const before = firstTokens;
    const tokenCallsBefore = requests.filter((r) => r.url === `${urls.auth}/token`).length;
    await expect(auth(provider, { serverUrl: new URL(mcpUrl), fetchFn: loggingFetch })).resolves.toBe('AUTHORIZED');
    expect(provider.authorizationUrls).toHaveLength(1); // no new browser round trip
    expect(requests.filter((r) => r.url === `${urls.auth}/token`)).toHaveLength(tokenCallsBefore + 1);
    const after = provider.saved as OAuthTokens;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toEqual(expect.any(String));
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(decodeJwt(after.access_token)).toMatchObject({ aud: mcpUrl, client_id: clientId(), scope: 'audit:read audit:write' });

    // The new tokens work with the SDK client.
    const client = await connectSdk();
    try {
      const result = await client.callTool({ name: READ_TOOL, arguments: { instance_id: instanceId, document_ids: [documentId] } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }

    // Reuse of the rotated refresh token: invalid_grant, and the family is revoked.
    const reuse = await tokenRequest({ grant_type: 'refresh_token', refresh_token: before.refresh_token as string, client_id: clientId(), resource: mcpUrl });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect(reuse.cacheControl).toBe('no-store');
    for (const token of [after.access_token, before.access_token]) {
      const refused = await mcpCall(token, { method: 'tools/list' });
      expect(refused.status).toBe(401);
      expect(refused.wwwAuthenticate).toBe(`Bearer error="invalid_token", resource_metadata="${urls.audit}/.well-known/oauth-protected-resource/mcp"`);
    }
    const successor = await tokenRequest({ grant_type: 'refresh_token', refresh_token: after.refresh_token as string, client_id: clientId(), resource: mcpUrl });
    expect([successor.status, successor.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('refuses (401) on the audit /mcp a token issued for the retrieval MCP resource', async () => {
    const tokens = await codeFlowTokens('retrieval:read', `${urls.retrieval}/mcp`);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: `${urls.retrieval}/mcp`, scope: 'retrieval:read', client_id: clientId() });
    // Positive control: the retrieval endpoint it was issued for accepts it.
    expect((await mcpCall(tokens.access_token, { method: 'tools/list' }, `${urls.retrieval}/mcp`)).status).toBe(200);
    const refused = await mcpCall(tokens.access_token, { method: 'tools/list' });
    expect(refused.status).toBe(401);
    expect(refused.wwwAuthenticate).toBe(`Bearer error="invalid_token", resource_metadata="${urls.audit}/.well-known/oauth-protected-resource/mcp"`);
    expect((await mcpCall(tokens.access_token, { method: 'tools/call', params: { name: READ_TOOL, arguments: { instance_id: instanceId, document_ids: [documentId] } } })).status).toBe(401);
  });

  it('answers 403 insufficient_scope when the token lacks the scope (audit:write only cannot even list tools)', async () => {
    const tokens = await codeFlowTokens('audit:write', mcpUrl);
    expect(decodeJwt(tokens.access_token).scope).toBe('audit:write');
    const refused = await mcpCall(tokens.access_token, { method: 'tools/list' });
    expect(refused.status).toBe(403);
    expect(refused.wwwAuthenticate).toBe(`Bearer error="insufficient_scope", scope="audit:read", resource_metadata="${urls.audit}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('lets an audit:read token list tools and call a read tool', async () => {
    const tokens = await codeFlowTokens('audit:read', mcpUrl);
    expect(decodeJwt(tokens.access_token).scope).toBe('audit:read');
    expect((await mcpCall(tokens.access_token, { method: 'tools/list' })).status).toBe(200);
    const called = await mcpCall(tokens.access_token, { method: 'tools/call', params: { name: READ_TOOL, arguments: { instance_id: instanceId, document_ids: [documentId] } } });
    expect(called.status).toBe(200);
    expect(called.body.result.isError).toBeFalsy();
  });

  it(`answers 403 insufficient_scope to an audit:read token calling a write tool (${WRITE_TOOL})`, async () => {
    const tokens = await codeFlowTokens('audit:read', mcpUrl);
    const refused = await mcpCall(tokens.access_token, { method: 'tools/call', params: { name: WRITE_TOOL, arguments: { instance_id: instanceId } } });
    expect(refused.status).toBe(403);
    expect(refused.wwwAuthenticate).toBe(`Bearer error="insufficient_scope", scope="audit:write", resource_metadata="${urls.audit}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('ends every token of the client at once when the user withdraws the consent', async () => {
    const tokens = await codeFlowTokens('audit:read audit:write', mcpUrl);
    expect((await mcpCall(tokens.access_token, { method: 'tools/list' })).status).toBe(200);
    const withdrawn = await post(`${urls.auth}/auth/consents/withdraw`, { client_id: clientId() }, undefined, { cookie: cookies(), origin: urls.auth });
    expect(withdrawn.status).toBe(200);
    const refused = await mcpCall(tokens.access_token, { method: 'tools/list' });
    expect(refused.status).toBe(401);
    expect(refused.wwwAuthenticate).toMatch(/^Bearer error="invalid_token", resource_metadata=/);
    // The refresh token of that grant is dead too, and the consent no longer pre-approves anything.
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId(), resource: mcpUrl })).body.error).toBe('invalid_grant');
    expect((await post(`${urls.auth}/auth/consents/list`, {}, undefined, { cookie: cookies(), origin: urls.auth })).body.response).toEqual([]);
    const again = new URL(`${urls.auth}/authorize`);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId(), redirect_uri: REDIRECT_URI, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'audit:read', resource: mcpUrl })) {
      again.searchParams.set(k, v);
    }
    const page = await getAuthorize(again);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/oauth/consent"');
  });
});
