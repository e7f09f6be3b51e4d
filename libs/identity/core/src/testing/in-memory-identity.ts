import { Clock, DomainError, Page, PageRequest } from '@svc/kernel';
export { FixedClock, ImmediateUnitOfWork, RecordingActivityLog, TestIds } from '@svc/kernel/testing';
import type { ApiKey, Organization, User } from '../identity.model';
import {
  AccessTokenClaims,
  ApiKeyRepository,
  OAuthAccessClaims,
  OrganizationRepository,
  SecretHasher,
  SessionTokenClaims,
  SignedToken,
  TokenService,
  UserRepository,
} from '../identity.ports';
import { AuthorizationCode, OAuthClient, OAuthConsent, OAuthGrant, OAuthStore, RefreshTokenRecord } from '../oauth';
import { LoginAccount, LoginAccountRepository, PasswordHasher, Session, SessionRepository, UnknownLoginFailures } from '../sessions';

/** In-memory fakes of the identity ports, for use-case unit tests. */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly keys = new Map<string, ApiKey>();
  lookups = 0;
  /** Set to make every read fail like an unreachable database. */
  failWith?: Error;

  async insert(key: ApiKey) {
    this.keys.set(key.id, { ...key });
  }
  async findByLookupId(lookupId: string) {
    this.lookups += 1;
    if (this.failWith) throw this.failWith;
    const key = [...this.keys.values()].find((k) => k.lookupId === lookupId);
    return key ? { ...key } : null;
  }
  async get(organizationId: string, id: string) {
    const key = this.keys.get(id);
    return key && key.organizationId === organizationId ? { ...key } : null;
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<ApiKey>> {
    const all = [...this.keys.values()].filter((k) => k.organizationId === organizationId);
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length, ...page };
  }
  async markRevoked(id: string, at: Date) {
    const key = this.keys.get(id);
    if (key) key.revokedAt = at;
  }
  async touchLastUsed(id: string, at: Date) {
    const key = this.keys.get(id);
    if (key) key.lastUsedAt = at;
  }
}

export class InMemoryUserRepository extends UserRepository {
  readonly users = new Map<string, User>();
  async insert(user: User) {
    this.users.set(user.id, { ...user });
  }
  async get(organizationId: string, id: string) {
    const user = this.users.get(id);
    return user && user.organizationId === organizationId ? user : null;
  }
  async findByEmail(organizationId: string, email: string) {
    return [...this.users.values()].find((u) => u.organizationId === organizationId && u.email?.toLowerCase() === email.toLowerCase()) ?? null;
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<User>> {
    const all = [...this.users.values()].filter((u) => u.organizationId === organizationId);
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length, ...page };
  }
}

export class InMemoryOrganizationRepository extends OrganizationRepository {
  readonly organizations: Organization[] = [];
  private installed = false;
  async insert(o: Organization) {
    this.organizations.push(o);
  }
  async get(id: string) {
    return this.organizations.find((o) => o.id === id) ?? null;
  }
  async first() {
    return this.organizations[0] ?? null;
  }
  async claimInstallation() {
    if (this.installed) return false;
    this.installed = true;
    return true;
  }
}

/** Not a hash: enough to tell secrets apart in unit tests. */
export class PlainSecretHasher extends SecretHasher {
  hash(secret: string) {
    return `h:${secret}`;
  }
  matches(secret: string, hash: string) {
    return hash === `h:${secret}`;
  }
}

/** Not memory-hard: tells passwords apart and counts verifications (the timing-equalising work). */
export class PlainPasswordHasher extends PasswordHasher {
  verifications = 0;
  async hash(password: string) {
    return `pw:${password}`;
  }
  async verify(password: string, hash: string) {
    this.verifications += 1;
    return hash === `pw:${password}`;
  }
}

interface Credentials {
  passwordHash: string | null;
  failedLogins: number;
  lockedUntil: Date | null;
}

/** Login state of the people of an InMemoryUserRepository, with the SQL adapter's counting and locking. */
export class InMemoryLoginAccountRepository extends LoginAccountRepository {
  readonly credentials = new Map<string, Credentials>();

  constructor(private readonly users: InMemoryUserRepository) {
    super();
  }

  private of(userId: string): Credentials {
    let c = this.credentials.get(userId);
    if (!c) {
      c = { passwordHash: null, failedLogins: 0, lockedUntil: null };
      this.credentials.set(userId, c);
    }
    return c;
  }

