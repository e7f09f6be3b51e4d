import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, SetMetadata } from '@nestjs/common';
import { assertFirstPartyBrowserRequest, clientIpKey, CurrentPrincipal, enforceRateLimits, OriginPolicy, Public, RateLimiter, RawResponse, SURFACE_METADATA } from '@svc/http';
import {
  AuthSettings,
  AuthorizationRequest,
  DecideOAuthConsent,
  LoginWithPassword,
  Logout,
  ManageOAuthConsents,
  OAuthProtocolError,
  ReadSession,
  RefreshSession,
} from '@svc/identity-core';
import { DomainError, isDomainError, Principal } from '@svc/kernel';
import { IsString, MaxLength } from 'class-validator';
import type { Request, Response } from 'express';
import { decodeJwt } from 'jose';
import { CsrfTokens, safeNext, SessionCookies, SignedPayloads } from './browser-security';
import { accountPage, loginPage, messagePage, PAGE_TEXT, pageLanguage, sendPage } from './pages';

/** Settings of the browser-facing pages, from configuration. */
export class AuthWebSettings {
  constructor(
    readonly allowedOrigins: readonly string[],
    readonly loginPerMinute: number,
    readonly tokenPerMinute: number,
    readonly registrationPerHour: number,
  ) {}
}

/** What the consent form carries back, sealed: the authorization request and whose it is. */
export interface PendingAuthorization extends AuthorizationRequest {
  userId: string;
  sessionId: string;
}

type Form = Record<string, unknown>;

/** The `sid` of a cookie token, unverified: only a rate-limit key (verification comes next). */
function sessionIdOf(token: string): string | undefined {
  try {
    const sid = decodeJwt(token).sid;
    return typeof sid === 'string' ? sid : undefined;
  } catch {
    return undefined;
  }
}
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The login page, the cookie endpoints, the account page (consents, sign out) and the consent
 * form's answer. Forms are CSRF-protected (signed double submit plus the Origin check); pages
 * cannot be framed; everything works without JavaScript.
 */
@Controller()
@Public()
export class AuthWebController {
  constructor(
    private readonly login: LoginWithPassword,
    private readonly readSession: ReadSession,
    private readonly refreshSession: RefreshSession,
    private readonly logout: Logout,
    private readonly consents: ManageOAuthConsents,
    private readonly decideConsent: DecideOAuthConsent,
    private readonly csrf: CsrfTokens,
    private readonly cookies: SessionCookies,
    private readonly payloads: SignedPayloads,
    private readonly origins: OriginPolicy,
    private readonly limiter: RateLimiter,
    private readonly web: AuthWebSettings,
    private readonly settings: AuthSettings,
  ) {}

  @Get('auth/login')
  @RawResponse()
  loginForm(@Req() req: Request, @Res() res: Response, @Query('next') next?: string, @Query('lang') lang?: string): void {
    const language = pageLanguage(lang, req.headers['accept-language']);
    sendPage(res, 200, PAGE_TEXT[language].signInTitle, loginPage({ csrf: this.csrf.issue(req, res), next: safeNext(next, this.web.allowedOrigins), language }), language);
  }

  @Post('auth/login')
  @RawResponse()
  async loginSubmit(@Req() req: Request, @Res() res: Response, @Body() body: Form): Promise<void> {
    const next = safeNext(body?.next, this.web.allowedOrigins);
    const email = text(body?.email).trim().toLowerCase().slice(0, 320);
    const language = pageLanguage(body?.lang, req.headers['accept-language']);
    const t = PAGE_TEXT[language];
    const again = (status: number, error: string) => sendPage(res, status, t.signInTitle, loginPage({ csrf: this.csrf.issue(req, res), next, email, error, language }), language);
    if (!this.formAllowed(req, body)) return again(403, t.formExpired);
    try {
      await enforceRateLimits(this.limiter, [
        { bucket: 'login.ip', key: clientIpKey(req), rule: { limit: this.web.loginPerMinute, windowSeconds: 60 } },
        { bucket: 'login.email', key: email, rule: { limit: this.web.loginPerMinute, windowSeconds: 60 } },
      ]);
      const result = await this.login.execute(email, text(body?.password));
      this.cookies.set(res, result.token, result.maxAgeSeconds);
      res.redirect(303, next);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      if (error.kind === 'rate_limited') {
        res.setHeader('Retry-After', String(error.retryAfterSeconds ?? 60));
        return again(429, t.tooMany(Math.ceil((error.retryAfterSeconds ?? 60) / 60)));
      }
      if (error.kind === 'unauthenticated') return again(401, t.wrongCredentials);
      throw error;
    }
  }

