export * from './activity.migration';
export * from './data-source';
export * from './database';
export * from './database.module';
export * from './embedded-postgres';
export * from './transaction-context';
export * from './typeorm-activity-log';
export * from './paging';
