import type { Page, PageRequest } from '@svc/kernel';
import type { ApiKey, Organization, User } from './identity.model';

export abstract class OrganizationRepository {
  abstract insert(organization: Organization): Promise<void>;
  abstract get(id: string): Promise<Organization | null>;
  abstract first(): Promise<Organization | null>;
  /** Claims the one-time installation; true for the single caller that wins, even under races. */
  abstract claimInstallation(): Promise<boolean>;
}

export abstract class UserRepository {
  abstract insert(user: User): Promise<void>;
  abstract get(organizationId: string, id: string): Promise<User | null>;
  abstract findByEmail(organizationId: string, email: string): Promise<User | null>;
  /** Newest first, ties by id. */
  abstract list(organizationId: string, page: PageRequest): Promise<Page<User>>;
}

export abstract class ApiKeyRepository {
  abstract insert(key: ApiKey): Promise<void>;
  abstract findByLookupId(lookupId: string): Promise<ApiKey | null>;
  abstract get(organizationId: string, id: string): Promise<ApiKey | null>;
  abstract list(organizationId: string, page: PageRequest): Promise<Page<ApiKey>>;
  abstract markRevoked(id: string, at: Date): Promise<void>;
  /** Best effort, may be throttled by the adapter; never fails the caller's request. */
  abstract touchLastUsed(id: string, at: Date): Promise<void>;
}

/** Keyed hashing of secrets (pepper from configuration), with a constant-time comparison. */
export abstract class SecretHasher {
  abstract hash(secret: string): string;
  abstract matches(secret: string, hash: string): boolean;
}

export interface AccessTokenClaims {
  subject: string;
  organizationId: string;
  roles: readonly string[];
  /** The credential the token was minted from (API key id). */
  credentialId: string;
}

export interface SignedToken {
  token: string;
  issuedAt: number;
  expiresAt: number;
}

export interface SessionTokenClaims {
  sessionId: string;
  subject: string;
  organizationId: string;
  roles: readonly string[];
}

export interface OAuthAccessClaims {
  subject: string;
  organizationId: string;
  roles: readonly string[];
  clientId: string;
  scopes: readonly string[];
  /** The protected resource the token is for (its `aud`). */
  audience: string;
  /** The grant (token family) the token belongs to: revoking it kills the token at once. */
  grantId: string;
  expiresAt: number;
}

/**
 * Signs and verifies the service's JWTs (asymmetric keys with `kid`, published as a JWKS). Three
 * kinds, each with its own `typ` and `aud`, never accepted in place of one another.
 */
export abstract class TokenService {
  /** A key-exchange token: `typ` `kx+jwt`, the API audience, the given lifetime. */
  abstract signExchangeToken(claims: AccessTokenClaims, lifetimeSeconds: number): Promise<SignedToken>;
  /** Claims of a valid key-exchange token; throws DomainError `unauthenticated` otherwise. */
  abstract verifyExchangeToken(token: string): Promise<AccessTokenClaims>;
  /** A session cookie token: `typ` `session+jwt`, the session audience, a `sid` claim. */
  abstract signSessionToken(claims: SessionTokenClaims, lifetimeSeconds: number): Promise<SignedToken>;
  /** Claims of a valid session token, accepting it up to `graceSeconds` past expiry (refresh only). */
  abstract verifySessionToken(token: string, graceSeconds: number): Promise<SessionTokenClaims>;
  /** An OAuth access token (RFC 9068): `typ` `at+jwt`, `aud` = the resource URL. */
  abstract signAccessToken(claims: Omit<OAuthAccessClaims, 'expiresAt'>, lifetimeSeconds: number): Promise<SignedToken>;
  /** Claims of a valid access token whose audience is one of `audiences`; 401 otherwise. */
  abstract verifyAccessToken(token: string, audiences: readonly string[]): Promise<OAuthAccessClaims>;
  abstract jwks(): Promise<{ keys: object[] }>;
}
