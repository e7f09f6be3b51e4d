import { MigrationInterface, QueryRunner } from 'typeorm';

/** Repository instances, their instance API keys, and the document table's first columns. */
export class CreateRepositorySchema1763700000200 implements MigrationInterface {
  name = 'CreateRepositorySchema1763700000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS repository`);
    await q.query(`CREATE TABLE repository.instances (
      id text PRIMARY KEY, organization_id text NOT NULL, name text NOT NULL, created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX instances_org ON repository.instances (organization_id)`);
    await q.query(`CREATE TABLE repository.instance_api_keys (
      id text PRIMARY KEY, instance_id text NOT NULL REFERENCES repository.instances(id) ON DELETE CASCADE,
      name text NOT NULL, lookup_id text NOT NULL UNIQUE, secret_hash text NOT NULL,
      created_at timestamptz NOT NULL, revoked_at timestamptz)`);
    await q.query(`CREATE TABLE repository.documents (
      id text PRIMARY KEY, instance_id text NOT NULL REFERENCES repository.instances(id) ON DELETE CASCADE,
      name text NOT NULL, url text, state text NOT NULL DEFAULT 'PENDING',
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX documents_instance_state ON repository.documents (instance_id, state)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA repository CASCADE`);
  }
}
