import type { OAuthScope } from '@svc/kernel';

/** A protected resource (RFC 9728) that OAuth clients may ask tokens for, and the API it serves. */
export interface ProtectedResource {
  /** Canonical URL (no trailing slash), e.g. `https://audit.example.com/mcp`. */
  url: string;
  api: 'audit' | 'retrieval';
}

/** Tunables of browser sessions and OAuth, provided from validated configuration by the infra module. */
export class AuthSettings {
  /** Sliding lifetime of one session cookie token (spec part 5: 15 minutes). */
  readonly sessionTokenSeconds = 900;
  /** How long after expiry `/auth/cookie-refresh` still accepts a cookie (spec: 5 minutes). */
  readonly refreshGraceSeconds = 300;
  /** Authorization codes live at most 10 minutes (SECURITY.md); 5 is plenty for a redirect. */
  readonly codeSeconds = 300;
  readonly lockSeconds = 900;

  constructor(
    readonly sessionMaxSeconds: number,
    readonly accessTokenSeconds: number,
    readonly refreshTokenSeconds: number,
    readonly maxLoginFailures: number,
    readonly resources: readonly ProtectedResource[],
  ) {}

  /** The resource a `resource` parameter names, or undefined when this deployment does not serve it. */
  resource(url: string): ProtectedResource | undefined {
    const wanted = canonicalResource(url);
    return this.resources.find((r) => r.url === wanted);
  }

  /** Scopes a client gets on a resource when it asks for none: everything that API offers. */
  defaultScopes(resource: ProtectedResource): OAuthScope[] {
    return [`${resource.api}:read`, `${resource.api}:write`] as OAuthScope[];
  }
}

/** `https://host/mcp/` and `https://host/mcp` name the same resource; a bare origin has no slash. */
export function canonicalResource(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    const text = u.href;
    return text.endsWith('/') ? text.slice(0, -1) : text;
  } catch {
    return url;
  }
}
