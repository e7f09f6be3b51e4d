import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexation attempts, so that a large document's nodes are written in many short statements instead of
 * one long transaction (in the embedded mode a transaction holds the only database connection: writing a
 * 10 MiB document's 12,000 nodes and vectors in one blocked every request for over a minute).
 *
 * An attempt (`kx_`) writes its nodes into `semantic_nodes` under its id (`attempt_id`), full-text vector
 * and GIN entry included, while the document's published attempt (`documents.nodes_attempt`) stays the
 * one readers see: every read of nodes matches the two. Publishing is then one short update of the
 * document row; the previous attempt's rows, invisible from that moment, are deleted afterwards.
 * `documents.indexing_attempt` is the attempt that last started: only it may publish, so two attempts
 * of one document never mix their rows. Rows written before this migration have no attempt, like their
 * documents' `nodes_attempt`: they stay visible.
 */
export class AddIndexationAttempts1763700002450 implements MigrationInterface {
  name = 'AddIndexationAttempts1763700002450';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE repository.documents ADD COLUMN nodes_attempt text, ADD COLUMN indexing_attempt text`);
    await q.query(`ALTER TABLE repository.semantic_nodes ADD COLUMN attempt_id text`);
    await q.query(`DROP INDEX repository.semantic_nodes_document`);
    await q.query(`CREATE INDEX semantic_nodes_document ON repository.semantic_nodes (document_id, attempt_id, position)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX repository.semantic_nodes_document`);
    await q.query(`CREATE INDEX semantic_nodes_document ON repository.semantic_nodes (document_id, position)`);
    await q.query(`ALTER TABLE repository.semantic_nodes DROP COLUMN attempt_id`);
    await q.query(`ALTER TABLE repository.documents DROP COLUMN nodes_attempt, DROP COLUMN indexing_attempt`);
  }
}
