import { EnqueueOptions, JobQueue } from '@svc/kernel';
import type { TypeOrmUnitOfWork } from '@svc/database';
import { normalizeEnqueue } from './enqueue-options';
import type { EnqueueSignal } from './enqueue-signal';
import type { JobTable } from './job-table';

/**
 * JobQueue over the `jobs.jobs` table, processed by DatabaseJobRunner: the embedded default, and the
 * PostgreSQL mode without Redis.
 */
export class DatabaseJobQueue extends JobQueue {
  constructor(
    private readonly table: JobTable,
    private readonly unitOfWork: TypeOrmUnitOfWork,
    private readonly signal: EnqueueSignal,
  ) {
    super();
  }

  /**
   * Inserts a queued row with the caller's unit of work (so it commits or rolls back with the state
   * change that asked for it) and returns its id. With `dedupeKey`, returns the id of the queued or
   * running job holding that key instead of inserting. Throws DomainError `invalid` for a bad name,
   * payload or option. Runners in this process wake when the row becomes visible.
   */
  async enqueue<P extends object>(name: string, payload: P, options?: EnqueueOptions): Promise<string> {
    const id = await this.table.insert(normalizeEnqueue(name, payload, options));
    this.signal.enqueued(this.unitOfWork.manager());
    return id;
  }
}
