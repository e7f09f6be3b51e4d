import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import express, { Request, Response, Router } from 'express';

export interface WebAppOptions {
  /** Where the app answers on this app's port (`/app`). */
  mountPath: string;
  /** The built app (dist/apps/web): index.html and assets/. */
  dir: string;
  /** The auth service's public URL (PUBLIC_AUTH_URL): the app signs in, renews and signs out there. */
  authUrl: string;
}

/** The placeholder of index.html's meta tag that receives the auth URL (apps/web/index.html). */
const AUTH_URL_PLACEHOLDER = '__DOCAUDIT_AUTH_URL__';

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The relative `<base href>` that names the app's root from a route `rest` below it (`/` -> `./`,
 * `/instances/ki_1/conflicts` -> `../../`). Relative, so the page's assets and API calls resolve under
 * whatever path a gateway mounts the app at; the router reads its basepath from the same base.
 */
export function relativeBase(rest: string): string {
  const depth = Math.max(0, (rest.match(/\//g)?.length ?? 1) - 1);
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** Whether `dir` holds a built app (the source folder apps/web has an index.html but no assets/). */
export function isBuiltWebApp(dir: string): boolean {
  return existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'assets')) && statSync(join(dir, 'assets')).isDirectory();
}

/**
 * Serves the expert web app: its hashed assets with a year of caching, and index.html for every other
 * GET below the mount path (the app routes in the browser), with the auth URL and a relative base filled in,
 * never cached, and a CSP that lets its scripts reach only this origin and the auth service.
 * No credential is needed for the files (they hold no data); the API calls carry the session cookie.
 */
export function webAppRouter(options: WebAppOptions): Router {
  const router = Router();
  if (!isBuiltWebApp(options.dir)) {
    router.get(/.*/, (_req: Request, res: Response) => {
      res.status(404).type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build`.\n');
    });
    return router;
  }
  const authOrigin = new URL(options.authUrl).origin;
  const index = readFileSync(join(options.dir, 'index.html'), 'utf8').replace(AUTH_URL_PLACEHOLDER, escapeAttribute(options.authUrl.replace(/\/$/, '')));
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine writes its CSS variables in a <style> element and sizes some elements with style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${authOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

  router.use('/assets', express.static(join(options.dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true, etag: false }));
  router.use('/assets', (_req: Request, res: Response) => void res.status(404).type('text/plain; charset=utf-8').send('Not found\n'));
  router.get(/.*/, (req: Request, res: Response) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    // `/app` without its slash: relative URLs would resolve one level too high.
    if (!path.endsWith('/') && req.path === '/') {
      const query = req.originalUrl.slice(path.length);
      return void res.redirect(301, `${path.slice(path.lastIndexOf('/') + 1)}/${query}`);
    }
    const page = index.replace('<head>', `<head>\n    <base href="${relativeBase(req.path)}" />`);
    res
      .status(200)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Cache-Control', 'no-cache')
      .setHeader('Content-Security-Policy', csp)
      .setHeader('X-Frame-Options', 'DENY')
      .setHeader('X-Content-Type-Options', 'nosniff')
      .setHeader('Referrer-Policy', 'same-origin')
      .send(page);
  });
  return router;
}
