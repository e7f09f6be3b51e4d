import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { relativeBase, webAppRouter } from './web-app';

describe('web app serving', () => {
  let dir: string;
  const INDEX = '<!doctype html><html><head><meta name="docaudit-auth-url" content="__DOCAUDIT_AUTH_URL__" /><script type="module" src="./assets/app-1.js"></script></head><body></body></html>';
  const app = (built = true) => {
    const server = express();
    server.use('/app', webAppRouter({ mountPath: '/app', dir: built ? dir : join(dir, 'missing'), authUrl: 'https://auth.example.com/' }));
    return server;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'web-app-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'app-1.js'), 'console.log(1);');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the app root relatively from any route below it', () => {
    expect(relativeBase('/')).toBe('./');
    expect(relativeBase('/instances/ki_1')).toBe('../');
    expect(relativeBase('/instances/ki_1/conflicts/qc_1')).toBe('../../../');
    expect(relativeBase('/instances/')).toBe('../');
  });

  it('serves index.html for every route, with the auth URL, a relative base and a strict policy, never cached', async () => {
    for (const [path, base] of [
      ['/app/', './'],
      ['/app/instances/ki_1/conflicts', '../../'],
    ]) {
      const res = await request(app()).get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain(`<base href="${base}" />`);
      expect(res.text).toContain('content="https://auth.example.com"');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
      expect(res.headers['content-security-policy']).toContain("connect-src 'self' https://auth.example.com;");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('redirects the bare mount path to its slash, relatively (a gateway may add a prefix), keeping the query', async () => {
    const res = await request(app()).get('/app?lang=fr').expect(301);
    expect(res.headers.location).toBe('app/?lang=fr');
  });

  it('serves the hashed assets for a year, and a missing one as 404, not as the page', async () => {
    const res = await request(app()).get('/app/assets/app-1.js').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await request(app()).get('/app/assets/app-2.js').expect(404);
  });

  it('says the app is not built rather than serving the sources', async () => {
    const res = await request(app(false)).get('/app/').expect(404);
    expect(res.text).toContain('npm run build');
  });
});
