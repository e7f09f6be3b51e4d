import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import {
  AuthorizationCode,
  LoginAccount,
  LoginAccountRepository,
  OAuthClient,
  OAuthConsent,
  OAuthGrant,
  OAuthStore,
  RefreshTokenRecord,
  Session,
  SessionRepository,
} from '@svc/identity-core';
import type { OAuthScope, Role } from '@svc/kernel';

type Stamp = Date | string | null;
interface UserRow { id: string; organization_id: string; email: string | null; name: string; roles: string[]; kind: 'person' | 'service'; created_at: Stamp; password_hash: string | null; failed_logins: number; locked_until: Stamp }
interface SessionRow { id: string; user_id: string; organization_id: string; created_at: Stamp; expires_at: Stamp; revoked_at: Stamp }
interface ClientRow { client_id: string; secret_hash: string | null; secret_expires_at: string | number | null; metadata: string | OAuthClient['metadata']; created_at: Stamp }
interface CodeRow { code_hash: string; client_id: string; user_id: string; organization_id: string; redirect_uri: string; code_challenge: string; scopes: OAuthScope[]; resource: string; expires_at: Stamp; used_at: Stamp; grant_id: string | null }
interface GrantRow { id: string; client_id: string; user_id: string; organization_id: string; scopes: OAuthScope[]; resource: string; created_at: Stamp; revoked_at: Stamp }
interface RefreshRow { token_hash: string; grant_id: string; expires_at: Stamp; used_at: Stamp }
interface ConsentRow { id: string; user_id: string; client_id: string; scopes: OAuthScope[]; created_at: Stamp; revoked_at: Stamp; client_name?: string | null }
interface CountRow { n: number }

const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

@Injectable()
export class SqlLoginAccountRepository extends LoginAccountRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }
  async findByEmail(email: string): Promise<LoginAccount[]> {
    const rows: UserRow[] = await this.uow
      .manager()
      .query(`SELECT * FROM identity.users WHERE lower(email) = lower($1) AND kind = 'person' ORDER BY created_at, id`, [email]);
    return rows.map((r) => ({
      user: { id: r.id, organizationId: r.organization_id, email: r.email, name: r.name, roles: r.roles as Role[], kind: r.kind, createdAt: date(r.created_at) as Date },
      passwordHash: r.password_hash,
      failedLogins: r.failed_logins,
      lockedUntil: date(r.locked_until),
    }));
  }
  async setPassword(userId: string, hash: string): Promise<void> {
    await this.uow.manager().query(`UPDATE identity.users SET password_hash = $2 WHERE id = $1`, [userId, hash]);
  }
  async recordFailure(userId: string, maxFailures: number, lockUntil: Date): Promise<void> {
    await this.uow.manager().query(
      `UPDATE identity.users SET failed_logins = failed_logins + 1,
         locked_until = CASE WHEN failed_logins + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
       WHERE id = $1`,
      [userId, maxFailures, lockUntil],
    );
  }
  async clearFailures(userId: string): Promise<void> {
    await this.uow.manager().query(`UPDATE identity.users SET failed_logins = 0, locked_until = NULL WHERE id = $1`, [userId]);
  }
}

const toSession = (r: SessionRow): Session => ({
  id: r.id,
  userId: r.user_id,
  organizationId: r.organization_id,
  createdAt: date(r.created_at) as Date,
  expiresAt: date(r.expires_at) as Date,
  revokedAt: date(r.revoked_at),
});

