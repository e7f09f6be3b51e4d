import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable job table. It is the outbox in every mode: a job row is inserted in the transaction of
 * the state change that asked for it. In the database mode the runner claims rows from it directly;
 * in the BullMQ mode the relay copies rows to Redis (`relayed_at`) and workers report back into it.
 */
export class CreateJobsSchema1763700000000 implements MigrationInterface {
  name = 'CreateJobsSchema1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SCHEMA IF NOT EXISTS jobs');
    await q.query(`
      CREATE TABLE jobs.jobs (
        id               text PRIMARY KEY,
        name             text NOT NULL,
        payload          jsonb NOT NULL,
        state            text NOT NULL DEFAULT 'queued'
                         CHECK (state IN ('queued', 'running', 'completed', 'failed')),
        attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        max_attempts     integer NOT NULL CHECK (max_attempts >= 1),
        run_at           timestamptz NOT NULL,
        locked_until     timestamptz NULL,
        locked_by        text NULL,
        dedupe_key       text NULL,
        progress         integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        progress_message text NULL,
        last_error       text NULL,
        created_at       timestamptz NOT NULL,
        updated_at       timestamptz NOT NULL,
        completed_at     timestamptz NULL,
        relayed_at       timestamptz NULL
      )`);
    // One live job per dedupe key; finished jobs keep their key for history without blocking new ones.
    await q.query(`
      CREATE UNIQUE INDEX jobs_dedupe_key_live_uq ON jobs.jobs (dedupe_key)
      WHERE state IN ('queued', 'running')`);
    // The runner's claim: due queued jobs, and running jobs whose lease has expired (worker died).
    await q.query(`CREATE INDEX jobs_due_idx ON jobs.jobs (run_at) WHERE state = 'queued'`);
    await q.query(`CREATE INDEX jobs_lease_idx ON jobs.jobs (locked_until) WHERE state = 'running'`);
    // The BullMQ relay: rows not yet copied to Redis.
    await q.query(`
      CREATE INDEX jobs_unrelayed_idx ON jobs.jobs (created_at)
      WHERE relayed_at IS NULL AND state IN ('queued', 'running')`);
    // JobStore.list, newest first, optionally filtered by name or state.
    await q.query('CREATE INDEX jobs_name_created_idx ON jobs.jobs (name, created_at DESC)');
    await q.query('CREATE INDEX jobs_state_created_idx ON jobs.jobs (state, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP SCHEMA jobs CASCADE');
  }
}

/**
 * Interactive jobs first (issue 25): `interactive` marks a job a person waits for, and `rank_at` is the order
 * the runner claims due jobs in: `run_at`, less `INTERACTIVE_LEAD_SECONDS` for an interactive job. Kept beside
 * `run_at` wherever that changes (an expression over it could not be indexed: timestamptz arithmetic is not
 * immutable).
 */
export class AddJobPriority1763700002000 implements MigrationInterface {
  name = 'AddJobPriority1763700002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs.jobs ADD COLUMN interactive boolean NOT NULL DEFAULT false');
    await q.query('ALTER TABLE jobs.jobs ADD COLUMN rank_at timestamptz NULL');
    await q.query('UPDATE jobs.jobs SET rank_at = run_at');
    await q.query('ALTER TABLE jobs.jobs ALTER COLUMN rank_at SET NOT NULL');
    await q.query(`CREATE INDEX jobs_due_rank_idx ON jobs.jobs (rank_at, id) WHERE state = 'queued'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX jobs.jobs_due_rank_idx');
    await q.query('ALTER TABLE jobs.jobs DROP COLUMN rank_at, DROP COLUMN interactive');
  }
}

/** Migrations of the jobs platform, to list in `DatabaseModule.forRoot({ migrations })`. */
export const JOBS_MIGRATIONS = [CreateJobsSchema1763700000000, AddJobPriority1763700002000];
