import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from '@svc/kernel';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The unit of work over TypeORM. The open transaction travels in AsyncLocalStorage, so repositories
 * call `manager()` and join it without passing it around. With one connection (the embedded mode),
 * code inside a transaction must not use the DataSource directly: it would wait for itself.
 */
export class TypeOrmUnitOfWork extends UnitOfWork {
  private readonly storage = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.storage.getStore()) return work();
    return this.dataSource.transaction((manager) => this.storage.run(manager, work));
  }

  /** The transaction's manager when one is open, else the DataSource's. */
  manager(): EntityManager {
    return this.storage.getStore() ?? this.dataSource.manager;
  }

  inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }
}
