import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium, RunningService, startService } from '@svc/test-kit';

/**
 * The system Chromium driven by playwright-core works here: it renders the running service's pages,
 * and keeps `Secure; HttpOnly; SameSite=Lax` cookies set over plain http on loopback hosts, which the
 * browser sign-in flows rely on in tests (no TLS locally).
 */
describe('Chromium smoke test (playwright-core + system chromium)', () => {
  let service: RunningService;
  let browser: Browser;
  let cookieServer: Server;
  let cookiePort: number;

  beforeAll(async () => {
    const started = Date.now();
    [service, browser] = await Promise.all([startService('embedded'), launchChromium()]);
    console.log(`service and Chromium ${browser.version()} up in ${Date.now() - started} ms`);

    // Sets one Secure and one plain cookie on /set; /echo shows the Cookie header it received.
    cookieServer = createServer((req, res) => {
      if (req.url === '/set') {
        res.setHeader('Set-Cookie', ['sid=s3cr3t; Path=/; Secure; HttpOnly; SameSite=Lax', 'plain=1; Path=/; HttpOnly; SameSite=Lax']);
        res.setHeader('Content-Type', 'text/html');
        res.end('<p id="state">set</p>');
      } else {
        res.setHeader('Content-Type', 'text/html');
        res.end(`<p id="cookie">${(req.headers.cookie ?? '').replace(/[<>&]/g, '')}</p>`);
      }
    });
    await new Promise<void>((resolve) => cookieServer.listen(0, '127.0.0.1', resolve));
    cookiePort = (cookieServer.address() as AddressInfo).port;
  }, 90000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (cookieServer ? cookieServer.close(() => resolve()) : resolve()));
    await service?.destroy();
  });

  it('renders the audit API docs page with its title and operations', async () => {
    const openapi = (await (await fetch(`${service.urls.audit}/openapi.json`)).json()) as { info: { title: string }; paths: Record<string, unknown> };
    const page = await browser.newPage();
    const response = await page.goto(`${service.urls.audit}/docs`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(openapi.info.title);
    expect(await page.locator('h1').textContent()).toBe(openapi.info.title);
    expect(await page.locator('a[href="/openapi.json"]').count()).toBe(1);
    const headings = await page.locator('section h2 code').allTextContents();
    expect(headings.length).toBe(Object.keys(openapi.paths).length);
    for (const path of Object.keys(openapi.paths)) expect(headings).toContain(`POST ${path}`);
    await page.close();
  });

  it('shows the liveness probe', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${service.urls.audit}/health/live`);
    expect(response?.status()).toBe(200);
    expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toEqual({ status: 'ok' });
    await page.close();
  });

  /** Visits /set then /echo on `host`, and /echo on `otherHost`; reports what Chromium kept and sent. */
  async function cookiesOn(host: string, otherHost: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://${host}:${cookiePort}/set`);
    const kept = await context.cookies();
    await page.goto(`http://${host}:${cookiePort}/echo`);
    const sentBack = await page.locator('#cookie').textContent();
    const secureContext = await page.evaluate<boolean>('isSecureContext');
    const scriptVisible = await page.evaluate<string>('document.cookie');
    await page.goto(`http://${otherHost}:${cookiePort}/echo`);
    const sentToOtherHost = await page.locator('#cookie').textContent();
    await context.close();
    return { kept, sentBack, secureContext, scriptVisible, sentToOtherHost };
  }

  it.each([
    ['localhost', '127.0.0.1'],
    ['127.0.0.1', 'localhost'],
  ])('keeps a Secure; HttpOnly; SameSite=Lax cookie set over http://%s (loopback is a secure context)', async (host, otherHost) => {
    const result = await cookiesOn(host, otherHost);
    console.log(`http://${host}: ${JSON.stringify(result)}`);
    expect(result.kept.find((c) => c.name === 'sid')).toMatchObject({ value: 's3cr3t', domain: host, secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(result.sentBack).toBe('sid=s3cr3t; plain=1');
    expect(result.secureContext).toBe(true);
    expect(result.scriptVisible).toBe(''); // HttpOnly
    // Host-only cookies: localhost and 127.0.0.1 are different sites for cookies, nothing crosses.
    expect(result.sentToOtherHost).toBe('');
  });

  it('drops the Secure cookie over http on a non-loopback host name (the plain one is kept)', async () => {
    const mapped = await launchChromium({ args: ['--host-resolver-rules=MAP app.test 127.0.0.1'] });
    try {
      const context = await mapped.newContext();
      const page = await context.newPage();
      await page.goto(`http://app.test:${cookiePort}/set`);
      const kept = await context.cookies();
      expect(kept.map((c) => c.name)).toEqual(['plain']);
      expect(await page.evaluate<boolean>('isSecureContext')).toBe(false);
    } finally {
      await mapped.close();
    }
  });
});
