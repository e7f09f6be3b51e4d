import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Missing subjects: the subjects (with their profile, the mean of their questions' TF-IDF vectors),
 * their questions (`msq_`, with the vector each joined with and the expert's answer), and each
 * instance's term statistics.
 */
export class CreateMissingSubjectsSchema1763700001300 implements MigrationInterface {
  name = 'CreateMissingSubjectsSchema1763700001300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS missing_subjects`);
    await q.query(`CREATE TABLE missing_subjects.subjects (
      id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      organization_id text NOT NULL,
      label text NOT NULL,
      state text NOT NULL CHECK (state IN ('PENDING', 'MANAGED', 'IGNORED')),
      profile jsonb NOT NULL,
      question_count integer NOT NULL,
      proposition text,
      proposition_key text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      version integer NOT NULL DEFAULT 1)`);
    await q.query(`CREATE INDEX missing_subjects_list ON missing_subjects.subjects (instance_id, created_at DESC, id DESC)`);
    await q.query(`CREATE TABLE missing_subjects.questions (
      id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      subject_id text NOT NULL REFERENCES missing_subjects.subjects(id) ON DELETE CASCADE,
      text text NOT NULL,
      source text NOT NULL,
      source_ref text NOT NULL,
      terms jsonb NOT NULL,
      vector jsonb NOT NULL,
      answer text,
      answered_at timestamptz,
      created_at timestamptz NOT NULL)`);
    await q.query(`CREATE INDEX missing_subjects_questions_subject ON missing_subjects.questions (subject_id, created_at, id)`);
    await q.query(`CREATE INDEX missing_subjects_questions_source ON missing_subjects.questions (instance_id, source_ref)`);
    await q.query(`CREATE TABLE missing_subjects.term_statistics (
      instance_id text PRIMARY KEY REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      statistics jsonb NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA IF EXISTS missing_subjects CASCADE`);
  }
}
