import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  AccessDeniedError,
  CustomOAuthError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
  OAuthError,
  ServerError,
  TemporarilyUnavailableError,
  TooManyRequestsError,
  UnsupportedTokenTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientIpKey, enforceRateLimits, PlatformRequest, RateLimiter } from '@svc/http';
import {
  AuthenticateOAuthClient,
  AuthenticateOAuthToken,
  AuthorizeOAuthClient,
  AuthSettings,
  IssueOAuthTokens,
  OAuthClient,
  oauthParameterProblem,
  OAuthProtocolError,
  ReadSession,
  RegisterOAuthClient,
  RevokeOAuthToken,
} from '@svc/identity-core';
import { describeSchemaIssues, isDomainError, loggableError, OAUTH_SCOPES, plainTextProblem, schemaIssuesIn } from '@svc/kernel';
import type { Express, NextFunction, Request, Response } from 'express';
import { AuthWebSettings, PendingAuthorization } from './auth-web.controllers';
import { CsrfTokens, SessionCookies, SignedPayloads } from './browser-security';
import { consentPage, sendPage } from './pages';

/** The authorization server's issuer identifier: the path-less origin of PUBLIC_AUTH_URL. */
export class OAuthIssuer {
  constructor(readonly url: string) {}
}

/** RFC 7591's `invalid_redirect_uri`, for which the SDK has no class. */
class InvalidRedirectUriError extends CustomOAuthError {
  constructor(message: string) {
    super('invalid_redirect_uri', message);
  }
}

const SDK_ERRORS = {
  invalid_request: InvalidRequestError,
  invalid_client: InvalidClientError,
  invalid_grant: InvalidGrantError,
  invalid_scope: InvalidScopeError,
  invalid_target: InvalidTargetError,
  access_denied: AccessDeniedError,
  invalid_redirect_uri: InvalidRedirectUriError,
  invalid_client_metadata: InvalidClientMetadataError,
  unsupported_token_type: UnsupportedTokenTypeError,
} as const;

/**
 * The request an OAuth endpoint is answering: the SDK's handlers call the provider without it, and
 * turn any unexpected error into a bare 500 `server_error` without logging it.
 */
const oauthRequests = new AsyncLocalStorage<PlatformRequest>();
const fallbackLog = new Logger('OAuth');

/**
 * Logs an error no OAuth answer describes, before the SDK reduces it to `server_error`: its class,
 * code (a SQLSTATE) and message, never a parameter (`loggableError`), with the request id of the
 * access log's "request failed" line.
 */
function logUnexpected(error: unknown): void {
  if (error instanceof OAuthError || error instanceof OAuthProtocolError) return;
  const request = oauthRequests.getStore();
  const fields = { err: loggableError(error), requestId: request?.requestId, path: request?.originalUrl.split('?')[0] };
  if (request?.appLog) request.appLog.error(fields, 'OAuth request failed');
  else fallbackLog.error({ ...fields, msg: 'OAuth request failed' });
}

/** Our protocol refusals as the SDK's OAuth errors (which its handlers turn into RFC responses). */
function toOAuthError(error: unknown): unknown {
  if (error instanceof OAuthProtocolError) {
    return new SDK_ERRORS[error.code](error.description);
  }
  if (isDomainError(error) && error.kind === 'unavailable') return new TemporarilyUnavailableError(error.message);
  logUnexpected(error);
  return error;
}

async function oauthCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toOAuthError(error);
  }
}

function clientInformation(client: OAuthClient): OAuthClientInformationFull {
  // No client_secret here on purpose: the SDK compares secrets with `!==`; ClientAuthentication
  // (mounted before its handlers) checks the keyed hash in constant time instead.
  return {
    ...(client.metadata as OAuthClientInformationFull),
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
  };
}

/**
 * The MCP SDK's `OAuthServerProvider`, backed by the identity use cases. Closes the SDK's gaps:
 * `resource` and `redirect_uri` are checked again at the token endpoint, client secrets are compared
 * in constant time, codes and refresh tokens are single use with replay revocation.
 */
