import { MigrationInterface, QueryRunner } from 'typeorm';

/** Mandatory questions: text, state, expert answer, what the last analysis read, and the version column. */
export class CreateMandatoryQuestionsSchema1763700001000 implements MigrationInterface {
  name = 'CreateMandatoryQuestionsSchema1763700001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS questions`);
    await q.query(`CREATE TABLE questions.mandatory_questions (
      id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      organization_id text NOT NULL,
      question text NOT NULL,
      state text NOT NULL CHECK (state IN ('PENDING', 'ANALYZING', 'CONFLICTS', 'NO_CONFLICT', 'REFUSED', 'MANAGED', 'IGNORED')),
      answer text,
      companion_questions jsonb NOT NULL DEFAULT '[]',
      retrieved_document_ids text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      analyzed_at timestamptz,
      version integer NOT NULL DEFAULT 1)`);
    await q.query(`CREATE INDEX mandatory_questions_list ON questions.mandatory_questions (instance_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX mandatory_questions_state ON questions.mandatory_questions (instance_id, state)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA questions CASCADE`);
  }
}