  /** `POST /auth/cookie-refresh`: a cookie up to 5 minutes past expiry gets a fresh one. */
  @Post('auth/cookie-refresh')
  @HttpCode(200)
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    assertFirstPartyBrowserRequest(req, this.origins);
    const token = this.cookies.read(req);
    if (!token) throw DomainError.unauthenticated('AUTH.MISSING_SESSION', 'No session cookie was sent.');
    await enforceRateLimits(this.limiter, [
      { bucket: 'cookie-refresh.ip', key: clientIpKey(req), rule: { limit: this.web.tokenPerMinute * 10, windowSeconds: 60 } },
      { bucket: 'cookie-refresh.session', key: sessionIdOf(token), rule: { limit: this.web.tokenPerMinute, windowSeconds: 60 } },
    ]);
    const cookie = await this.refreshSession.execute(token);
    this.cookies.set(res, cookie.token, cookie.maxAgeSeconds);
    return { expires_in: cookie.maxAgeSeconds - this.settings.refreshGraceSeconds, session_expires_at: cookie.session.expiresAt.toISOString() };
  }

  /**
   * `POST /auth/cookie-logout`: clears the cookie (Max-Age=0) and revokes the session server side.
   * A form (the account page's button) is redirected to the login page, a script gets the JSON
   * envelope: the handler writes both answers itself, so Nest never sends a second one after the
   * redirect (which logged ERR_HTTP_HEADERS_SENT on every form sign-out).
   */
  @Post('auth/cookie-logout')
  @RawResponse()
  async signOut(@Req() req: Request, @Res() res: Response, @Body() body: Form): Promise<void> {
    const fromForm = Boolean(req.is('application/x-www-form-urlencoded'));
    if (!fromForm) assertFirstPartyBrowserRequest(req, this.origins);
    else if (!this.formAllowed(req, body)) throw DomainError.forbidden('AUTH.CSRF_CHECK_FAILED', 'The sign-out form expired or came from another site.');
    const revoked = await this.logout.execute(this.cookies.read(req));
    this.cookies.clear(res);
    if (fromForm) return res.redirect(303, '/auth/login');
    res.status(200).json({ response: { signed_out: revoked } });
  }

  @Get('auth/account')
  @RawResponse()
  async account(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = await this.sessionOf(req);
    if (!session) return res.redirect(303, `/auth/login?next=${encodeURIComponent('/auth/account')}`);
    const consents = await this.consents.list(session.user.id);
    sendPage(
      res,
      200,
      'Your account',
      accountPage({ csrf: this.csrf.issue(req, res), name: session.user.name, email: session.user.email ?? '', roles: session.user.roles, consents }),
    );
  }

  @Post('auth/account/withdraw')
  @RawResponse()
  async withdrawFromPage(@Req() req: Request, @Res() res: Response, @Body() body: Form): Promise<void> {
    const session = await this.sessionOf(req);
    if (!session) return res.redirect(303, '/auth/login');
    if (!this.formAllowed(req, body)) return sendPage(res, 403, 'Not allowed', messagePage('Not allowed', 'The form expired or came from another site.'));
    try {
      await this.consents.withdraw(session.principal, text(body?.client_id));
    } catch (error) {
      if (!isDomainError(error) || error.kind !== 'not_found') throw error;
    }
    res.redirect(303, '/auth/account');
  }

  /** The consent form's answer: approve stores the consent and redirects with a code; deny redirects with access_denied. */
  @Post('oauth/consent')
  @RawResponse()
  async consent(@Req() req: Request, @Res() res: Response, @Body() body: Form): Promise<void> {
    const session = await this.sessionOf(req);
    const pending = this.payloads.open<PendingAuthorization>(body?.request);
    if (!session || !pending || pending.userId !== session.user.id || pending.sessionId !== session.session.id || !this.formAllowed(req, body)) {
      return sendPage(res, 400, 'Request expired', messagePage('Request expired', 'This authorization request expired or is not yours. Start again from your application.'));
    }
    try {
      const location = await this.decideConsent.execute(session.user, session.principal, pending, body?.decision === 'approve');
      res.redirect(303, location);
    } catch (error) {
      if (!(error instanceof OAuthProtocolError)) throw error;
      sendPage(res, 400, 'Request refused', messagePage('Request refused', error.description));
    }
  }

  private formAllowed(req: Request, body: Form): boolean {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    // Privacy settings can make a browser send `Origin: null` on a same-origin form post; Sec-Fetch-Site then says where it came from.
    const opaqueSameOrigin = origin === 'null' && site === 'same-origin';
    if (origin !== undefined && !opaqueSameOrigin && !this.origins.allows(origin)) return false;
    if (site === 'cross-site') return false;
    return this.csrf.valid(req, body?.csrf);
  }

  private async sessionOf(req: Request) {
    const token = this.cookies.read(req);
    if (!token) return null;
    try {
      return await this.readSession.execute(token);
    } catch (error) {
      if (isDomainError(error) && error.kind === 'unauthenticated') return null;
      throw error;
    }
  }
}

export class WithdrawConsentInput {
  @IsString()
  @MaxLength(200)
  client_id!: string;
}

/** JSON API of the same consents, for a first-party web app (session cookie or a user's token). */
@Controller('auth/consents')
@SetMetadata(SURFACE_METADATA, 'platform')
export class ConsentsController {
  constructor(private readonly consents: ManageOAuthConsents) {}

  @Post('list')
  @HttpCode(200)
  list(@CurrentPrincipal() principal: Principal) {
    return this.consents.list(principal.userId);
  }

  @Post('withdraw')
  @HttpCode(200)
  async withdraw(@CurrentPrincipal() principal: Principal, @Body() body: WithdrawConsentInput) {
    await this.consents.withdraw(principal, body.client_id);
    return true;
  }
}
