import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The full audit: its conflicts (one per instance and fingerprint, so a contradiction is raised once
 * and an ignored one never again), the claims read per document, the documents changed since the
 * last judgement, and the scans with their chunks (progress, resumption).
 */
export class CreateFullAuditSchema1763700001100 implements MigrationInterface {
  name = 'CreateFullAuditSchema1763700001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS full_audit`);
    await q.query(`CREATE TABLE full_audit.conflicts (
      id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      organization_id text NOT NULL,
      fingerprint text NOT NULL,
      state text NOT NULL CHECK (state IN ('DETECTED', 'REDETECTED', 'MANAGED', 'IGNORED', 'DISAPPEARED')),
      attribute text NOT NULL,
      subject text NOT NULL,
      explanation text NOT NULL,
      excerpts jsonb NOT NULL,
      document_ids text[] NOT NULL,
      compagnon_questions jsonb NOT NULL,
      linked_questions jsonb NOT NULL DEFAULT '[]',
      is_important boolean NOT NULL DEFAULT false,
      answer text,
      compagnon_recommendations jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      answered_at timestamptz,
      managed_at timestamptz,
      absent_since timestamptz,
      version integer NOT NULL DEFAULT 1,
      UNIQUE (instance_id, fingerprint))`);
    await q.query(`CREATE INDEX full_audit_conflicts_list ON full_audit.conflicts (instance_id, state, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX full_audit_conflicts_documents ON full_audit.conflicts USING gin (document_ids)`);
    await q.query(`CREATE TABLE full_audit.document_claims (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      document_id text NOT NULL,
      content_hash text NOT NULL,
      claims jsonb NOT NULL,
      claim_count integer NOT NULL,
      changed_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, document_id))`);
    // The judge's blocks (attribute and subject stem) per document, with how many of its claims are in
    // each: an incremental rescan reads only the documents sharing a block with the changed ones, and
    // the repository's stem frequencies from here.
    await q.query(`CREATE TABLE full_audit.claim_blocks (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      document_id text NOT NULL,
      attribute text NOT NULL,
      stem text NOT NULL,
      claims integer NOT NULL,
      PRIMARY KEY (instance_id, document_id, attribute, stem))`);
    await q.query(`CREATE INDEX full_audit_claim_blocks_stem ON full_audit.claim_blocks (instance_id, stem, attribute)`);
    await q.query(`CREATE TABLE full_audit.dirty_documents (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      document_id text NOT NULL,
      marked_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, document_id))`);
    await q.query(`CREATE TABLE full_audit.scans (
      id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      reason text NOT NULL,
      state text NOT NULL CHECK (state IN ('RUNNING', 'COMPLETED', 'ABANDONED')),
      total integer NOT NULL,
      chunks integer NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      findings integer)`);
    // One running scan per instance: two workers (or the schedule and a change) cannot start two.
    await q.query(`CREATE UNIQUE INDEX full_audit_scans_one_running ON full_audit.scans (instance_id) WHERE state = 'RUNNING'`);
    await q.query(`CREATE INDEX full_audit_scans_instance ON full_audit.scans (instance_id, state, finished_at DESC)`);
    await q.query(`CREATE TABLE full_audit.scan_chunks (
      scan_id text NOT NULL REFERENCES full_audit.scans(id) ON DELETE CASCADE,
      chunk integer NOT NULL,
      PRIMARY KEY (scan_id, chunk))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SCHEMA full_audit CASCADE`);
  }
}

/**
 * How many documents were judged incrementally since the instance's last full judgement: past a share
 * of the repository, the judge's word statistics have moved enough that the whole repository is judged
 * again (a settle, ADR 0040).
 */
export class AddJudgementDrift1763700001700 implements MigrationInterface {
  name = 'AddJudgementDrift1763700001700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE full_audit.judgement_drift (
      instance_id text PRIMARY KEY REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      documents integer NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE full_audit.judgement_drift`);
  }
}

/**
 * Candidates submitted to the model in a Message Batch, until its verdicts are applied: the findings
 * as submitted (in order), the content versions of their documents then, and the fingerprints (a full
 * judgement does not submit a pending candidate twice).
 */
export class AddModelBatches1763700001800 implements MigrationInterface {
  name = 'AddModelBatches1763700001800';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE full_audit.model_batches (
      batch_id text PRIMARY KEY,
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      candidates jsonb NOT NULL,
      candidate_count integer NOT NULL,
      fingerprints text[] NOT NULL,
      content_hashes jsonb NOT NULL,
      submitted_at timestamptz NOT NULL,
      applied_at timestamptz)`);
    await q.query(`CREATE INDEX full_audit_model_batches_pending ON full_audit.model_batches (instance_id) WHERE applied_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE full_audit.model_batches`);
  }
}

