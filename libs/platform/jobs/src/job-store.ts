import { PAGINATION } from '@svc/kernel';
import type { TypeOrmUnitOfWork } from '@svc/database';
import type { JobRow, JobState } from './job-table';

/** A job as the rest of the service may see it: no payload, no lock internals. */
export interface JobView {
  id: string;
  name: string;
  state: JobState;
  /** Attempts started so far. */
  attempts: number;
  maxAttempts: number;
  /** 0-100; 100 once completed. */
  progress: number;
  progressMessage: string | null;
  /** The last failure's message (no stack), kept until the job completes. */
  lastError: string | null;
  /** When the job is (or was) due: later than createdAt for delayed jobs and retries. */
  runAt: Date;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface JobListQuery {
  name?: string;
  state?: JobState;
  /** Default 50, at most 1000. */
  limit?: number;
}

const COLUMNS = `id, name, state, attempts, max_attempts, progress, progress_message, last_error,
                 run_at, created_at, updated_at, completed_at`;

/**
 * Read access to jobs, for status endpoints and tests. Reads join the caller's transaction; in the
 * embedded mode a read made while a job's transaction is open waits for it (one connection).
 */
export class JobStore {
  constructor(private readonly unitOfWork: TypeOrmUnitOfWork) {}

  /** The job, or null when no job has this id. */
  async get(jobId: string): Promise<JobView | null> {
    const rows: JobRow[] = await this.unitOfWork.manager().query(`SELECT ${COLUMNS} FROM jobs.jobs WHERE id = $1`, [jobId]);
    return rows.length > 0 ? toView(rows[0]) : null;
  }

  /** The newest jobs first (by creation), optionally of one name and/or state. */
  async list(query: JobListQuery = {}): Promise<JobView[]> {
    const limit = Math.min(Math.max(Math.floor(query.limit ?? PAGINATION.defaultLimit), 1), PAGINATION.maxLimit);
    const rows: JobRow[] = await this.unitOfWork.manager().query(
      `SELECT ${COLUMNS} FROM jobs.jobs
        WHERE ($1::text IS NULL OR name = $1) AND ($2::text IS NULL OR state = $2)
        ORDER BY created_at DESC, id DESC
        LIMIT $3`,
      [query.name ?? null, query.state ?? null, limit],
    );
    return rows.map(toView);
  }
}

function toView(row: JobRow): JobView {
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    progress: row.progress,
    progressMessage: row.progress_message,
    lastError: row.last_error,
    runAt: row.run_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}
