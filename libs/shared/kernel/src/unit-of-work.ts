/**
 * A transaction boundary for use cases. Work run inside `run` commits or rolls back as one:
 * repository writes, activity entries and enqueued jobs (the outbox) alike. Nested calls join the
 * outer transaction.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
