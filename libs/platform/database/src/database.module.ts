import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { UnitOfWork } from '@svc/kernel';
import { DataSource } from 'typeorm';
import { PersistenceParts } from './data-source';
import { Database } from './database';
import { TypeOrmUnitOfWork } from './transaction-context';

/**
 * Opens the one database of the process (PostgreSQL or embedded PGlite, chosen from config) with
 * every context's entities and migrations, and closes it last on shutdown.
 */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {}

  static forRoot(parts: PersistenceParts): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: Database,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => Database.open(config, parts),
        },
        { provide: DataSource, inject: [Database], useFactory: (db: Database) => db.dataSource },
        { provide: TypeOrmUnitOfWork, inject: [Database], useFactory: (db: Database) => db.unitOfWork },
        { provide: UnitOfWork, useExisting: TypeOrmUnitOfWork },
      ],
      exports: [Database, DataSource, TypeOrmUnitOfWork, UnitOfWork],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