/**
 * The model's rejections, so a candidate it judged not to be a contradiction is not sent to it again
 * while its documents are unchanged; and when a batch was last polled.
 */
export class AddModelRejections1763700001900 implements MigrationInterface {
  name = 'AddModelRejections1763700001900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE full_audit.model_batches ADD COLUMN polled_at timestamptz`);
    await q.query(`CREATE TABLE full_audit.model_rejections (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      fingerprint text NOT NULL,
      content_hashes jsonb NOT NULL,
      judged_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, fingerprint))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE full_audit.model_rejections`);
    await q.query(`ALTER TABLE full_audit.model_batches DROP COLUMN polled_at`);
  }
}

/**
 * One finding per disagreement (ADR 0046): a conflict holds the judge's pairs it is made of, through which a
 * later scan finds it again. A conflict stored before is its one pair: its fingerprint and its two documents.
 */
export class AddFindingPairs1763700002100 implements MigrationInterface {
  name = 'AddFindingPairs1763700002100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE full_audit.conflicts ADD COLUMN pairs jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(
      `UPDATE full_audit.conflicts SET pairs = jsonb_build_array(jsonb_build_object('fingerprint', fingerprint, 'documentIds', to_jsonb(document_ids[1:2])))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE full_audit.conflicts DROP COLUMN pairs`);
  }
}

/**
 * Model-led discovery (issue 24 item 3, ADR 0048): the model's statements per passage content, model and prompt
 * version (a rescan of an unchanged repository calls the model for nothing); each document's grounded statements
 * beside its rule-based claims; the model's verdicts on candidate pairs with the content versions they were
 * judged on; and what the model cost each scan, against its budget.
 */
export class AddModelDiscovery1763700002200 implements MigrationInterface {
  name = 'AddModelDiscovery1763700002200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE full_audit.statement_cache (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      content_hash text NOT NULL,
      extractor text NOT NULL,
      statements jsonb NOT NULL,
      read_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, extractor, content_hash))`);
    await q.query(`ALTER TABLE full_audit.document_claims ADD COLUMN model_statements jsonb`);
    await q.query(`CREATE TABLE full_audit.model_verdicts (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      fingerprint text NOT NULL,
      contradiction boolean NOT NULL,
      title text NOT NULL,
      explanation text NOT NULL,
      question text NOT NULL,
      content_hashes jsonb NOT NULL,
      judged_at timestamptz NOT NULL,
      PRIMARY KEY (instance_id, fingerprint))`);
    await q.query(`ALTER TABLE full_audit.scans ADD COLUMN model_calls integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE full_audit.scans ADD COLUMN model_input_tokens bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE full_audit.scans ADD COLUMN model_output_tokens bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE full_audit.scans ADD COLUMN model_stopped text CHECK (model_stopped IN ('budget', 'outage'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['model_stopped', 'model_output_tokens', 'model_input_tokens', 'model_calls']) await q.query(`ALTER TABLE full_audit.scans DROP COLUMN ${column}`);
    await q.query(`DROP TABLE full_audit.model_verdicts`);
    await q.query(`ALTER TABLE full_audit.document_claims DROP COLUMN model_statements`);
    await q.query(`DROP TABLE full_audit.statement_cache`);
  }
}

/**
 * The model budget outside scans (ADR 0048): each instance's discovery calls per UTC day for incremental rescans, so
 * documents arriving one by one after the first scan cost at most FULL_AUDIT_MODEL_BUDGET_CALLS calls a day.
 */
export class AddModelBudgetDays1763700002300 implements MigrationInterface {
  name = 'AddModelBudgetDays1763700002300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE full_audit.model_budget_days (
      instance_id text NOT NULL REFERENCES workspace.audit_instances(id) ON DELETE CASCADE,
      day date NOT NULL,
      calls integer NOT NULL DEFAULT 0,
      input_tokens bigint NOT NULL DEFAULT 0,
      output_tokens bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (instance_id, day))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE full_audit.model_budget_days`);
  }
}
