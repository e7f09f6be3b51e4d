import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, IdGenerator, isGlobalAdmin, Principal, UnitOfWork } from '@svc/kernel';
import { AuthSettings } from './auth-settings';
import type { User } from './identity.model';
import { TokenService, UserRepository } from './identity.ports';

/** A browser login (`ses_`): the cookie token names it, so logout and the absolute maximum hold server side. */
export interface Session {
  id: string;
  userId: string;
  organizationId: string;
  createdAt: Date;
  /** Absolute end, whatever the refreshes. */
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface LoginAccount {
  user: User;
  passwordHash: string | null;
  failedLogins: number;
  lockedUntil: Date | null;
}

/** Memory-hard password hashing; `verify` takes constant time with respect to the stored hash. */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(password: string, hash: string): Promise<boolean>;
}

export abstract class LoginAccountRepository {
  /** People with this e-mail (case-insensitive), across organisations; service accounts never log in. */
  abstract findByEmail(email: string): Promise<LoginAccount[]>;
  abstract setPassword(userId: string, hash: string): Promise<void>;
  /** Counts a failure; locks the account until `lockUntil` when the count reaches `maxFailures`. */
  abstract recordFailure(userId: string, maxFailures: number, lockUntil: Date): Promise<void>;
  abstract clearFailures(userId: string): Promise<void>;
}

/**
 * Failed sign-ins of e-mails that have no account. They are refused like a locked account after as
 * many failures, so the lockout does not tell which e-mails exist. `hit` counts one failure: refused
 * when there were already `limit` within the last `windowSeconds` (then `retryAfterSeconds` ≥ 1).
 */
export abstract class UnknownLoginFailures {
  abstract hit(email: string, limit: number, windowSeconds: number): Promise<{ refused: boolean; retryAfterSeconds: number }>;
}

export abstract class SessionRepository {
  abstract insert(session: Session): Promise<void>;
  abstract get(id: string): Promise<Session | null>;
  abstract revoke(id: string, at: Date): Promise<void>;
}

export interface SessionCookie {
  token: string;
  /** Seconds the browser should keep the cookie: token lifetime plus the refresh grace. */
  maxAgeSeconds: number;
  session: Session;
}

const BAD_LOGIN = () => DomainError.unauthenticated('AUTH.INVALID_LOGIN', 'The e-mail or password is incorrect.');
const LOCKED = (retryAfterSeconds: number) =>
  new DomainError('rate_limited', 'AUTH.ACCOUNT_LOCKED', 'Too many failed sign-ins: this account is locked for a while.', { retryAfterSeconds });
const BAD_SESSION = () => DomainError.unauthenticated('AUTH.INVALID_SESSION', 'The session is invalid, expired or signed out.');
export const MIN_PASSWORD_LENGTH = 12;

/** Issues the cookie token of a session: 15 minutes, never past the session's absolute end. */
@Injectable()
export class SessionTokens {
  constructor(
    private readonly tokens: TokenService,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
  ) {}

  async issue(session: Session, user: User): Promise<SessionCookie> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const end = Math.floor(session.expiresAt.getTime() / 1000);
    const lifetime = Math.max(1, Math.min(this.settings.sessionTokenSeconds, end - now));
    const signed = await this.tokens.signSessionToken({ sessionId: session.id, subject: user.id, organizationId: user.organizationId, roles: user.roles }, lifetime);
    return { token: signed.token, maxAgeSeconds: lifetime + this.settings.refreshGraceSeconds, session };
  }
}

/**
 * The login form: e-mail and password against memory-hard hashes. Failures count per account and
 * lock it for 15 minutes at the configured number; a lock answers 429 with Retry-After whatever
 * the password, so guessing stops. Unknown e-mails cost the same hash work as known ones.
 */
@Injectable()
export class LoginWithPassword {
  private dummyHash?: Promise<string>;

  constructor(
    private readonly accounts: LoginAccountRepository,
    private readonly unknownFailures: UnknownLoginFailures,
    private readonly sessions: SessionRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessionTokens: SessionTokens,
    private readonly settings: AuthSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly activity: ActivityLog,
  ) {}

