export * from './jobs';
export * from './audit-operations';
