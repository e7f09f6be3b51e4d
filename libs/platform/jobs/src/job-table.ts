import { INTERACTIVE_LEAD_SECONDS, newId } from '@svc/kernel';
import type { TypeOrmUnitOfWork } from '@svc/database';
import type { DataSource, EntityManager } from 'typeorm';
import type { NormalizedEnqueue } from './enqueue-options';

export type JobState = 'queued' | 'running' | 'completed' | 'failed';

/** A row of `jobs.jobs` as the driver returns it. */
export interface JobRow {
  id: string;
  name: string;
  payload: object;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_until: Date | null;
  locked_by: string | null;
  dedupe_key: string | null;
  progress: number;
  progress_message: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  relayed_at: Date | null;
}

/** A row the relay copies to BullMQ. `delay_ms` is computed by the database, immune to clock skew. */
export interface UnrelayedJob {
  id: string;
  name: string;
  payload: object;
  max_attempts: number;
  delay_ms: string | number;
  interactive: boolean;
}

const MAX_PROGRESS_MESSAGE_LENGTH = 500;

/** How much earlier than its `run_at` a job ranks: `INTERACTIVE_LEAD_SECONDS` for an interactive one (`flag`: the SQL saying so). */
const rankLead = (flag: string) => `CASE WHEN ${flag} THEN ${INTERACTIVE_LEAD_SECONDS} * interval '1 second' ELSE interval '0' END`;

/** DataSources whose orphans were released: the standalone process may start several runners on one. */
const orphansReleased = new WeakSet<DataSource>();

/**
 * Every statement on `jobs.jobs`, in one place. Statements that change a running job are guarded by
 * `locked_by = <token>`: a worker that lost its claim (lease expired, job redelivered) can neither
 * complete nor fail a job that someone else now owns. UPDATEs are wrapped in a CTE so the driver
 * returns rows for them like for a SELECT.
 *
 * Queries go through `unitOfWork.manager()`: inside a transaction they join it, which the embedded
 * database (one connection) requires. Only live progress deliberately uses the pool.
 */
export class JobTable {
  constructor(
    private readonly unitOfWork: TypeOrmUnitOfWork,
    private readonly dataSource: DataSource,
  ) {}

  private get manager(): EntityManager {
    return this.unitOfWork.manager();
  }

  /**
   * Inserts a queued job in the caller's transaction, or returns the id of the live job (queued or
   * running) that already holds the same dedupe key.
   */
  async insert(job: NormalizedEnqueue): Promise<string> {
    // A live duplicate can finish between the INSERT and the SELECT: then a new row is due, so retry.
    for (let round = 0; round < 3; round += 1) {
      const inserted: { id: string }[] = await this.manager.query(
        `INSERT INTO jobs.jobs (id, name, payload, state, attempts, max_attempts, run_at, dedupe_key,
                               progress, created_at, updated_at, interactive, rank_at)
         VALUES ($1, $2, $3::jsonb, 'queued', 0, $4, now() + $5 * interval '1 millisecond', $6,
                 0, clock_timestamp(), clock_timestamp(), $7, now() + $5 * interval '1 millisecond' - ${rankLead('$7::boolean')})
         ON CONFLICT (dedupe_key) WHERE state IN ('queued', 'running') DO NOTHING
         RETURNING id`,
        [newId('job_'), job.name, job.payloadJson, job.maxAttempts, job.delayMs, job.dedupeKey, job.interactive],
      );
      if (inserted.length > 0) return inserted[0].id;
      const live: { id: string }[] = await this.manager.query(
        `SELECT id FROM jobs.jobs WHERE dedupe_key = $1 AND state IN ('queued', 'running')`,
        [job.dedupeKey],
      );
      if (live.length > 0) return live[0].id;
    }
    throw new Error(`Could not enqueue job "${job.name}": its dedupe key keeps changing owner`);
  }

  /**
   * Claims the first due job among `names` for `lockToken`: a queued job whose time has come, or a
   * running job whose lease expired (its worker died), in `rank_at` order: oldest first, an interactive job
   * ahead of background jobs due up to `INTERACTIVE_LEAD_SECONDS` before it. Counts the attempt at claim time, so a job
   * that crashes its worker still runs out of attempts. SKIP LOCKED lets concurrent runners pass each
   * other instead of queueing on the same row.
   */
  async claimNext(names: string[], lockToken: string, leaseSeconds: number): Promise<JobRow | undefined> {
    const rows: JobRow[] = await this.manager.query(
      `WITH claimed AS (
         UPDATE jobs.jobs
            SET state = 'running', attempts = attempts + 1, locked_by = $1,
                locked_until = now() + $2 * interval '1 second', updated_at = clock_timestamp()
          WHERE id = (
                SELECT id FROM jobs.jobs
                 WHERE name = ANY($3::text[])
                   AND ((state = 'queued' AND run_at <= now())
                     OR (state = 'running' AND (locked_until IS NULL OR locked_until < now())))
                 ORDER BY rank_at, id
                 LIMIT 1
                   FOR UPDATE SKIP LOCKED)
         RETURNING *)
       SELECT * FROM claimed`,
      [lockToken, leaseSeconds, names],
    );
    return rows[0];
  }

  /**
   * Takes a job delivered by BullMQ for `lockToken`. Returns undefined when the row is finished
   * (completed or failed: a redelivery after a crash) or unknown, so the delivery is acknowledged
   * without running the handler again.
   */
  async claimDelivery(id: string, lockToken: string): Promise<JobRow | undefined> {
    const rows: JobRow[] = await this.manager.query(
      `WITH claimed AS (
         UPDATE jobs.jobs
            SET state = 'running', attempts = attempts + 1, locked_by = $2, locked_until = NULL,
                updated_at = clock_timestamp()
          WHERE id = $1 AND state IN ('queued', 'running')
         RETURNING *)
       SELECT * FROM claimed`,
      [id, lockToken],
    );
    return rows[0];
  }

