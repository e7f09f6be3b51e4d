import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentitySchema1763700000100 implements MigrationInterface {
  name = 'CreateIdentitySchema1763700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS identity`);
    await q.query(`CREATE TABLE identity.installation (id int PRIMARY KEY CHECK (id = 1), installed_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE identity.organizations (
      id text PRIMARY KEY, name text NOT NULL, created_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE identity.users (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES identity.organizations(id),
      email text, name text NOT NULL, roles text[] NOT NULL, kind text NOT NULL CHECK (kind IN ('person','service')),
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE UNIQUE INDEX users_org_email ON identity.users (organization_id, lower(email)) WHERE email IS NOT NULL`);
    await q.query(`CREATE INDEX users_org_created ON identity.users (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE identity.api_keys (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES identity.organizations(id),
      user_id text NOT NULL REFERENCES identity.users(id),
      name text NOT NULL, roles text[] NOT NULL,
      lookup_id text NOT NULL UNIQUE, secret_hash text NOT NULL,
      expires_at timestamptz, revoked_at timestamptz, last_used_at timestamptz,
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX api_keys_org_created ON identity.api_keys (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE identity.signing_keys (
      kid text PRIMARY KEY, algorithm text NOT NULL, public_jwk jsonb NOT NULL,
      private_jwk_encrypted text NOT NULL, created_at timestamptz NOT NULL, retired_at timestamptz)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA identity CASCADE`);
  }
}
