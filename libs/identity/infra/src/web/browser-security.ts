import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cookieFrom, SESSION_COOKIE } from '@svc/http';
import type { Request, Response } from 'express';

const CSRF_COOKIE = 'svc_csrf';

function mac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * CSRF protection of the login, consent and account forms (signed double submit): a random
 * `svc_csrf` cookie (HttpOnly, SameSite=Strict) and, in the form, its HMAC under a server key. A
 * cross-site page can neither read the cookie nor forge the MAC.
 */
export class CsrfTokens {
  constructor(
    private readonly key: Buffer,
    private readonly secureCookies: boolean,
  ) {}

  /** The form token for this browser, setting the cookie when it has none. */
  issue(req: Request, res: Response): string {
    let value = cookieFrom(req.headers.cookie, CSRF_COOKIE);
    if (!value || !/^[A-Za-z0-9_-]{32,64}$/.test(value)) {
      value = randomBytes(32).toString('base64url');
      res.append('Set-Cookie', `${CSRF_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict${this.secureCookies ? '; Secure' : ''}`);
    }
    return mac(this.key, value);
  }

  valid(req: Request, formToken: unknown): boolean {
    const value = cookieFrom(req.headers.cookie, CSRF_COOKIE);
    return typeof formToken === 'string' && value !== undefined && sameText(mac(this.key, value), formToken);
  }
}

/** Short-lived tamper-proof values carried through a browser (the pending authorization request of the consent form). */
export class SignedPayloads {
  constructor(private readonly key: Buffer) {}

  seal(payload: object, lifetimeSeconds: number, nowMs = Date.now()): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(nowMs / 1000) + lifetimeSeconds })).toString('base64url');
    return `${body}.${mac(this.key, body)}`;
  }

  open<T>(sealed: unknown, nowMs = Date.now()): T | null {
    if (typeof sealed !== 'string') return null;
    const [body, signature] = sealed.split('.');
    if (!body || !signature || !sameText(mac(this.key, body), signature)) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { exp: number };
    return payload.exp > Math.floor(nowMs / 1000) ? payload : null;
  }
}

/** The `svc_auth` cookie exactly as SECURITY.md describes it. */
export class SessionCookies {
  constructor(private readonly domain: string | undefined) {}

  private attributes(): string {
    return `Path=/; HttpOnly; Secure; SameSite=Lax${this.domain ? `; Domain=${this.domain}` : ''}`;
  }

  set(res: Response, token: string, maxAgeSeconds: number): void {
    res.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${this.attributes()}`);
  }

  clear(res: Response): void {
    res.append('Set-Cookie', `${SESSION_COOKIE}=; Max-Age=0; ${this.attributes()}`);
  }

  read(req: Request): string | undefined {
    return cookieFrom(req.headers.cookie, SESSION_COOKIE);
  }
}

/**
 * Where the login page may send the browser: a path on this server, or a URL on an allow-listed
 * first-party origin. Anything else (other hosts, `//evil`, `javascript:`) falls back to the account page.
 */
export function safeNext(next: unknown, allowedOrigins: readonly string[], fallback = '/auth/account'): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 4096) return fallback;
  if (next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next;
  try {
    const url = new URL(next);
    return allowedOrigins.includes(url.origin) ? url.href : fallback;
  } catch {
    return fallback;
  }
}
