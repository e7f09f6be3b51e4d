import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateActivitySchema1763700000050 implements MigrationInterface {
  name = 'CreateActivitySchema1763700000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS activity`);
    await q.query(`CREATE TABLE activity.entries (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      instance_id text,
      action text NOT NULL,
      subject_id text,
      actor_user_id text,
      credential_kind text,
      credential_id text,
      before jsonb,
      after jsonb,
      occurred_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX entries_instance_time ON activity.entries (instance_id, occurred_at)`);
    await q.query(`CREATE INDEX entries_org_time ON activity.entries (organization_id, occurred_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA activity CASCADE`);
  }
}
