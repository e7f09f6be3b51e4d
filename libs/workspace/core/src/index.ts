export * from './audit-instance';
export * from './instance.use-cases';
export * from './membership.use-cases';
export * from './workspace.ports';
export * from './audit-documents';
