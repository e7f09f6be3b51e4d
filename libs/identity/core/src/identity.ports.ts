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

/** Signs and verifies the service's JWTs (asymmetric keys with `kid`, published as a JWKS). */
export abstract class TokenService {
  /** A key-exchange token: `typ` `kx+jwt`, the API audience, the given lifetime. */
  abstract signExchangeToken(claims: AccessTokenClaims, lifetimeSeconds: number): Promise<SignedToken>;
  /** Claims of a valid key-exchange token; throws DomainError `unauthenticated` otherwise. */
  abstract verifyExchangeToken(token: string): Promise<AccessTokenClaims>;
  abstract jwks(): Promise<{ keys: object[] }>;
}
