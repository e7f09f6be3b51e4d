export * from './jobs';
export * from './version';
export * from './audit-operations';
