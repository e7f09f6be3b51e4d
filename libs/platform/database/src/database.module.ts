import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { ActivityLog, UnitOfWork } from '@svc/kernel';
import { DataSource } from 'typeorm';
import { CreateActivitySchema1763700000050 } from './activity.migration';
import { PersistenceParts } from './data-source';
import { Database } from './database';
import { TypeOrmUnitOfWork } from './transaction-context';
import { TypeOrmActivityLog } from './typeorm-activity-log';

/** The platform's own tables, always migrated with the contexts' ones. */
export const PLATFORM_MIGRATIONS = [CreateActivitySchema1763700000050];

const OWNS_DATABASE = Symbol('OWNS_DATABASE');

/**
 * The one database of the process (PostgreSQL or embedded PGlite, chosen from config), its unit of
 * work and the activity log. `forRoot` opens and closes it; `forExisting` shares one already open
 * (the standalone process hosts several apps on one embedded database).
 */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    @Inject(Database) private readonly database: Database,
    @Optional() @Inject(OWNS_DATABASE) private readonly owns?: boolean,
  ) {}

  static forRoot(parts: PersistenceParts): DynamicModule {
    return DatabaseModule.with(
      { provide: Database, inject: [APP_CONFIG], useFactory: (config: AppConfig) => Database.open(config, parts) },
      true,
    );
  }

  static forExisting(database: Database): DynamicModule {
    return DatabaseModule.with({ provide: Database, useValue: database }, false);
  }

  private static with(provider: DynamicModule['providers'] extends (infer P)[] | undefined ? P : never, owns: boolean): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        provider,
        { provide: OWNS_DATABASE, useValue: owns },
        { provide: DataSource, inject: [Database], useFactory: (db: Database) => db.dataSource },
        { provide: TypeOrmUnitOfWork, inject: [Database], useFactory: (db: Database) => db.unitOfWork },
        { provide: UnitOfWork, useExisting: TypeOrmUnitOfWork },
        { provide: ActivityLog, useClass: TypeOrmActivityLog },
      ],
      exports: [Database, DataSource, TypeOrmUnitOfWork, UnitOfWork, ActivityLog],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.owns) await this.database.close();
  }
}