  async findByEmail(email: string): Promise<LoginAccount[]> {
    const wanted = email.toLowerCase();
    return [...this.users.users.values()]
      .filter((u) => u.kind === 'person' && u.email?.toLowerCase() === wanted)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((user) => ({ user, ...this.of(user.id) }));
  }
  async setPassword(userId: string, hash: string) {
    this.of(userId).passwordHash = hash;
  }
  async recordFailure(userId: string, maxFailures: number, lockUntil: Date) {
    const c = this.of(userId);
    c.failedLogins += 1;
    if (c.failedLogins >= maxFailures) c.lockedUntil = lockUntil;
  }
  async clearFailures(userId: string) {
    const c = this.of(userId);
    c.failedLogins = 0;
    c.lockedUntil = null;
  }
}

/** Failures per e-mail in a sliding window on the test clock; only counted (allowed) failures are kept, like the rate limiter. */
export class InMemoryUnknownLoginFailures extends UnknownLoginFailures {
  readonly failures = new Map<string, Date[]>();
  constructor(private readonly clock: Clock) {
    super();
  }
  async hit(email: string, limit: number, windowSeconds: number) {
    const now = this.clock.now().getTime();
    const recent = (this.failures.get(email) ?? []).filter((at) => at.getTime() > now - windowSeconds * 1000);
    if (recent.length >= limit) {
      this.failures.set(email, recent);
      return { refused: true, retryAfterSeconds: Math.max(1, Math.ceil((recent[0].getTime() + windowSeconds * 1000 - now) / 1000)) };
    }
    this.failures.set(email, [...recent, new Date(now)]);
    return { refused: false, retryAfterSeconds: 0 };
  }
}

export class InMemorySessionRepository extends SessionRepository {
  readonly sessions = new Map<string, Session>();
  /** Set to make every read fail like an unreachable database. */
  failWith?: Error;
  async insert(session: Session) {
    this.sessions.set(session.id, { ...session });
  }
  async get(id: string) {
    if (this.failWith) throw this.failWith;
    const s = this.sessions.get(id);
    return s ? { ...s } : null;
  }
  async revoke(id: string, at: Date) {
    const s = this.sessions.get(id);
    if (s && !s.revokedAt) s.revokedAt = at;
  }
}

export type MintedToken =
  | { kind: 'exchange'; claims: AccessTokenClaims; issuedAt: number; expiresAt: number }
  | { kind: 'session'; claims: SessionTokenClaims; issuedAt: number; expiresAt: number }
  | { kind: 'access'; claims: OAuthAccessClaims; issuedAt: number; expiresAt: number };

const BAD_TOKEN = () => DomainError.unauthenticated('AUTH.INVALID_TOKEN', 'The access token is invalid or expired.');

/**
 * Opaque stand-ins for the JWTs, remembered with their claims: the three kinds are never accepted
 * for one another, and a token is valid while `now < exp (+ grace)` on the shared clock, like jose.
 */
export class FakeTokenService extends TokenService {
  readonly minted = new Map<string, MintedToken>();
  private counter = 0;

  constructor(private readonly clock: Clock) {
    super();
  }

  private nowSeconds() {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
  private mint(token: Omit<MintedToken, 'issuedAt' | 'expiresAt'>, lifetimeSeconds: number): SignedToken {
    const issuedAt = this.nowSeconds();
    const expiresAt = issuedAt + lifetimeSeconds;
    this.counter += 1;
    const text = `${token.kind}.${this.counter}`;
    this.minted.set(text, { ...token, issuedAt, expiresAt } as MintedToken);
    return { token: text, issuedAt, expiresAt };
  }
  private live<K extends MintedToken['kind']>(token: string, kind: K, graceSeconds = 0): Extract<MintedToken, { kind: K }> {
    const found = this.minted.get(token);
    if (!found || found.kind !== kind || this.nowSeconds() >= found.expiresAt + graceSeconds) throw BAD_TOKEN();
    return found as Extract<MintedToken, { kind: K }>;
  }
  /** What a minted token says, for assertions; throws for unknown tokens. */
  inspect(token: string): MintedToken {
    const found = this.minted.get(token);
    if (!found) throw new Error(`${token} was not minted by this FakeTokenService`);
    return found;
  }

  async signExchangeToken(claims: AccessTokenClaims, lifetimeSeconds: number) {
    return this.mint({ kind: 'exchange', claims }, lifetimeSeconds);
  }
  async verifyExchangeToken(token: string) {
    return this.live(token, 'exchange').claims;
  }
  async signSessionToken(claims: SessionTokenClaims, lifetimeSeconds: number) {
    return this.mint({ kind: 'session', claims }, lifetimeSeconds);
  }
  async verifySessionToken(token: string, graceSeconds: number) {
    return this.live(token, 'session', graceSeconds).claims;
  }
  async signAccessToken(claims: Omit<OAuthAccessClaims, 'expiresAt'>, lifetimeSeconds: number) {
    const signed = this.mint({ kind: 'access', claims: { ...claims, expiresAt: 0 } }, lifetimeSeconds);
    const minted = this.minted.get(signed.token) as Extract<MintedToken, { kind: 'access' }>;
    minted.claims.expiresAt = signed.expiresAt;
    return signed;
  }
  async verifyAccessToken(token: string, audiences: readonly string[]) {
    const { claims } = this.live(token, 'access');
    if (!audiences.includes(claims.audience)) throw BAD_TOKEN();
    return claims;
  }
  async jwks() {
    return { keys: [] };
  }
}

/** The OAuth tables in memory, with the SQL adapter's single-use and upsert semantics; reads return copies. */
export class InMemoryOAuthStore extends OAuthStore {
  readonly clients = new Map<string, OAuthClient>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly grants = new Map<string, OAuthGrant>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly consents: OAuthConsent[] = [];
  /** Set to make grant reads fail like an unreachable database. */
  failWith?: Error;

