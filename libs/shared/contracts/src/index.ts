export * from './jobs';
export * from './version';
export * from './audit-operations';
export * from './response-shapes';
