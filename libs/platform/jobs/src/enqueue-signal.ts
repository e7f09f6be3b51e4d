import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';

const signals = new WeakMap<DataSource, EnqueueSignal>();

/**
 * Tells this process's runners (or relays) that a job was enqueued, once it is visible: at once for
 * an enqueue outside a transaction, at commit for one inside (nothing on rollback). It saves a poll
 * interval of latency; correctness never depends on it, since runners also poll and other processes
 * never hear it. One per DataSource, so that in the standalone process the audit app's enqueues wake
 * the workers app's runner (both hold the same Database).
 */
export class EnqueueSignal {
  private readonly listeners = new Set<() => void>();
  private readonly pending = new WeakSet<QueryRunner>();
  private readonly subscriber: EntitySubscriberInterface;

  /** The signal of `dataSource`, created on first use; it lives as long as the DataSource. */
  static of(dataSource: DataSource): EnqueueSignal {
    let signal = signals.get(dataSource);
    if (!signal) {
      signal = new EnqueueSignal(dataSource);
      signals.set(dataSource, signal);
    }
    return signal;
  }

  private constructor(dataSource: DataSource) {
    // TypeORM broadcasts transaction events to the DataSource's subscribers read at broadcast time,
    // so a subscriber added after initialization takes part.
    this.subscriber = {
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        // Savepoint releases broadcast too; only the outermost commit makes the row visible.
        if (event.queryRunner.isTransactionActive || !this.pending.has(event.queryRunner)) return;
        this.pending.delete(event.queryRunner);
        this.fire();
      },
      afterTransactionRollback: (event: TransactionRollbackEvent) => {
        if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
      },
    };
    dataSource.subscribers.push(this.subscriber);
  }

  /** Call after inserting a job with `manager` (the unit of work's current manager). */
  enqueued(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.pending.add(runner);
    else this.fire();
  }

  /** Registers a wake-up callback; returns its removal. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private fire(): void {
    for (const listener of this.listeners) listener();
  }
}
