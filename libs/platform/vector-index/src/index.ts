export * from './exact-scan-vector-index';
export * from './in-memory-vector-index';
export * from './pg-vector-index';
export * from './sql-vector-index';
export * from './vector-index.factory';
export * from './vector-index.migration';
export * from './vector-index.module';
export * from './vector-input';
