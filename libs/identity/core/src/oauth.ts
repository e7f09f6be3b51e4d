import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, IdGenerator, isOAuthScope, OAuthScope, plainTextProblem, Principal, Role, UnitOfWork } from '@svc/kernel';
import { AuthSettings, ProtectedResource } from './auth-settings';
import type { User } from './identity.model';
import { SecretHasher, TokenService, UserRepository } from './identity.ports';

/** RFC 6749 / 7591 / 8707 error codes the token, authorize and registration endpoints answer with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type';

/** A protocol-level refusal: the adapter turns it into the RFC's JSON error or error redirect. */
export class OAuthProtocolError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthProtocolError';
  }
}

/** A client registered dynamically (RFC 7591). Confidential clients keep only a keyed hash of their secret. */
export interface OAuthClient {
  clientId: string;
  secretHash: string | null;
  secretExpiresAt: number | null;
  /** Registered metadata as the client sent it (redirect_uris, client_name, ...), validated. */
  metadata: Record<string, unknown> & { redirect_uris: string[] };
  createdAt: Date;
}

export interface AuthorizationCode {
  codeHash: string;
  clientId: string;
  userId: string;
  organizationId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: OAuthScope[];
  resource: string;
  expiresAt: Date;
  usedAt: Date | null;
  /** The grant its exchange created, so a replay can revoke it. */
  grantId: string | null;
}