@Injectable()
export class IdentityOAuthProvider implements OAuthServerProvider {
  constructor(
    private readonly register: RegisterOAuthClient,
    private readonly authorizeClient: AuthorizeOAuthClient,
    private readonly issue: IssueOAuthTokens,
    private readonly revoke: RevokeOAuthToken,
    private readonly accessTokens: AuthenticateOAuthToken,
    private readonly clients: AuthenticateOAuthClient,
    private readonly readSession: ReadSession,
    private readonly cookies: SessionCookies,
    private readonly csrf: CsrfTokens,
    private readonly payloads: SignedPayloads,
    private readonly settings: AuthSettings,
  ) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (clientId: string) =>
        oauthCall(async () => {
          const client = await this.clients.find(clientId);
          return client ? clientInformation(client) : undefined;
        }),
      registerClient: (info) =>
        oauthCall(async () => {
          const full = info as OAuthClientInformationFull;
          await this.register.execute(full as OAuthClientInformationFull & { redirect_uris: string[] }, full.client_id, full.client_secret, full.client_secret_expires_at);
          return full;
        }),
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const req = res.req as Request;
    const token = this.cookies.read(req);
    let session: Awaited<ReturnType<ReadSession['execute']>> | null = null;
    if (token) {
      try {
        session = await this.readSession.execute(token);
      } catch (error) {
        if (!isDomainError(error) || error.kind !== 'unauthenticated') throw toOAuthError(error);
      }
    }
    if (!session) {
      // Sign in first, then come back to this very authorization request.
      res.redirect(302, `/auth/login?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    const request = {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      scopes: params.scopes ?? [],
      resource: params.resource?.href,
      state: params.state,
    };
    const stored = await this.clients.find(client.client_id);
    if (!stored) throw new InvalidClientError('Unknown client.');
    const outcome = await oauthCall(() => this.authorizeClient.execute(session.user, stored, request));
    if (outcome.kind === 'redirect') {
      res.redirect(302, outcome.location);
      return;
    }
    const pending: PendingAuthorization = { ...request, userId: session.user.id, sessionId: session.session.id };
    sendPage(
      res,
      200,
      'Allow access',
      consentPage({
        csrf: this.csrf.issue(req, res),
        request: this.payloads.seal(pending, 600),
        clientName: String(client.client_name ?? 'An application'),
        clientId: client.client_id,
        redirectHost: new URL(params.redirectUri).host || params.redirectUri,
        scopes: outcome.scopes,
        resource: outcome.resource.url,
        userEmail: session.user.email ?? session.user.name,
      }),
    );
  }

  challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return oauthCall(() => this.issue.challenge(client.client_id, code));
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    return oauthCall(() => this.issue.exchangeCode(client.client_id, code, redirectUri, resource?.href));
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    return oauthCall(() => this.issue.refresh(client.client_id, refreshToken, scopes, resource?.href));
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    try {
      const principal = await this.accessTokens.execute(token, this.settings.resources.map((r) => r.url));
      return { token, clientId: principal.clientId, scopes: [...(principal.scopes ?? [])], expiresAt: principal.expiresAt, extra: { userId: principal.userId } };
    } catch (error) {
      if (isDomainError(error) && error.kind === 'unauthenticated') throw new InvalidTokenError(error.message);
      throw toOAuthError(error);
    }
  }

  revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    return oauthCall(() => this.revoke.execute(client.client_id, request.token));
  }
}

/**
 * Mounts the OAuth 2.1 authorization server on the platform-auth app: the SDK's router (metadata,
 * /authorize, /token, /register, /revoke) behind our rate limits and constant-time client
 * authentication, with the RFC 8414 metadata served by us so the issuer is the exact path-less
 * issuer of the tokens.
 */
@Injectable()
export class OAuthServerMount implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly provider: IdentityOAuthProvider,
    private readonly clients: AuthenticateOAuthClient,
    private readonly limiter: RateLimiter,
    private readonly web: AuthWebSettings,
    private readonly issuer: OAuthIssuer,
  ) {}

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter?.getInstance<Express>();
    if (!app) return;
    const issuer = this.issuer.url;
    const limit = (bucket: string, perWindow: number, windowSeconds: number, keyOf?: (req: Request) => string | undefined) => async (req: Request, res: Response, next: NextFunction) => {
      try {
        await enforceRateLimits(this.limiter, [
          { bucket: `${bucket}.ip`, key: clientIpKey(req), rule: { limit: keyOf ? perWindow * 10 : perWindow, windowSeconds } },
          ...(keyOf ? [{ bucket: `${bucket}.client`, key: keyOf(req), rule: { limit: perWindow, windowSeconds } }] : []),
        ]);
        next();
      } catch (error) {
        if (isDomainError(error) && error.kind === 'rate_limited') {
          res.setHeader('Retry-After', String(error.retryAfterSeconds ?? 60));
          res.status(429).json(new TooManyRequestsError('Too many requests; retry after the delay in Retry-After.').toResponseObject());
          return;
        }
        next(error);
      }
    };
    const clientIdOf = (req: Request) => (typeof req.body?.client_id === 'string' ? req.body.client_id : undefined);
    app.use(['/register', '/token', '/revoke', '/authorize'], (req: Request, _res: Response, next: NextFunction) => oauthRequests.run(req as PlatformRequest, next));
    app.use('/register', limit('oauth-register', this.web.registrationPerHour, 3600));
    app.use('/token', boundedParameters, limit('oauth-token', this.web.tokenPerMinute, 60, clientIdOf), this.authenticateClient());
    app.use('/revoke', boundedParameters, limit('oauth-revoke', this.web.tokenPerMinute, 60, clientIdOf), this.authenticateClient());
    app.use('/authorize', boundedParameters, limit('oauth-authorize', this.web.tokenPerMinute, 60, (req) => (typeof req.query.client_id === 'string' ? req.query.client_id : undefined)));
    app.get('/.well-known/oauth-authorization-server', (_req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        revocation_endpoint: `${issuer}/revoke`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        scopes_supported: [...OAUTH_SCOPES],
        service_documentation: `${issuer}/docs`,
      });
    });
    app.use(['/register', '/token', '/revoke', '/authorize'], readableOAuthErrors);
    app.use(
      mcpAuthRouter({
        provider: this.provider,
        issuerUrl: new URL(issuer),
        scopesSupported: [...OAUTH_SCOPES],
        authorizationOptions: { rateLimit: false },
        tokenOptions: { rateLimit: false },
        revocationOptions: { rateLimit: false },
        clientRegistrationOptions: { rateLimit: false, clientSecretExpirySeconds: 0 },
      }),
    );
  }

  /**
   * Client authentication before the SDK's token and revocation handlers: `client_secret_post` or
   * `client_secret_basic`, keyed hash compared in constant time. Public clients (PKCE) send only client_id.
   * A Basic header that cannot be read is `invalid_client` with a `Basic` challenge (RFC 6749 §5.2).
   */
  private authenticateClient() {
    return async (req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'POST') return next();
      let basic: BasicCredentials | undefined;
      try {
        const body = (req.body ?? {}) as Record<string, unknown>;
        basic = basicCredentials(req.headers.authorization);
        if (basic) {
          body.client_id = basic.clientId;
          body.client_secret = basic.clientSecret;
          req.body = body;
        }
        if (typeof body.client_id !== 'string') throw new InvalidRequestError('client_id is required.');
        await oauthCall(() => this.clients.execute(body.client_id as string, typeof body.client_secret === 'string' ? body.client_secret : undefined));
        next();
      } catch (error) {
        // An unexpected error was logged by oauthCall, the one call here that can meet one.
        const oauthError = error instanceof OAuthError ? error : new ServerError('Internal Server Error');
        res.setHeader('Cache-Control', 'no-store');
        const unauthorized = oauthError instanceof InvalidClientError;
        if (unauthorized && (basic || /^Basic(\s|$)/i.test(req.headers.authorization ?? ''))) res.setHeader('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
        res.status(unauthorized ? 401 : oauthError instanceof ServerError ? 500 : 400).json(oauthError.toResponseObject());
      }
    };
  }
}

interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

/** `%zz`, a lone `%`, or an escape that is not UTF-8: `undefined` instead of decodeURIComponent's URIError. */
function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): `Basic base64(urlencoded id ":" urlencoded secret)`.
 * `undefined` without a Basic header; `InvalidClientError` for one that cannot be read: not base64,
 * no colon, an empty id, a bad percent-escape, or a decoded id or secret the body's hygiene would
 * refuse (a NUL or other control character, a bidirectional override, a value over its bound).
 */
export function basicCredentials(header: string | undefined): BasicCredentials | undefined {
  const scheme = /^\s*Basic(?:\s+|$)/i.exec(header ?? '');
  if (!header || !scheme) return undefined;
  const encoded = header.slice(scheme[0].length).trim();
  const unreadable = new InvalidClientError('The Authorization header is not readable client_secret_basic credentials: base64 of the percent-encoded client id, a colon and the percent-encoded secret.');
  if (encoded.length > 4096 || encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw unreadable;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw unreadable;
  const clientId = percentDecoded(decoded.slice(0, colon));
  const clientSecret = percentDecoded(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined) throw unreadable;
  if (plainTextProblem(clientId) || plainTextProblem(clientSecret) || oauthParameterProblem({ client_id: clientId, client_secret: clientSecret })) throw new InvalidClientError('Invalid client credentials.');
  return { clientId, clientSecret };
}

/**
 * Every parameter of `/authorize`, `/token` and `/revoke` (query string and body) within its bound
 * (`OAUTH_PARAMETER_LIMITS`), once, as a string: otherwise a 400 `invalid_request`, before any
 * redirect, lookup or rate-limit key is made of it.
 */
export function boundedParameters(req: Request, res: Response, next: NextFunction): void {
  const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const problem = oauthParameterProblem(req.query as Record<string, unknown>) ?? oauthParameterProblem(body);
  if (!problem) return next();
  res.setHeader('Cache-Control', 'no-store');
  res.status(400).json(new InvalidRequestError(problem).toResponseObject());
}

/**
 * The SDK's OAuth handlers put a zod error's raw JSON into `error_description`; RFC 6749 wants a
 * sentence a developer can read: "Invalid request: grant_type: Invalid input." instead.
 */
export function readableOAuthErrors(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const description = (body as { error_description?: unknown } | null)?.error_description;
    const issues = typeof description === 'string' ? schemaIssuesIn(description) : undefined;
    return json(issues ? { ...(body as object), error_description: `Invalid request: ${describeSchemaIssues(issues)}.` } : body);
  };
  next();
}