  async insertClient(client: OAuthClient) {
    if (this.clients.has(client.clientId)) throw new Error(`duplicate client ${client.clientId}`);
    this.clients.set(client.clientId, structuredClone(client));
  }
  async getClient(clientId: string) {
    const c = this.clients.get(clientId);
    return c ? structuredClone(c) : null;
  }
  async insertCode(code: AuthorizationCode) {
    this.codes.set(code.codeHash, structuredClone(code));
  }
  async getCode(codeHash: string) {
    const c = this.codes.get(codeHash);
    return c ? structuredClone(c) : null;
  }
  async useCode(codeHash: string, at: Date, grantId: string) {
    const c = this.codes.get(codeHash);
    if (!c || c.usedAt) return false;
    c.usedAt = at;
    c.grantId = grantId;
    return true;
  }
  async insertGrant(grant: OAuthGrant) {
    this.grants.set(grant.id, structuredClone(grant));
  }
  async getGrant(id: string) {
    if (this.failWith) throw this.failWith;
    const g = this.grants.get(id);
    return g ? structuredClone(g) : null;
  }
  async revokeGrant(id: string, at: Date) {
    const g = this.grants.get(id);
    if (g && !g.revokedAt) g.revokedAt = at;
  }
  async revokeGrantsOf(userId: string, clientId: string, at: Date) {
    for (const g of this.grants.values()) if (g.userId === userId && g.clientId === clientId && !g.revokedAt) g.revokedAt = at;
  }
  async insertRefreshToken(token: RefreshTokenRecord) {
    this.refreshTokens.set(token.tokenHash, structuredClone(token));
  }
  async getRefreshToken(tokenHash: string) {
    const t = this.refreshTokens.get(tokenHash);
    return t ? structuredClone(t) : null;
  }
  async useRefreshToken(tokenHash: string, at: Date) {
    const t = this.refreshTokens.get(tokenHash);
    if (!t || t.usedAt) return false;
    t.usedAt = at;
    return true;
  }
  async findConsent(userId: string, clientId: string) {
    const c = this.consents.find((x) => x.userId === userId && x.clientId === clientId);
    return c ? structuredClone(c) : null;
  }
  async saveConsent(consent: OAuthConsent) {
    const existing = this.consents.find((x) => x.userId === consent.userId && x.clientId === consent.clientId);
    if (existing) Object.assign(existing, { scopes: [...consent.scopes], createdAt: consent.createdAt, revokedAt: null });
    else this.consents.push(structuredClone(consent));
  }
  async listConsents(userId: string) {
    return this.consents
      .filter((c) => c.userId === userId && this.clients.has(c.clientId))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .map((c) => {
        const name = this.clients.get(c.clientId)?.metadata.client_name;
        return { ...structuredClone(c), clientName: typeof name === 'string' ? name : null };
      });
  }
  async revokeConsent(userId: string, clientId: string, at: Date) {
    const c = this.consents.find((x) => x.userId === userId && x.clientId === clientId && !x.revokedAt);
    if (!c) return false;
    c.revokedAt = at;
    return true;
  }
}
