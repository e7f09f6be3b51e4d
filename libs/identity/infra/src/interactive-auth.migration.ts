import { MigrationInterface, QueryRunner } from 'typeorm';

/** Passwords and lockout on users, browser sessions, and the OAuth 2.1 authorization server's tables. */
export class AddInteractiveAuth1763700000800 implements MigrationInterface {
  name = 'AddInteractiveAuth1763700000800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.users
      ADD COLUMN password_hash text,
      ADD COLUMN failed_logins int NOT NULL DEFAULT 0,
      ADD COLUMN locked_until timestamptz`);
    await q.query(`CREATE INDEX users_email ON identity.users (lower(email)) WHERE email IS NOT NULL`);
    await q.query(`CREATE TABLE identity.sessions (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES identity.users(id),
      organization_id text NOT NULL REFERENCES identity.organizations(id),
      created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, revoked_at timestamptz)`);
    await q.query(`CREATE TABLE identity.oauth_clients (
      client_id text PRIMARY KEY, secret_hash text, secret_expires_at bigint,
      metadata jsonb NOT NULL, created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE identity.oauth_grants (
      id text PRIMARY KEY,
      client_id text NOT NULL REFERENCES identity.oauth_clients(client_id),
      user_id text NOT NULL REFERENCES identity.users(id),
      organization_id text NOT NULL REFERENCES identity.organizations(id),
      scopes text[] NOT NULL, resource text NOT NULL,
      created_at timestamptz NOT NULL, revoked_at timestamptz)`);
    await q.query(`CREATE INDEX oauth_grants_user_client ON identity.oauth_grants (user_id, client_id)`);
    await q.query(`CREATE TABLE identity.oauth_codes (
      code_hash text PRIMARY KEY,
      client_id text NOT NULL REFERENCES identity.oauth_clients(client_id),
      user_id text NOT NULL REFERENCES identity.users(id),
      organization_id text NOT NULL REFERENCES identity.organizations(id),
      redirect_uri text NOT NULL, code_challenge text NOT NULL, scopes text[] NOT NULL, resource text NOT NULL,
      expires_at timestamptz NOT NULL, used_at timestamptz, grant_id text REFERENCES identity.oauth_grants(id))`);
    await q.query(`CREATE TABLE identity.oauth_refresh_tokens (
      token_hash text PRIMARY KEY,
      grant_id text NOT NULL REFERENCES identity.oauth_grants(id),
      expires_at timestamptz NOT NULL, used_at timestamptz)`);
    await q.query(`CREATE TABLE identity.oauth_consents (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES identity.users(id),
      client_id text NOT NULL REFERENCES identity.oauth_clients(client_id),
      scopes text[] NOT NULL, created_at timestamptz NOT NULL, revoked_at timestamptz,
      UNIQUE (user_id, client_id))`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['oauth_consents', 'oauth_refresh_tokens', 'oauth_codes', 'oauth_grants', 'oauth_clients', 'sessions']) await q.query(`DROP TABLE identity.${t}`);
    await q.query(`ALTER TABLE identity.users DROP COLUMN password_hash, DROP COLUMN failed_logins, DROP COLUMN locked_until`);
  }
}