/** One authorization: a family of access and refresh tokens. Revoking it ends them all at once. */
export interface OAuthGrant {
  id: string;
  clientId: string;
  userId: string;
  organizationId: string;
  scopes: OAuthScope[];
  resource: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface RefreshTokenRecord {
  tokenHash: string;
  grantId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** What a person allowed a client: shown on the account page, withdrawable. */
export interface OAuthConsent {
  id: string;
  userId: string;
  clientId: string;
  scopes: OAuthScope[];
  createdAt: Date;
  revokedAt: Date | null;
}

export abstract class OAuthStore {
  abstract insertClient(client: OAuthClient): Promise<void>;
  abstract getClient(clientId: string): Promise<OAuthClient | null>;
  abstract insertCode(code: AuthorizationCode): Promise<void>;
  abstract getCode(codeHash: string): Promise<AuthorizationCode | null>;
  /** Marks the code used and links its grant; false when it was already used (a replay). */
  abstract useCode(codeHash: string, at: Date, grantId: string): Promise<boolean>;
  abstract insertGrant(grant: OAuthGrant): Promise<void>;
  abstract getGrant(id: string): Promise<OAuthGrant | null>;
  abstract revokeGrant(id: string, at: Date): Promise<void>;
  abstract revokeGrantsOf(userId: string, clientId: string, at: Date): Promise<void>;
  abstract insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  abstract getRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /** Marks the token used (rotation); false when it was already used (a reuse). */
  abstract useRefreshToken(tokenHash: string, at: Date): Promise<boolean>;
  abstract findConsent(userId: string, clientId: string): Promise<OAuthConsent | null>;
  abstract saveConsent(consent: OAuthConsent): Promise<void>;
  abstract listConsents(userId: string): Promise<Array<OAuthConsent & { clientName: string | null }>>;
  abstract revokeConsent(userId: string, clientId: string, at: Date): Promise<boolean>;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string | undefined;
  state: string | undefined;
}

/** Codes and refresh tokens are random and stored only as SHA-256 (they are single-use and high-entropy). */
export function opaqueTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * The longest value each parameter of `/authorize`, `/token` and `/revoke` may have, in characters
 * (ADR 0044). Every value the server hands back (the redirect's `state`, the `Location` of a
 * signed-out browser's detour through the login page) is bounded by these: a redirect to the client
 * stays under about 4 KB. Generous next to what the server issues (client ids are UUIDs, codes and
 * refresh tokens 43 characters, access tokens under 1 KB, 4 scopes) and to RFC 7636's 128-character
 * PKCE values.
 */
export const OAUTH_PARAMETER_LIMITS: Readonly<Record<string, number>> = {
  client_id: 256,
  client_secret: 256,
  redirect_uri: 2000,
  resource: 2000,
  response_type: 32,
  response_mode: 32,
  scope: 512,
  state: 1024,
  code_challenge: 128,
  code_challenge_method: 16,
  code_verifier: 128,
  grant_type: 64,
  code: 256,
  refresh_token: 256,
  token: 4096,
  token_type_hint: 32,
};
/** Any other parameter (the endpoints ignore it, RFC 6749 §3.1, but a detour through the login page carries it). */
export const OAUTH_OTHER_PARAMETER_MAX_LENGTH = 256;
/** Parameters of one request, whatever their names. */
export const OAUTH_MAX_PARAMETERS = 32;

/**
 * The first parameter of an OAuth request that is over its bound (`OAUTH_PARAMETER_LIMITS`), given
 * more than once (RFC 6749 §3.1), or not a string, described for `invalid_request`; `undefined` when
 * every parameter is within bounds. A parameter name is repeated in the answer only when it is a
 * plain word (the answer never reflects what a caller sent).
 */
export function oauthParameterProblem(parameters: Record<string, unknown>): string | undefined {
  const names = Object.keys(parameters);
  if (names.length > OAUTH_MAX_PARAMETERS) return `A request takes at most ${OAUTH_MAX_PARAMETERS} parameters.`;
  for (const name of names) {
    const shown = /^[A-Za-z_]{1,40}$/.test(name) ? name : 'A parameter';
    const value = parameters[name];
    if (Array.isArray(value)) return `${shown} must be given once.`;
    if (typeof value !== 'string') return `${shown} must be a string.`;
    const limit = OAUTH_PARAMETER_LIMITS[name] ?? OAUTH_OTHER_PARAMETER_MAX_LENGTH;
    if (value.length > limit) return `${shown} is longer than ${limit} characters, the limit of this server.`;
  }
  return undefined;
}

/** A registered client's name, shown on the consent page: plain text, at most this long. */
export const OAUTH_CLIENT_NAME_MAX_LENGTH = 200;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

/**
 * RFC 8252 / OAuth 2.1 redirect URIs: https anywhere, http only on loopback, private-use schemes of
 * native apps (`cursor://...`); never javascript:, data: or fragments.
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URI`;
  }
  if (url.hash) return `${uri} must not contain a fragment`;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${url.protocol} redirect URIs are refused`;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return `${uri}: plain http is allowed only on loopback hosts`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && !/^[a-z][a-z0-9+.-]*\.?[a-z0-9+.-]*:$/.test(url.protocol)) return `${uri} has an unusable scheme`;
  return undefined;
}

/** Dynamic client registration (RFC 7591): validates redirect URIs and stores the secret hashed. */
@Injectable()
export class RegisterOAuthClient {
  constructor(
    private readonly store: OAuthStore,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(metadata: Record<string, unknown> & { redirect_uris: string[] }, clientId: string, clientSecret: string | undefined, secretExpiresAt: number | undefined): Promise<void> {
    if (metadata.redirect_uris.length === 0) throw new OAuthProtocolError('invalid_redirect_uri', 'At least one redirect URI is required.');
    for (const uri of metadata.redirect_uris) {
      if (uri.length > OAUTH_PARAMETER_LIMITS.redirect_uri) throw new OAuthProtocolError('invalid_redirect_uri', `A redirect URI is longer than ${OAUTH_PARAMETER_LIMITS.redirect_uri} characters.`);
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthProtocolError('invalid_redirect_uri', problem);
    }
    const grantTypes = (metadata.grant_types as string[] | undefined) ?? ['authorization_code'];
    if (grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
      throw new OAuthProtocolError('invalid_client_metadata', 'Only the authorization_code and refresh_token grant types are supported.');
    }
    if (metadata.scope !== undefined && String(metadata.scope).split(' ').some((s) => s && !isOAuthScope(s))) {
      throw new OAuthProtocolError('invalid_client_metadata', 'Unknown scope in the registration.');
    }
    // The consent page shows the name to the person deciding: no bidi override may make it read as another one.
    if (typeof metadata.client_name === 'string') {
      const problem = plainTextProblem(metadata.client_name);
      if (problem) throw new OAuthProtocolError('invalid_client_metadata', `client_name must not contain control characters or bidirectional overrides (it holds ${problem}).`);
      if (metadata.client_name.length > OAUTH_CLIENT_NAME_MAX_LENGTH) throw new OAuthProtocolError('invalid_client_metadata', `client_name is longer than ${OAUTH_CLIENT_NAME_MAX_LENGTH} characters.`);
    }
    // Only the client's metadata is kept: the secret (and what the server assigned) never reach the table.
    const { client_secret: _secret, client_secret_expires_at: _expiry, client_id: _id, client_id_issued_at: _issued, ...registered } = metadata;
    await this.store.insertClient({
      clientId,
      secretHash: clientSecret ? this.hasher.hash(clientSecret) : null,
      secretExpiresAt: clientSecret && secretExpiresAt ? secretExpiresAt : null,
      metadata: registered as OAuthClient['metadata'],
      createdAt: this.clock.now(),
    });
  }
}

/** Client authentication at the token and revocation endpoints: keyed hash, constant-time comparison. */
@Injectable()
export class AuthenticateOAuthClient {
  constructor(
    private readonly store: OAuthStore,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  find(clientId: string): Promise<OAuthClient | null> {
    return this.store.getClient(clientId);
  }

  async execute(clientId: string, clientSecret: string | undefined): Promise<OAuthClient> {
    const client = await this.store.getClient(clientId);
    if (!client) throw new OAuthProtocolError('invalid_client', 'Unknown client.');
    if (client.secretHash) {
      if (!clientSecret || !this.hasher.matches(clientSecret, client.secretHash)) throw new OAuthProtocolError('invalid_client', 'Client authentication failed.');
      if (client.secretExpiresAt && client.secretExpiresAt < Math.floor(this.clock.now().getTime() / 1000)) throw new OAuthProtocolError('invalid_client', 'The client secret has expired.');
    }
    return client;
  }
}

export type AuthorizationOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'consent'; client: OAuthClient; scopes: OAuthScope[]; resource: ProtectedResource };

/**
 * The authorization endpoint once the person is signed in: resolves `resource` (invalid_target when
 * this deployment does not serve it) and scopes (invalid_scope when they are unknown or belong to
 * another API), then issues a code at once if a stored consent covers the request, or asks for consent.
 */
@Injectable()
export class AuthorizeOAuthClient {
  constructor(
    private readonly store: OAuthStore,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
  ) {}

  resolve(request: AuthorizationRequest): { resource: ProtectedResource; scopes: OAuthScope[] } {
    if (!request.resource) throw new OAuthProtocolError('invalid_target', 'The resource parameter (RFC 8707) is required: the URL of the MCP endpoint.');
    const resource = this.settings.resource(request.resource);
    if (!resource) throw new OAuthProtocolError('invalid_target', `This server issues no tokens for ${request.resource}.`);
    const asked = request.scopes.filter(Boolean);
    if (asked.length === 0) return { resource, scopes: this.settings.defaultScopes(resource) };
    const unknown = asked.filter((s) => !isOAuthScope(s) || !s.startsWith(`${resource.api}:`));
    if (unknown.length > 0) throw new OAuthProtocolError('invalid_scope', `Scopes not available for ${resource.url}: ${unknown.join(', ')}.`);
    return { resource, scopes: [...new Set(asked)] as OAuthScope[] };
  }

  async execute(user: User, client: OAuthClient, request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const { resource, scopes } = this.resolve(request);
    const consent = await this.store.findConsent(user.id, client.clientId);
    if (consent && !consent.revokedAt && scopes.every((s) => consent.scopes.includes(s))) {
      return { kind: 'redirect', location: await issueCode(this.store, this.settings, this.clock, user, client, request, scopes, resource) };
    }
    return { kind: 'consent', client, scopes, resource };
  }
}

async function issueCode(store: OAuthStore, settings: AuthSettings, clock: Clock, user: User, client: OAuthClient, request: AuthorizationRequest, scopes: OAuthScope[], resource: ProtectedResource): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = clock.now();
  await store.insertCode({
    codeHash: opaqueTokenHash(code),
    clientId: client.clientId,
    userId: user.id,
    organizationId: user.organizationId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scopes,
    resource: resource.url,
    expiresAt: new Date(now.getTime() + settings.codeSeconds * 1000),
    usedAt: null,
    grantId: null,
  });
  const location = new URL(request.redirectUri);
  location.searchParams.set('code', code);
  if (request.state !== undefined) location.searchParams.set('state', request.state);
  return location.href;
}

/** The consent page's answer: approval stores the consent (union of scopes) and issues the code. */
@Injectable()
export class DecideOAuthConsent {
  constructor(
    private readonly store: OAuthStore,
    private readonly authorize: AuthorizeOAuthClient,
    private readonly settings: AuthSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly activity: ActivityLog,
  ) {}

  async execute(user: User, actor: Principal, request: AuthorizationRequest, approved: boolean): Promise<string> {
    const client = await this.store.getClient(request.clientId);
    if (!client || !client.metadata.redirect_uris.includes(request.redirectUri)) throw new OAuthProtocolError('invalid_request', 'The authorization request is no longer valid.');
    if (!approved) {
      const location = new URL(request.redirectUri);
      location.searchParams.set('error', 'access_denied');
      location.searchParams.set('error_description', 'The user denied the request.');
      if (request.state !== undefined) location.searchParams.set('state', request.state);
      return location.href;
    }
    const { resource, scopes } = this.authorize.resolve(request);
    const existing = await this.store.findConsent(user.id, client.clientId);
    const merged = [...new Set([...(existing && !existing.revokedAt ? existing.scopes : []), ...scopes])] as OAuthScope[];
    const consent: OAuthConsent = { id: existing?.id ?? this.ids.next('cns_'), userId: user.id, clientId: client.clientId, scopes: merged, createdAt: this.clock.now(), revokedAt: null };
    await this.store.saveConsent(consent);
    await this.activity.record({ organizationId: user.organizationId, instanceId: null, action: 'identity.oauth.consent', subjectId: consent.id, actor, before: existing ? { scopes: existing.scopes } : null, after: { client_id: client.clientId, scopes: merged } });
    return issueCode(this.store, this.settings, this.clock, user, client, request, scopes, resource);
  }
}

/**
 * The token endpoint. Codes: single use (a replay revokes the grant the first exchange created),
 * bound to their client, redirect URI and resource, at most `codeSeconds` old; PKCE is checked by
 * the adapter before this runs. Refresh tokens rotate; presenting a used one revokes the family.
 */
@Injectable()
export class IssueOAuthTokens {
  constructor(
    private readonly store: OAuthStore,
    private readonly tokens: TokenService,
    private readonly users: UserRepository,
    private readonly settings: AuthSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * The PKCE challenge of this client's code (invalid_grant for another client's or an unknown one),
   * also of a used or expired code: the exchange then refuses it, and revokes a replayed code's grant.
   */
  async challenge(clientId: string, code: string): Promise<string> {
    const record = await this.store.getCode(opaqueTokenHash(code));
    if (!record || record.clientId !== clientId) throw new OAuthProtocolError('invalid_grant', 'The authorization code is invalid.');
    return record.codeChallenge;
  }

  async exchangeCode(clientId: string, code: string, redirectUri: string | undefined, resource: string | undefined): Promise<TokenResponse> {
    const now = this.clock.now();
    const hash = opaqueTokenHash(code);
    const record = await this.store.getCode(hash);
    if (!record || record.clientId !== clientId) throw new OAuthProtocolError('invalid_grant', 'The authorization code is invalid.');
    if (record.usedAt) {
      if (record.grantId) await this.store.revokeGrant(record.grantId, now);
      throw new OAuthProtocolError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked.');
    }
    if (record.expiresAt <= now) throw new OAuthProtocolError('invalid_grant', 'The authorization code has expired.');
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) throw new OAuthProtocolError('invalid_grant', 'redirect_uri does not match the authorization request.');
    if (resource !== undefined && this.settings.resource(resource)?.url !== record.resource) {
      throw new OAuthProtocolError('invalid_target', 'resource does not match the authorization request.');
    }
    const user = await this.users.get(record.organizationId, record.userId);
    if (!user) throw new OAuthProtocolError('invalid_grant', 'The user of this authorization no longer exists.');
    const grant: OAuthGrant = { id: this.ids.next('grt_'), clientId, userId: user.id, organizationId: user.organizationId, scopes: record.scopes, resource: record.resource, createdAt: now, revokedAt: null };
    try {
      return await this.uow.run(async () => {
        await this.store.insertGrant(grant);
        // Lost a race with another exchange of the same code: this grant is rolled back, and the
        // replay revokes the winner's, below, outside the rolled-back transaction.
        if (!(await this.store.useCode(hash, now, grant.id))) throw new LostCodeRace();
        return this.issue(grant, user.roles);
      });
    } catch (error) {
      if (!(error instanceof LostCodeRace)) throw error;
    }
    const winner = await this.store.getCode(hash);
    if (winner?.grantId) await this.store.revokeGrant(winner.grantId, now);
    throw new OAuthProtocolError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked.');
  }

  async refresh(clientId: string, refreshToken: string, scopes: string[] | undefined, resource: string | undefined): Promise<TokenResponse> {
    const now = this.clock.now();
    const hash = opaqueTokenHash(refreshToken);
    const record = await this.store.getRefreshToken(hash);
    const grant = record ? await this.store.getGrant(record.grantId) : null;
    if (!record || !grant || grant.clientId !== clientId) throw new OAuthProtocolError('invalid_grant', 'The refresh token is invalid.');
    if (grant.revokedAt) throw new OAuthProtocolError('invalid_grant', 'The refresh token has been revoked.');
    if (record.usedAt) {
      await this.store.revokeGrant(grant.id, now);
      throw new OAuthProtocolError('invalid_grant', 'The refresh token was already used; every token of this authorization is revoked.');
    }
    if (record.expiresAt <= now) throw new OAuthProtocolError('invalid_grant', 'The refresh token has expired.');
    if (resource !== undefined && this.settings.resource(resource)?.url !== grant.resource) throw new OAuthProtocolError('invalid_target', 'resource does not match the grant.');
    const narrowed = scopes?.filter(Boolean);
    if (narrowed && narrowed.some((s) => !grant.scopes.includes(s as OAuthScope))) throw new OAuthProtocolError('invalid_scope', 'A refresh cannot widen the granted scopes.');
    const user = await this.users.get(grant.organizationId, grant.userId);
    if (!user) throw new OAuthProtocolError('invalid_grant', 'The user of this authorization no longer exists.');
    const issued = await this.uow.run(async () => {
      // Lost a race with another use of the same refresh token: nothing to commit here (null); the
      // family is revoked below, outside this transaction, so the revocation is not rolled back.
      if (!(await this.store.useRefreshToken(hash, now))) return null;
      return this.issue(narrowed && narrowed.length > 0 ? { ...grant, scopes: narrowed as OAuthScope[] } : grant, user.roles);
    });
    if (issued) return issued;
    await this.store.revokeGrant(grant.id, now);
    throw new OAuthProtocolError('invalid_grant', 'The refresh token was already used; every token of this authorization is revoked.');
  }

  private async issue(grant: OAuthGrant, roles: readonly Role[]): Promise<TokenResponse> {
    const signed = await this.tokens.signAccessToken(
      { subject: grant.userId, organizationId: grant.organizationId, roles, clientId: grant.clientId, scopes: grant.scopes, audience: grant.resource, grantId: grant.id },
      this.settings.accessTokenSeconds,
    );
    const refreshToken = randomBytes(32).toString('base64url');
    await this.store.insertRefreshToken({
      tokenHash: opaqueTokenHash(refreshToken),
      grantId: grant.id,
      expiresAt: new Date(this.clock.now().getTime() + this.settings.refreshTokenSeconds * 1000),
      usedAt: null,
    });
    return { access_token: signed.token, token_type: 'bearer', expires_in: signed.expiresAt - signed.issuedAt, refresh_token: refreshToken, scope: grant.scopes.join(' ') };
  }
}

/** RFC 7009: revoking either token of a grant ends the grant. Unknown tokens are not an error. */
@Injectable()
export class RevokeOAuthToken {
  constructor(
    private readonly store: OAuthStore,
    private readonly tokens: TokenService,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
  ) {}

  async execute(clientId: string, token: string): Promise<void> {
    const refresh = await this.store.getRefreshToken(opaqueTokenHash(token));
    let grantId = refresh?.grantId;
    if (!grantId) {
      try {
        grantId = (await this.tokens.verifyAccessToken(token, this.settings.resources.map((r) => r.url))).grantId;
      } catch {
        return;
      }
    }
    const grant = await this.store.getGrant(grantId);
    if (grant && grant.clientId === clientId) await this.store.revokeGrant(grant.id, this.clock.now());
  }
}

/** Resource servers: a valid `at+jwt` for one of their audiences, whose grant is still alive. */
@Injectable()
export class AuthenticateOAuthToken {
  constructor(
    private readonly tokens: TokenService,
    private readonly store: OAuthStore,
  ) {}

  async execute(token: string, audiences: readonly string[]): Promise<Principal & { expiresAt: number; clientId: string }> {
    const claims = await this.tokens.verifyAccessToken(token, audiences);
    let grant: OAuthGrant | null;
    try {
      grant = await this.store.getGrant(claims.grantId);
    } catch (error) {
      throw DomainError.unavailable('AUTH.TOKEN_STORE_UNAVAILABLE', 'Authentication is momentarily unavailable; retry shortly.', { cause: error });
    }
    if (!grant || grant.revokedAt) throw DomainError.unauthenticated('AUTH.INVALID_TOKEN', 'The access token is invalid or expired.');
    return {
      organizationId: claims.organizationId,
      userId: claims.subject,
      roles: claims.roles as Role[],
      credential: { kind: 'oauth_token', id: claims.grantId },
      scopes: claims.scopes,
      expiresAt: claims.expiresAt,
      clientId: claims.clientId,
    };
  }
}

/** The account page: which clients may act for me, and withdrawing one (its tokens stop at once). */
@Injectable()
export class ManageOAuthConsents {
  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    private readonly activity: ActivityLog,
  ) {}

  async list(userId: string) {
    const consents = await this.store.listConsents(userId);
    return consents
      .filter((c) => !c.revokedAt)
      .map((c) => ({ id: c.id, client_id: c.clientId, client_name: c.clientName, scopes: c.scopes, created_at: c.createdAt.toISOString() }));
  }

  async withdraw(actor: Principal, clientId: string): Promise<void> {
    const now = this.clock.now();
    const withdrawn = await this.store.revokeConsent(actor.userId, clientId, now);
    if (!withdrawn) throw DomainError.notFound('AUTH.CONSENT_NOT_FOUND', `No consent for client ${clientId}.`);
    await this.store.revokeGrantsOf(actor.userId, clientId, now);
    await this.activity.record({ organizationId: actor.organizationId, instanceId: null, action: 'identity.oauth.consent-withdrawn', subjectId: clientId, actor, before: null, after: null });
  }
}

/** Thrown inside the exchange's transaction to roll it back when another exchange used the code first. */
class LostCodeRace extends Error {}
