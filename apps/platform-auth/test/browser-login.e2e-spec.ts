import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { generateApiKey } from '@svc/identity-core';
import { launchChromium, RunningService, startService } from '@svc/test-kit';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'admin@example.com';
const LIST_INSTANCES = '/audit/instance/list-instances-for-user';

/** One request as Chromium put it on the wire (DevTools protocol view) and what came back. */
interface WireExchange {
  method?: string;
  url?: string;
  /** Whether the request left the browser (a POST stopped by a failed CORS preflight does not). */
  onWire: boolean;
  /** Request headers as sent, names lower-cased. */
  headers: Record<string, string>;
  /** Cookies of the jar that Chromium did not attach, with its reasons. */
  withheld: Array<{ name: string; reasons: string[] }>;
  /** The service's status code, when a response arrived (even one CORS hides from the page). */
  status?: number;
  failure?: string;
  corsError?: string;
  done: boolean;
}

/**
 * A person signing in with headless Chromium: the login form without JavaScript, the session cookie
 * as the browser stores it, a cookie refresh and an audit API call made by first-party pages, a page
 * on another site that tries to use the cookie, then the "Sign out" button, after which copies of the
 * cookie taken before are worthless. The steps run in order and share one browser context (one cookie jar).
 */
describe('browser sign-in with the svc_auth cookie (headless Chromium)', () => {
  let service: RunningService;
  let browser: Browser;
  /** One cookie jar for every step; JavaScript is switched off per page for the form steps. */
  let context: BrowserContext;
  let crossSite: Server;
  let crossSiteOrigin: string;
  let auth: string;
  let audit: string;
  /** When the login form was submitted (ms). */
  let signedInAt: number;
  /** svc_auth as set by the login, then as renewed by the refresh; both valid until sign-out. */
  let loginCookie: string | undefined;
  let refreshedCookie: string | undefined;

  const svcAuth = async (): Promise<Cookie | undefined> => (await context.cookies()).find((c) => c.name === 'svc_auth');

  /**
   * A page of the shared context with JavaScript switched off, for what a person does without scripts
   * (sign-in, sign-out). Playwright's `javaScriptEnabled: false` would switch scripts off for the whole
   * context, and the refresh and cross-site steps need them with the same cookie jar, so the page
   * switches them off for itself with the DevTools protocol; the test checks that no script runs.
   */
  async function pageWithoutJavaScript(): Promise<Page> {
    const page = await context.newPage();
    await (await context.newCDPSession(page)).send('Emulation.setScriptExecutionDisabled', { value: true });
    await page.setContent('<script>document.title = "scripts run"</script>');
    expect(await page.title()).toBe('');
    return page;
  }

  /** A page of the shared context with scripts running (checked), as a frontend's page would be. */
  async function pageWithJavaScript(): Promise<Page> {
    const page = await context.newPage();
    await page.setContent('<script>document.title = "scripts run"</script>');
    expect(await page.title()).toBe('scripts run');
    return page;
  }

  /**
   * Records, through the DevTools protocol, every request the page sends to `url` (CORS preflights
   * included): the headers on the wire, the cookies Chromium withheld and why, and the status the
   * service answered even when CORS hides the response from the page. `exchanges()` waits until each
   * request has finished or failed.
   */
  async function recordWire(page: Page, url: string): Promise<() => Promise<WireExchange[]>> {
    const cdp = await context.newCDPSession(page);
    const byId = new Map<string, WireExchange>();
    const entry = (id: string): WireExchange => {
      if (!byId.has(id)) byId.set(id, { onWire: false, headers: {}, withheld: [], done: false });
      return byId.get(id) as WireExchange;
    };
    cdp.on('Network.requestWillBeSent', (e) => Object.assign(entry(e.requestId), { method: e.request.method, url: e.request.url }));
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
      const exchange = entry(e.requestId);
      exchange.onWire = true;
      exchange.headers = Object.fromEntries(Object.entries(e.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
      exchange.withheld = e.associatedCookies.filter((c) => c.blockedReasons.length > 0).map((c) => ({ name: c.cookie.name, reasons: c.blockedReasons }));
    });
    cdp.on('Network.responseReceivedExtraInfo', (e) => (entry(e.requestId).status = e.statusCode));
    cdp.on('Network.responseReceived', (e) => (entry(e.requestId).status ??= e.response.status));
    cdp.on('Network.loadingFinished', (e) => (entry(e.requestId).done = true));
    cdp.on('Network.loadingFailed', (e) => Object.assign(entry(e.requestId), { done: true, failure: e.errorText, corsError: e.corsErrorStatus?.corsError }));
    await cdp.send('Network.enable');
    return async () => {
      const ours = () => [...byId.values()].filter((e) => e.url?.startsWith(url));
      for (const deadline = Date.now() + 5000; Date.now() < deadline && ours().some((e) => !e.done || (e.status === undefined && !e.failure)); ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await cdp.detach();
      return ours();
    };
  }

  /** `fetch` run by the page itself, as a frontend would do it: the status and the JSON body. */
  async function fetchInPage(page: Page, url: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
    return page.evaluate(
      async ([target, options]) => {
        const response = await fetch(target, { ...options, credentials: 'include' });
        return { status: response.status, body: (await response.json()) as { response?: Record<string, unknown>; code?: string } };
      },
      [url, init] as const,
    );
  }

  /** A copied cookie replayed from Node (no browser): `Cookie` plus a first-party `Origin`. */
  const replay = (url: string, cookie: string, origin: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `svc_auth=${cookie}`, origin }, body: '{}' });

  beforeAll(async () => {
    const started = Date.now();
    // Settled one by one, so a service that started is stopped by afterAll even when Chromium is missing.
    const [serviceStart, launched] = await Promise.allSettled([startService('embedded', { BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, BOOTSTRAP_ADMIN_API_KEY: generateApiKey() }), launchChromium()]);
    if (serviceStart.status === 'fulfilled') service = serviceStart.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const outcome of [serviceStart, launched]) if (outcome.status === 'rejected') throw outcome.reason;
    ({ auth, audit } = service.urls);
    context = await browser.newContext();
    context.setDefaultTimeout(10000);

    // Another site: http://localhost:<port> is a different site from http://127.0.0.1:<service port>.
    // Its page tries the audit API with the visitor's cookies, once with JSON (CORS preflight first)
    // and once as a "simple" text/plain request (no preflight: it reaches the service).
    crossSite = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>Another site</title><pre id="result">pending</pre><script>
const target = ${JSON.stringify(`${audit}${LIST_INSTANCES}`)};
const attempt = (kind, headers) => fetch(target, { method: 'POST', credentials: 'include', headers, body: '{}' })
  .then(async (r) => ({ kind, status: r.status, body: await r.text() }), (e) => ({ kind, error: String(e) }));
Promise.all([attempt('json', { 'content-type': 'application/json' }), attempt('simple', { 'content-type': 'text/plain' })])
  .then((results) => { document.getElementById('result').textContent = JSON.stringify(results); });
</script>`);
    });
    await new Promise<void>((resolve) => crossSite.listen(0, '127.0.0.1', resolve));
    crossSiteOrigin = `http://localhost:${(crossSite.address() as AddressInfo).port}`;
    console.log(`service and Chromium ${browser.version()} up in ${Date.now() - started} ms`);
  }, 90000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (crossSite ? crossSite.close(() => resolve()) : resolve()));
    await service?.destroy();
  });

  it('signs in with the login form without JavaScript and lands on the account page showing the admin e-mail', async () => {
    const page = await pageWithoutJavaScript();
    const response = await page.goto(`${auth}/auth/login?next=${encodeURIComponent(`${auth}/auth/account`)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in to docaudit');
    // The inputs are tied to their visible labels, so assistive technology (and getByLabel) finds them.
    const email = page.getByLabel('E-mail');
    const password = page.getByLabel('Password');
    await expect(email.getAttribute('type')).resolves.toBe('email');
    await expect(email.getAttribute('autocomplete')).resolves.toBe('username');
    await expect(password.getAttribute('type')).resolves.toBe('password');
    await expect(password.getAttribute('autocomplete')).resolves.toBe('current-password');

    await email.fill(EMAIL);
    await password.fill(PASSWORD);
    signedInAt = Date.now();
    const [submitted] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${auth}/auth/login` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.waitForLoadState();
    if (submitted.status() !== 303) {
      const sent = await submitted.request().allHeaders();
      console.log(`login form POST answered ${submitted.status()}; Chromium sent Origin: ${sent.origin}, Sec-Fetch-Site: ${sent['sec-fetch-site']}; the page says: ${await page.locator('main').innerText()}`);
    }
    expect(submitted.status()).toBe(303);
    expect(page.url()).toBe(`${auth}/auth/account`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your account');
    await expect(page.locator('#account-email').textContent()).resolves.toBe(EMAIL);
    await page.close();
  });

  it('stores svc_auth HttpOnly, Secure, SameSite=Lax for path / with a 20-minute lifetime, hidden from scripts', async () => {
    const cookie = await svcAuth();
    expect(cookie).toMatchObject({ domain: '127.0.0.1', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(Math.abs((cookie as Cookie).expires - (signedInAt / 1000 + 1200))).toBeLessThanOrEqual(60);
    loginCookie = (cookie as Cookie).value;

    const page = await pageWithJavaScript();
    await page.goto(`${auth}/auth/account`);
    await expect(page.locator('#account-email').textContent()).resolves.toBe(EMAIL); // the browser sends it...
    expect(await page.evaluate<string>('document.cookie')).not.toContain('svc_auth'); // ...scripts cannot read it
    await page.close();
  });

  it('refreshes the cookie with fetch from a first-party page on the auth origin (200, a new svc_auth value)', async () => {
    expect(loginCookie).toBeDefined();
    const page = await pageWithJavaScript();
    // The account page's CSP (default-src 'none') rightly forbids fetch there; the frontend page on the
    // auth origin is played by a document without CSP on that origin (the liveness JSON).
    await page.goto(`${auth}/health/live`);
    const exchanges = await recordWire(page, `${auth}/auth/cookie-refresh`);
    const refreshed = await fetchInPage(page, '/auth/cookie-refresh', { method: 'POST' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.response).toEqual({ expires_in: expect.any(Number), session_expires_at: expect.any(String) });
    expect(refreshed.body.response?.expires_in).toBeGreaterThan(0);
    expect(Date.parse(refreshed.body.response?.session_expires_at as string)).toBeGreaterThan(Date.now());
    // Chromium added the Origin header by itself and sent the cookie.
    const sent = await exchanges();
    expect(sent).toEqual([expect.objectContaining({ method: 'POST', status: 200 })]);
    expect(sent[0].headers.origin).toBe(auth);
    expect(sent[0].headers.cookie).toContain(`svc_auth=${loginCookie}`);

    const cookie = await svcAuth();
    expect(cookie).toMatchObject({ path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(cookie?.value).not.toBe(loginCookie);
    refreshedCookie = cookie?.value;
    await page.close();
  });

  it('calls the audit REST API with the refreshed cookie from a first-party page on the audit origin (200)', async () => {
    expect(refreshedCookie).toBeDefined();
    const page = await pageWithJavaScript();
    await page.goto(`${audit}/docs`);
    const exchanges = await recordWire(page, `${audit}${LIST_INSTANCES}`);
    const listed = await fetchInPage(page, LIST_INSTANCES, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(listed.status).toBe(200);
    expect(listed.body.response?.items).toEqual(expect.any(Array));
    const sent = await exchanges();
    expect(sent).toEqual([expect.objectContaining({ method: 'POST', status: 200 })]);
    expect(sent[0].headers.origin).toBe(audit);
    expect(sent[0].headers.cookie).toContain(`svc_auth=${refreshedCookie}`);
    await page.close();
  });

  it('does not let a page on another site use the cookie: Chromium withholds it (SameSite=Lax) and the service never answers 200', async () => {
    expect(refreshedCookie).toBeDefined();
    const page = await pageWithJavaScript();
    const exchanges = await recordWire(page, `${audit}${LIST_INSTANCES}`);
    await page.goto(`${crossSiteOrigin}/`);
    await page.waitForFunction(`document.getElementById('result').textContent !== 'pending'`);
    const seenByPage = JSON.parse((await page.locator('#result').textContent()) as string) as Array<{ kind: string; status?: number; error?: string }>;
    const wire = await exchanges();
    console.log(`cross-site attempts as the page saw them: ${JSON.stringify(seenByPage)}\nin the browser's network log: ${JSON.stringify(wire.map(({ headers, ...rest }) => ({ ...rest, origin: headers.origin, cookie: headers.cookie })))}`);

    // The page learns nothing: each fetch either fails (CORS) or gets a refusal.
    expect(seenByPage).toHaveLength(2);
    for (const result of seenByPage) {
      if (result.error === undefined) expect([401, 403, 415]).toContain(result.status);
    }
    // On the wire: the JSON POST never left the browser (its preflight got no CORS permission); the
    // simple POST reached the service from the other origin without svc_auth, which Chromium withheld
    // because of SameSite=Lax, and was refused: 415 since a text/plain body is never read as an
    // operation's fields (so no "simple" cross-site request can reach one), 401/403 otherwise. Nothing the
    // service received was answered with 200.
    const posts = wire.filter((e) => e.method === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts.filter((e) => !e.onWire)) expect(post.corsError).toMatch(/^Preflight/);
    const sentPosts = posts.filter((e) => e.onWire);
    expect(sentPosts.length).toBeGreaterThanOrEqual(1);
    for (const post of sentPosts) {
      expect(post.headers.origin).toBe(crossSiteOrigin);
      expect(post.headers.cookie ?? '').not.toContain('svc_auth');
      expect(post.withheld).toContainEqual({ name: 'svc_auth', reasons: expect.arrayContaining([expect.stringMatching(/SameSiteLax$/)]) });
      expect([401, 403, 415]).toContain(post.status);
    }
    for (const exchange of wire.filter((e) => e.onWire)) {
      expect(exchange.headers.cookie ?? '').not.toContain('svc_auth');
      expect(exchange.status).not.toBe(200);
    }
    await page.close();
  });

  it('still accepts both copies of the cookie just before sign-out (control: 200 on audit REST from Node)', async () => {
    expect(refreshedCookie).toBeDefined();
    for (const cookie of [loginCookie, refreshedCookie] as string[]) {
      expect((await replay(`${audit}${LIST_INSTANCES}`, cookie, audit)).status).toBe(200);
    }
  });

  it('signs out with the "Sign out" button: back on the login page, svc_auth gone from the browser', async () => {
    expect(loginCookie).toBeDefined();
    const page = await pageWithoutJavaScript();
    await page.goto(`${auth}/auth/account`);
    await expect(page.locator('#account-email').textContent()).resolves.toBe(EMAIL);
    const [submitted] = await Promise.all([page.waitForResponse((r) => r.url() === `${auth}/auth/cookie-logout`), page.getByRole('button', { name: 'Sign out' }).click()]);
    await page.waitForLoadState();
    if (submitted.status() !== 303) {
      const sent = await submitted.request().allHeaders();
      console.log(`sign-out form POST answered ${submitted.status()}; Chromium sent Origin: ${sent.origin}, Sec-Fetch-Site: ${sent['sec-fetch-site']}; body: ${await page.locator('body').innerText()}`);
    }
    expect(submitted.status()).toBe(303);
    expect(page.url()).toBe(`${auth}/auth/login`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in to docaudit');
    expect(await svcAuth()).toBeUndefined();
    await page.close();
  });

  it('speaks French to a French browser, and to the web app in French: the form, a wrong password (401) and the page language', async () => {
    const french = await browser.newContext({ locale: 'fr-FR' });
    try {
      const page = await french.newPage();
      const response = await page.goto(`${auth}/auth/login?next=${encodeURIComponent(`${auth}/auth/account`)}`);
      expect(response?.headers()['content-language']).toBe('fr');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Connexion à docaudit');
      await page.getByLabel('Adresse e-mail').fill(EMAIL);
      await page.getByLabel('Mot de passe').fill('not the password');
      const [submitted] = await Promise.all([page.waitForResponse((r) => r.url() === `${auth}/auth/login` && r.request().method() === 'POST'), page.getByRole('button', { name: 'Se connecter' }).click()]);
      expect(submitted.status()).toBe(401);
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Adresse e-mail ou mot de passe incorrect.');
      // The web app asks for its own language, whatever the browser's.
      const english = await context.newPage();
      await english.goto(`${auth}/auth/login?lang=fr`);
      await expect(english.getByRole('button', { name: 'Se connecter' }).count()).resolves.toBe(1);
      await english.close();
    } finally {
      await french.close();
    }
  });

  it('refuses the copied cookie values after sign-out (401 on audit REST and on cookie-refresh)', async () => {
    expect(refreshedCookie).toBeDefined();
    for (const cookie of [loginCookie, refreshedCookie] as string[]) {
      expect((await replay(`${audit}${LIST_INSTANCES}`, cookie, audit)).status).toBe(401);
      const refreshed = await replay(`${auth}/auth/cookie-refresh`, cookie, auth);
      expect(refreshed.status).toBe(401);
      expect(((await refreshed.json()) as { code?: string }).code).toBe('AUTH.INVALID_SESSION');
    }
  });
});