@Injectable()
export class SqlSessionRepository extends SessionRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }
  async insert(s: Session): Promise<void> {
    await this.uow
      .manager()
      .query(`INSERT INTO identity.sessions (id, user_id, organization_id, created_at, expires_at, revoked_at) VALUES ($1,$2,$3,$4,$5,$6)`, [s.id, s.userId, s.organizationId, s.createdAt, s.expiresAt, s.revokedAt]);
  }
  async get(id: string): Promise<Session | null> {
    const rows: SessionRow[] = await this.uow.manager().query(`SELECT * FROM identity.sessions WHERE id = $1`, [id]);
    return rows[0] ? toSession(rows[0]) : null;
  }
  async revoke(id: string, at: Date): Promise<void> {
    await this.uow.manager().query(`UPDATE identity.sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, at]);
  }
}

const toGrant = (r: GrantRow): OAuthGrant => ({
  id: r.id,
  clientId: r.client_id,
  userId: r.user_id,
  organizationId: r.organization_id,
  scopes: r.scopes as OAuthScope[],
  resource: r.resource,
  createdAt: date(r.created_at) as Date,
  revokedAt: date(r.revoked_at),
});

@Injectable()
export class SqlOAuthStore extends OAuthStore {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }
  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }
  async insertClient(c: OAuthClient): Promise<void> {
    await this.q<never>(`INSERT INTO identity.oauth_clients (client_id, secret_hash, secret_expires_at, metadata, created_at) VALUES ($1,$2,$3,$4,$5)`, [
      c.clientId,
      c.secretHash,
      c.secretExpiresAt,
      JSON.stringify(c.metadata),
      c.createdAt,
    ]);
  }
  async getClient(clientId: string): Promise<OAuthClient | null> {
    const [r] = await this.q<ClientRow>(`SELECT * FROM identity.oauth_clients WHERE client_id = $1`, [clientId]);
    if (!r) return null;
    const metadata = typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata;
    return { clientId: r.client_id, secretHash: r.secret_hash, secretExpiresAt: r.secret_expires_at === null ? null : Number(r.secret_expires_at), metadata, createdAt: date(r.created_at) as Date };
  }
  async insertCode(c: AuthorizationCode): Promise<void> {
    await this.q<never>(
      `INSERT INTO identity.oauth_codes (code_hash, client_id, user_id, organization_id, redirect_uri, code_challenge, scopes, resource, expires_at, used_at, grant_id)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
      [c.codeHash, c.clientId, c.userId, c.organizationId, c.redirectUri, c.codeChallenge, c.scopes, c.resource, c.expiresAt, c.usedAt, c.grantId],
    );
  }
  async getCode(codeHash: string): Promise<AuthorizationCode | null> {
    const [r] = await this.q<CodeRow>(`SELECT * FROM identity.oauth_codes WHERE code_hash = $1`, [codeHash]);
    if (!r) return null;
    return {
      codeHash: r.code_hash,
      clientId: r.client_id,
      userId: r.user_id,
      organizationId: r.organization_id,
      redirectUri: r.redirect_uri,
      codeChallenge: r.code_challenge,
      scopes: r.scopes,
      resource: r.resource,
      expiresAt: date(r.expires_at) as Date,
      usedAt: date(r.used_at),
      grantId: r.grant_id,
    };
  }
  async useCode(codeHash: string, at: Date, grantId: string): Promise<boolean> {
    const rows = await this.q<CountRow>(
      `WITH used AS (UPDATE identity.oauth_codes SET used_at = $2, grant_id = $3 WHERE code_hash = $1 AND used_at IS NULL RETURNING 1) SELECT count(*)::int AS n FROM used`,
      [codeHash, at, grantId],
    );
    return rows[0].n === 1;
  }
  async insertGrant(g: OAuthGrant): Promise<void> {
    await this.q<never>(`INSERT INTO identity.oauth_grants (id, client_id, user_id, organization_id, scopes, resource, created_at, revoked_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`, [
      g.id,
      g.clientId,
      g.userId,
      g.organizationId,
      g.scopes,
      g.resource,
      g.createdAt,
      g.revokedAt,
    ]);
  }
  async getGrant(id: string): Promise<OAuthGrant | null> {
    const [r] = await this.q<GrantRow>(`SELECT * FROM identity.oauth_grants WHERE id = $1`, [id]);
    return r ? toGrant(r) : null;
  }
  async revokeGrant(id: string, at: Date): Promise<void> {
    await this.q<never>(`UPDATE identity.oauth_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, at]);
  }
  async revokeGrantsOf(userId: string, clientId: string, at: Date): Promise<void> {
    await this.q<never>(`UPDATE identity.oauth_grants SET revoked_at = $3 WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL`, [userId, clientId, at]);
  }
  async insertRefreshToken(t: RefreshTokenRecord): Promise<void> {
    await this.q<never>(`INSERT INTO identity.oauth_refresh_tokens (token_hash, grant_id, expires_at, used_at) VALUES ($1,$2,$3,$4)`, [t.tokenHash, t.grantId, t.expiresAt, t.usedAt]);
  }
  async getRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null> {
    const [r] = await this.q<RefreshRow>(`SELECT * FROM identity.oauth_refresh_tokens WHERE token_hash = $1`, [tokenHash]);
    return r ? { tokenHash: r.token_hash, grantId: r.grant_id, expiresAt: date(r.expires_at) as Date, usedAt: date(r.used_at) } : null;
  }
  async useRefreshToken(tokenHash: string, at: Date): Promise<boolean> {
    const rows = await this.q<CountRow>(
      `WITH used AS (UPDATE identity.oauth_refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING 1) SELECT count(*)::int AS n FROM used`,
      [tokenHash, at],
    );
    return rows[0].n === 1;
  }
  async findConsent(userId: string, clientId: string): Promise<OAuthConsent | null> {
    const [r] = await this.q<ConsentRow>(`SELECT * FROM identity.oauth_consents WHERE user_id = $1 AND client_id = $2`, [userId, clientId]);
    return r ? { id: r.id, userId: r.user_id, clientId: r.client_id, scopes: r.scopes, createdAt: date(r.created_at) as Date, revokedAt: date(r.revoked_at) } : null;
  }
  async saveConsent(c: OAuthConsent): Promise<void> {
    await this.q<never>(
      `INSERT INTO identity.oauth_consents (id, user_id, client_id, scopes, created_at, revoked_at) VALUES ($1,$2,$3,$4,$5,$6)
       ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = EXCLUDED.scopes, created_at = EXCLUDED.created_at, revoked_at = NULL`,
      [c.id, c.userId, c.clientId, c.scopes, c.createdAt, c.revokedAt],
    );
  }
  async listConsents(userId: string): Promise<Array<OAuthConsent & { clientName: string | null }>> {
    const rows = await this.q<ConsentRow>(
      `SELECT c.*, k.metadata->>'client_name' AS client_name FROM identity.oauth_consents c JOIN identity.oauth_clients k ON k.client_id = c.client_id
       WHERE c.user_id = $1 ORDER BY c.created_at DESC, c.id DESC`,
      [userId],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id, clientId: r.client_id, scopes: r.scopes, createdAt: date(r.created_at) as Date, revokedAt: date(r.revoked_at), clientName: r.client_name ?? null }));
  }
  async revokeConsent(userId: string, clientId: string, at: Date): Promise<boolean> {
    const rows = await this.q<CountRow>(
      `WITH r AS (UPDATE identity.oauth_consents SET revoked_at = $3 WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL RETURNING 1) SELECT count(*)::int AS n FROM r`,
      [userId, clientId, at],
    );
    return rows[0].n === 1;
  }
}
