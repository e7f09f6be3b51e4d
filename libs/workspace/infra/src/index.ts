export * from './workspace.adapters';
export * from './workspace.controller';
export * from './workspace.migration';
export * from './workspace.module';
export * from './workspace.repositories';