  async execute(email: string, password: string): Promise<SessionCookie & { user: User }> {
    const now = this.clock.now();
    const normalized = email.trim().toLowerCase();
    const candidates = (await this.accounts.findByEmail(normalized)).filter((a) => a.passwordHash);
    if (candidates.length === 0) {
      this.dummyHash ??= this.hasher.hash('not a real password, timing only');
      await this.hasher.verify(password, await this.dummyHash);
      const counted = normalized ? await this.unknownFailures.hit(normalized, this.settings.maxLoginFailures, this.settings.lockSeconds) : null;
      throw counted?.refused ? LOCKED(counted.retryAfterSeconds) : BAD_LOGIN();
    }
    for (const account of candidates) {
      if (account.lockedUntil && account.lockedUntil > now) {
        throw LOCKED(Math.ceil((account.lockedUntil.getTime() - now.getTime()) / 1000));
      }
    }
    for (const account of candidates) {
      if (!(await this.hasher.verify(password, account.passwordHash as string))) continue;
      await this.accounts.clearFailures(account.user.id);
      const session: Session = {
        id: this.ids.next('ses_'),
        userId: account.user.id,
        organizationId: account.user.organizationId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + this.settings.sessionMaxSeconds * 1000),
        revokedAt: null,
      };
      await this.sessions.insert(session);
      await this.activity.record({ organizationId: session.organizationId, instanceId: null, action: 'identity.session.login', subjectId: session.id, actor: sessionPrincipal(session, account.user), before: null, after: { session_id: session.id } });
      return { ...(await this.sessionTokens.issue(session, account.user)), user: account.user };
    }
    const lockUntil = new Date(now.getTime() + this.settings.lockSeconds * 1000);
    for (const account of candidates) {
      // A lock that has run out starts a new count: one more mistake must not lock the account again.
      if (account.lockedUntil && account.lockedUntil <= now) await this.accounts.clearFailures(account.user.id);
      await this.accounts.recordFailure(account.user.id, this.settings.maxLoginFailures, lockUntil);
    }
    throw BAD_LOGIN();
  }
}

function sessionPrincipal(session: Session, user: User): Principal {
  return { organizationId: user.organizationId, userId: user.id, roles: user.roles, credential: { kind: 'session_cookie', id: session.id } };
}

/**
 * Reads a session from its cookie token: a valid signature and lifetime (plus `graceSeconds` past
 * expiry, for refresh and logout only), an existing session not revoked and not past its absolute end.
 */
@Injectable()
export class ReadSession {
  constructor(
    private readonly tokens: TokenService,
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(token: string, graceSeconds = 0): Promise<{ session: Session; user: User; principal: Principal }> {
    const claims = await this.tokens.verifySessionToken(token, graceSeconds);
    const session = await this.sessions.get(claims.sessionId);
    const now = this.clock.now();
    if (!session || session.revokedAt || session.expiresAt <= now || session.userId !== claims.subject) throw BAD_SESSION();
    const user = await this.users.get(session.organizationId, session.userId);
    if (!user) throw BAD_SESSION();
    return { session, user, principal: sessionPrincipal(session, user) };
  }
}

/** `POST /auth/cookie-refresh`: a cookie up to 5 minutes past expiry buys a new one (same session, fresh roles). */
@Injectable()
export class RefreshSession {
  constructor(
    private readonly read: ReadSession,
    private readonly sessionTokens: SessionTokens,
    private readonly settings: AuthSettings,
  ) {}

  async execute(token: string): Promise<SessionCookie> {
    const { session, user } = await this.read.execute(token, this.settings.refreshGraceSeconds);
    return this.sessionTokens.issue(session, user);
  }
}

/** `POST /auth/cookie-logout`: revokes the session, so every copy of its cookie fails afterwards. */
@Injectable()
export class Logout {
  constructor(
    private readonly read: ReadSession,
    private readonly sessions: SessionRepository,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
    private readonly activity: ActivityLog,
  ) {}

  /** True when a live session was signed out; an absent or dead cookie is already signed out. */
  async execute(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    let found;
    try {
      found = await this.read.execute(token, this.settings.refreshGraceSeconds);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unauthenticated') return false;
      throw error;
    }
    await this.sessions.revoke(found.session.id, this.clock.now());
    await this.activity.record({ organizationId: found.session.organizationId, instanceId: null, action: 'identity.session.logout', subjectId: found.session.id, actor: found.principal, before: null, after: null });
    return true;
  }
}

/** Organisation admins set a member's password (people only; at least 12 characters). */
@Injectable()
export class SetMemberPassword {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: LoginAccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(actor: Principal | null, organizationId: string, userId: string, password: string): Promise<void> {
    if (actor && !isGlobalAdmin(actor.roles)) throw DomainError.forbidden('AUTH.ROLE_NOT_ALLOWED', 'Only organisation admins set passwords.');
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw DomainError.invalid('IDENTITY.PASSWORD_TOO_SHORT', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`, { errors: [{ field: 'password', message: `at least ${MIN_PASSWORD_LENGTH} characters` }] });
    }
    const hash = await this.hasher.hash(password);
    await this.uow.run(async () => {
      const user = await this.users.get(organizationId, userId);
      if (!user) throw DomainError.notFound('IDENTITY.USER_NOT_FOUND', `User ${userId} does not exist.`);
      if (user.kind !== 'person') throw DomainError.invalid('IDENTITY.NOT_A_PERSON', 'Service accounts of API keys cannot sign in with a password.');
      await this.accounts.setPassword(userId, hash);
      await this.accounts.clearFailures(userId);
      await this.activity.record({ organizationId, instanceId: null, action: 'identity.member.set-password', subjectId: userId, actor, before: null, after: null });
    });
  }
}
