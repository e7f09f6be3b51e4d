/** The repository context's public surface: its Nest module and its migrations. Stores, parsers and controllers stay inside. */
export { RepositoryModule } from './repository.module';
export type { RepositoryModuleOptions } from './repository.module';
export { CreateRepositorySchema1763700000200 } from './repository.migration';
export { AddDocumentsAndSemanticNodes1763700000500 } from './documents.migration';
export { CreateSearchLogs1763700000700 } from './search-logs.migration';
export { AddIndexationAttempts1763700002450 } from './indexation-attempts.migration';
