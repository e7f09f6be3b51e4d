import { EnqueueOptions, JobQueue } from '@svc/kernel';
import type { TypeOrmUnitOfWork } from '@svc/database';
import { normalizeEnqueue } from './enqueue-options';
import type { EnqueueSignal } from './enqueue-signal';
import type { JobTable } from './job-table';

/**
 * The one JobQueue of both modes: enqueueing writes a row of the `jobs.jobs` outbox and nothing else.
 * Who consumes it is the mode's business: the DatabaseJobRunner claims rows directly; the OutboxRelay
 * copies committed rows to BullMQ. So an enqueue succeeds while Redis is down, and a job exists only
 * if the transaction that asked for it committed.
 */
export class OutboxJobQueue extends JobQueue {
  constructor(
    private readonly table: JobTable,
    private readonly unitOfWork: TypeOrmUnitOfWork,
    private readonly signal: EnqueueSignal,
  ) {
    super();
  }

  /**
   * Inserts a queued row with the caller's unit of work (so it commits or rolls back with the state
   * change that asked for it) and returns its id, which is also the BullMQ job id. With `dedupeKey`,
   * returns the id of the queued or running job holding that key instead of inserting. Throws
   * DomainError `invalid` for a bad name, payload or option. This process's runner or relay wakes at
   * commit; other processes find the row by polling.
   */
  async enqueueUntyped(name: string, payload: object, options?: EnqueueOptions): Promise<string> {
    const id = await this.table.insert(normalizeEnqueue(name, payload, options));
    this.signal.enqueued(this.unitOfWork.manager());
    return id;
  }
}
