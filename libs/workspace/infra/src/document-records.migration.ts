import { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit side of documents: who owns each one, and its resolved web URL. */
export class CreateDocumentRecords1763700000600 implements MigrationInterface {
  name = 'CreateDocumentRecords1763700000600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE workspace.document_records (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      document_id text NOT NULL,
      owner_user_id text,
      web_url text,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, document_id))`);
    await q.query(`CREATE INDEX document_records_owner ON workspace.document_records (instance_id, owner_user_id) WHERE owner_user_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workspace.document_records`);
  }
}
