import { EnqueueOptions, JobQueue } from '@svc/kernel';
import type { TypeOrmUnitOfWork } from '@svc/database';
import { normalizeEnqueue } from './enqueue-options';
import type { EnqueueSignal } from './enqueue-signal';
import type { JobTable } from './job-table';

/**
 * JobQueue of the distributed mode. It never talks to Redis: it writes the outbox row, and the
 * OutboxRelay copies committed rows to BullMQ. So an enqueue succeeds while Redis is down, and a job
 * reaches Redis only if the transaction that asked for it committed.
 */
export class BullMqJobQueue extends JobQueue {
  constructor(
    private readonly table: JobTable,
    private readonly unitOfWork: TypeOrmUnitOfWork,
    private readonly signal: EnqueueSignal,
  ) {
    super();
  }

  /**
   * Inserts a queued, unrelayed row with the caller's unit of work and returns its id (the BullMQ job
   * id too). With `dedupeKey`, returns the id of the queued or running job holding that key instead.
   * Throws DomainError `invalid` for a bad name, payload or option. This process's relay wakes at
   * commit; other processes' relays find the row by polling.
   */
  async enqueue<P extends object>(name: string, payload: P, options?: EnqueueOptions): Promise<string> {
    const id = await this.table.insert(normalizeEnqueue(name, payload, options));
    this.signal.enqueued(this.unitOfWork.manager());
    return id;
  }
}
