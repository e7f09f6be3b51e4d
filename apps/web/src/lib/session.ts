/** What a renewal learned: the cookie's new lifetime, or that the session is over. */
export type Renewal =
  | { kind: 'renewed'; expiresInSeconds: number; sessionExpiresAt: Date }
  | { kind: 'ended' }
  /** The auth service could not say (network, rate limit, outage): the session may still be alive. */
  | { kind: 'unavailable'; status?: number };

export interface SessionOptions {
  /** The auth service's URL (PUBLIC_AUTH_URL). */
  authUrl: string;
  /** The page to come back to after signing in (the app's current URL). */
  currentUrl: () => string;
  /** Leaves the app for another page (the login page). */
  leave: (url: string) => void;
  /** The app's language, for the login page to speak it too (`lang`); without it the login page reads the browser's. */
  language?: () => string | undefined;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Retry delay after an unavailable renewal. */
  retrySeconds?: number;
}

/**
 * The browser session rides on the `svc_auth` cookie alone (HttpOnly: never readable here, nothing is
 * stored by the app). It is renewed with /auth/cookie-refresh at two thirds of its lifetime and when a
 * hidden tab comes back after that time, since timers of background tabs are throttled; the endpoint
 * accepts a cookie up to 5 minutes past its expiry. A refused renewal, or a 401 from the API that a
 * renewal does not cure, sends the user to the login page with a `next` back to where they were.
 */
export class Session {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private renewing: Promise<Renewal> | undefined;
  private renewDueAt = Number.POSITIVE_INFINITY;
  private ended = false;

  constructor(private readonly options: SessionOptions) {}

  loginUrl(): string {
    const language = this.options.language?.();
    return `${this.options.authUrl}/auth/login?next=${encodeURIComponent(this.options.currentUrl())}${language ? `&lang=${encodeURIComponent(language)}` : ''}`;
  }

  /** Renews the cookie now; concurrent callers share one request. */
  renew(): Promise<Renewal> {
    this.renewing ??= this.requestRenewal().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** First renewal at start: learns the cookie's lifetime (and whether there is a session at all), then keeps it alive. */
  async start(): Promise<Renewal> {
    const renewal = await this.renewAndSchedule();
    if (renewal.kind === 'ended') this.end();
    return renewal;
  }

  /** Called when the tab becomes visible again: renews at once if the renewal is overdue. */
  wake(now = Date.now()): void {
    if (!this.ended && now >= this.renewDueAt) void this.renewAndSchedule().then((r) => r.kind === 'ended' && this.end());
  }

  /** The session is over: to the login page, once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.stop();
    this.options.leave(this.loginUrl());
  }

  /** Signs out on the auth service (the cookie is cleared and the session revoked), then to the login page. */
  async signOut(): Promise<void> {
    this.stop();
    try {
      await this.fetch(`${this.options.authUrl}/auth/cookie-logout`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' });
    } finally {
      this.ended = true;
      this.options.leave(this.loginUrl());
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.renewDueAt = Number.POSITIVE_INFINITY;
  }

  private async renewAndSchedule(): Promise<Renewal> {
    const renewal = await this.renew();
    if (renewal.kind === 'renewed') this.schedule((renewal.expiresInSeconds * 2) / 3);
    else if (renewal.kind === 'unavailable') this.schedule(this.options.retrySeconds ?? 30);
    return renewal;
  }

  private schedule(seconds: number): void {
    this.stop();
    this.renewDueAt = Date.now() + seconds * 1000;
    this.timer = setTimeout(() => this.wake(), seconds * 1000);
  }

  private async requestRenewal(): Promise<Renewal> {
    let response: Response;
    try {
      response = await this.fetch(`${this.options.authUrl}/auth/cookie-refresh`, { method: 'POST', credentials: 'include' });
    } catch {
      return { kind: 'unavailable' };
    }
    if (response.status === 401) return { kind: 'ended' };
    if (!response.ok) return { kind: 'unavailable', status: response.status };
    const body = (await response.json()) as { response: { expires_in: number; session_expires_at: string } };
    return { kind: 'renewed', expiresInSeconds: body.response.expires_in, sessionExpiresAt: new Date(body.response.session_expires_at) };
  }

  private fetch(input: string, init: RequestInit): Promise<Response> {
    return (this.options.fetch ?? globalThis.fetch)(input, init);
  }
}
