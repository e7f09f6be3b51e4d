import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents gain their ingestion fields, their raw content (kept for re-indexation) and their
 * semantic nodes with a full-text index. Vectors live in the vector index's own table.
 */
export class AddDocumentsAndSemanticNodes1763700000500 implements MigrationInterface {
  name = 'AddDocumentsAndSemanticNodes1763700000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE repository.documents
      ADD COLUMN external_id text,
      ADD COLUMN owner text,
      ADD COLUMN extraproperties jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN media_type text NOT NULL DEFAULT 'text/plain',
      ADD COLUMN size_bytes int NOT NULL DEFAULT 0,
      ADD COLUMN content_hash text NOT NULL DEFAULT '',
      ADD COLUMN failure_reason text,
      ADD COLUMN indexed_at timestamptz`);
    await q.query(`UPDATE repository.documents SET external_id = id WHERE external_id IS NULL`);
    await q.query(`ALTER TABLE repository.documents ALTER COLUMN external_id SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX documents_instance_external ON repository.documents (instance_id, external_id)`);
    await q.query(`CREATE INDEX documents_instance_created ON repository.documents (instance_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE repository.document_contents (
      document_id text PRIMARY KEY REFERENCES repository.documents(id) ON DELETE CASCADE,
      content bytea NOT NULL)`);
    await q.query(`CREATE TABLE repository.semantic_nodes (
      id text PRIMARY KEY,
      instance_id text NOT NULL,
      document_id text NOT NULL REFERENCES repository.documents(id) ON DELETE CASCADE,
      position int NOT NULL,
      text text NOT NULL,
      heading_path text[] NOT NULL DEFAULT '{}',
      char_start int NOT NULL,
      char_end int NOT NULL,
      search_vector tsvector NOT NULL)`);
    await q.query(`CREATE INDEX semantic_nodes_document ON repository.semantic_nodes (document_id, position)`);
    await q.query(`CREATE INDEX semantic_nodes_fts ON repository.semantic_nodes USING gin (search_vector)`);
    await q.query(`CREATE INDEX semantic_nodes_instance ON repository.semantic_nodes (instance_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE repository.semantic_nodes`);
    await q.query(`DROP TABLE repository.document_contents`);
    await q.query(`DROP INDEX repository.documents_instance_external`);
    await q.query(`DROP INDEX repository.documents_instance_created`);
    await q.query(`ALTER TABLE repository.documents DROP COLUMN external_id, DROP COLUMN owner, DROP COLUMN extraproperties,
      DROP COLUMN media_type, DROP COLUMN size_bytes, DROP COLUMN content_hash, DROP COLUMN failure_reason, DROP COLUMN indexed_at`);
  }
}
