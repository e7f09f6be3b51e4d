import { createHash, randomBytes } from 'node:crypto';
import type { Json, RunningService } from '@svc/test-kit';

/** Browser-like helpers for the login page, the session cookie and the OAuth authorization flow. */

/** The value a response sets for cookie `name` (works for fetch Responses and test-kit ApiResponses). */
export function cookieValue(res: { headers: Headers }, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    if (pair.slice(0, index) === name) return pair.slice(index + 1);
  }
  return undefined;
}

export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`No hidden field ${name} in:\n${html.slice(0, 500)}`);
  return match[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** GET the login form: its CSRF form token and the `svc_csrf` cookie it goes with. */
export async function loginForm(auth: string): Promise<{ csrf: string; csrfCookie: string; html: string; res: Response }> {
  const res = await fetch(`${auth}/auth/login`);
  const html = await res.text();
  return { csrf: hiddenField(html, 'csrf'), csrfCookie: cookieValue(res, 'svc_csrf') as string, html, res };
}

export async function submitLogin(auth: string, email: string, password: string, options: { next?: string; origin?: string; csrf?: string; csrfCookie?: string } = {}): Promise<Response> {
  const form = options.csrf && options.csrfCookie ? { csrf: options.csrf, csrfCookie: options.csrfCookie } : await loginForm(auth);
  return fetch(`${auth}/auth/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: options.origin ?? auth, cookie: `svc_csrf=${form.csrfCookie}` },
    body: new URLSearchParams({ csrf: form.csrf, email, password, next: options.next ?? '' }).toString(),
  });
}

/** Signs in and returns the `svc_auth` cookie value. */
export async function login(auth: string, email: string, password: string): Promise<string> {
  const res = await submitLogin(auth, email, password);
  const cookie = cookieValue(res, 'svc_auth');
  if (res.status !== 303 || !cookie) throw new Error(`Login failed with ${res.status}: ${await res.text()}`);
  return cookie;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(auth: string, metadata: Json = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${auth}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Probe client', redirect_uris: ['http://127.0.0.1:65000/callback'], token_endpoint_auth_method: 'none', ...metadata }),
  });
  return { status: res.status, body: await res.json() };
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri?: string;
  challenge?: string | null;
  method?: string | null;
  scope?: string;
  resource?: string | null;
  state?: string;
}

export function authorizeUrl(auth: string, p: AuthorizeParams): string {
  const url = new URL(`${auth}/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri ?? 'http://127.0.0.1:65000/callback');
  if (p.challenge !== null) url.searchParams.set('code_challenge', p.challenge ?? pkce().challenge);
  if (p.method !== null) url.searchParams.set('code_challenge_method', p.method ?? 'S256');
  if (p.scope) url.searchParams.set('scope', p.scope);
  if (p.resource !== null && p.resource !== undefined) url.searchParams.set('resource', p.resource);
  url.searchParams.set('state', p.state ?? 'st4te');
  return url.href;
}

/** Runs the authorize endpoint as a signed-in browser, approving the consent page if one shows. */
export async function authorize(auth: string, sessionCookie: string, p: AuthorizeParams): Promise<Response> {
  const res = await fetch(authorizeUrl(auth, p), { redirect: 'manual', headers: { cookie: `svc_auth=${sessionCookie}` } });
  if (res.status !== 200) return res;
  const html = await res.text();
  const csrfCookie = cookieValue(res, 'svc_csrf');
  return fetch(`${auth}/oauth/consent`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: auth, cookie: `svc_auth=${sessionCookie}; svc_csrf=${csrfCookie}` },
    body: new URLSearchParams({ csrf: hiddenField(html, 'csrf'), request: hiddenField(html, 'request'), decision: 'approve' }).toString(),
  });
}

export function codeFrom(res: Response): string {
  const location = res.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`No code in the redirect (${res.status} ${location})`);
  return code;
}

export async function tokenRequest(auth: string, params: Record<string, string>): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${auth}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Registration, authorization (consent approved), code exchange: the tokens and what produced them. */
export async function oauthTokens(service: RunningService, sessionCookie: string, options: { scope?: string; resource?: string } = {}) {
  const auth = service.urls.auth;
  const client = (await registerClient(auth)).body;
  const { verifier, challenge } = pkce();
  const resource = options.resource ?? `${service.urls.audit}/mcp`;
  const code = codeFrom(await authorize(auth, sessionCookie, { clientId: client.client_id, challenge, scope: options.scope, resource }));
  const tokens = await tokenRequest(auth, { grant_type: 'authorization_code', client_id: client.client_id, code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:65000/callback', resource });
  if (tokens.status !== 200) throw new Error(`Token exchange failed: ${JSON.stringify(tokens.body)}`);
  return { client, tokens: tokens.body, code, verifier };
}
