import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWorkspaceSchema1763700000300 implements MigrationInterface {
  name = 'CreateWorkspaceSchema1763700000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS workspace`);
    await q.query(`CREATE TABLE workspace.audit_instances (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      name text NOT NULL,
      step text NOT NULL,
      configuration jsonb NOT NULL,
      version int NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX audit_instances_org_created ON workspace.audit_instances (organization_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE workspace.instance_members (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      user_id text NOT NULL,
      is_admin boolean NOT NULL,
      added_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, user_id))`);
    await q.query(`CREATE INDEX instance_members_user ON workspace.instance_members (user_id)`);
    await q.query(`CREATE TABLE workspace.repository_links (
      instance_id text PRIMARY KEY REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      svc_instance_id text NOT NULL,
      api_key_sealed text NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA workspace CASCADE`);
  }
}
