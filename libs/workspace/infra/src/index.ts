export * from './workspace.adapters';
export * from './workspace.controller';
export * from './workspace.migration';
export * from './workspace.module';
export * from './workspace.repositories';
export * from './document-records.migration';
export * from './document-records.repository';
export * from './repository-instance-clients';