  /**
   * Puts every running job back in the queue, once per DataSource (later calls return 0). Only for
   * the embedded database, before this process runs any job: its lock file guarantees that no other
   * process runs jobs on it, so a running row was left by a dead one.
   */
  async releaseOrphans(): Promise<number> {
    if (orphansReleased.has(this.dataSource)) return 0;
    orphansReleased.add(this.dataSource);
    const rows: { id: string }[] = await this.manager.query(
      `WITH released AS (
         UPDATE jobs.jobs
            SET state = 'queued', locked_by = NULL, locked_until = NULL, run_at = now(),
                rank_at = now() - ${rankLead('interactive')}, updated_at = clock_timestamp()
          WHERE state = 'running'
         RETURNING id)
       SELECT id FROM released`,
    );
    return rows.length;
  }

  /** Extends a lease; false when the claim was lost. */
  async renewLease(id: string, lockToken: string, leaseSeconds: number): Promise<boolean> {
    return this.guardedUpdate(
      `locked_until = now() + $3 * interval '1 second'`,
      [id, lockToken, leaseSeconds],
    );
  }

  /** Marks the job completed; run it in the handler's transaction. False when the claim was lost. */
  async complete(id: string, lockToken: string): Promise<boolean> {
    return this.guardedUpdate(
      `state = 'completed', progress = 100, completed_at = clock_timestamp(), locked_by = NULL,
       locked_until = NULL, last_error = NULL`,
      [id, lockToken],
    );
  }

  /** Schedules the next attempt after a failure. False when the claim was lost. */
  async scheduleRetry(id: string, lockToken: string, delayMs: number, error: string): Promise<boolean> {
    return this.guardedUpdate(
      `state = 'queued', run_at = clock_timestamp() + $3 * interval '1 millisecond',
       rank_at = clock_timestamp() + $3 * interval '1 millisecond' - ${rankLead('interactive')}, last_error = $4, locked_by = NULL, locked_until = NULL`,
      [id, lockToken, delayMs, error],
    );
  }

  /** Gives up on the job. False when the claim was lost. */
  async fail(id: string, lockToken: string, error: string): Promise<boolean> {
    return this.guardedUpdate(
      `state = 'failed', last_error = $3, locked_by = NULL, locked_until = NULL`,
      [id, lockToken, error],
    );
  }

  /**
   * Hands a job back untouched (shutdown): queued again at once, and the attempt it had counted is
   * returned, since the work did not fail.
   */
  async release(id: string, lockToken: string): Promise<boolean> {
    return this.guardedUpdate(
      `state = 'queued', run_at = now(), rank_at = now() - ${rankLead('interactive')}, attempts = GREATEST(attempts - 1, 0),
       locked_by = NULL, locked_until = NULL`,
      [id, lockToken],
    );
  }

  /**
   * Records progress. `live`: on its own pooled connection, committed at once (PostgreSQL); else in
   * the current unit of work (the embedded database's single connection).
   */
  async progress(id: string, lockToken: string, percent: number, message: string | null, live: boolean): Promise<void> {
    const manager = live ? this.dataSource.manager : this.manager;
    const text = message === null ? null : message.slice(0, MAX_PROGRESS_MESSAGE_LENGTH);
    await manager.query(
      `UPDATE jobs.jobs SET progress = $3, progress_message = $4, updated_at = clock_timestamp()
        WHERE id = $1 AND locked_by = $2 AND state = 'running'`,
      [id, lockToken, percent, text],
    );
  }

  /** The live rows not yet copied to BullMQ: interactive ones first, then the oldest. */
  async unrelayed(limit: number): Promise<UnrelayedJob[]> {
    return this.manager.query(
      `SELECT id, name, payload, max_attempts, interactive,
              GREATEST(0, floor(EXTRACT(EPOCH FROM (run_at - now())) * 1000))::bigint AS delay_ms
         FROM jobs.jobs
        WHERE relayed_at IS NULL AND state IN ('queued', 'running')
        ORDER BY interactive DESC, created_at, id
        LIMIT $1`,
      [limit],
    );
  }

  /**
   * Stamps the rows a relay copied to BullMQ. Every process of the BullMQ mode runs a relay and they read the same
   * rows, so two stamps often overlap: each locks its rows in id order first (a plain `UPDATE ... WHERE id = ANY`
   * locks them in whatever order its plan reads them, and two such stamps deadlocked, 40P01, under the soak bench's
   * load), and leaves out the rows another relay has stamped meanwhile.
   */
  async markRelayed(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.manager.query(
      `WITH locked AS (
         SELECT id FROM jobs.jobs WHERE id = ANY($1::text[]) AND relayed_at IS NULL ORDER BY id FOR UPDATE)
       UPDATE jobs.jobs j SET relayed_at = clock_timestamp() FROM locked WHERE j.id = locked.id`,
      [ids],
    );
  }

  private async guardedUpdate(assignments: string, params: unknown[]): Promise<boolean> {
    const rows: { id: string }[] = await this.manager.query(
      `WITH changed AS (
         UPDATE jobs.jobs SET ${assignments}, updated_at = clock_timestamp()
          WHERE id = $1 AND locked_by = $2 AND state = 'running'
         RETURNING id)
       SELECT id FROM changed`,
      params,
    );
    return rows.length > 0;
  }
}
