/** The workspace context's public surface: its Nest module, its migrations and the registry of REPOSITORY_CLIENT adapters. Repositories, clients and controllers stay inside. */
export { WorkspaceModule } from './workspace.module';
export { CreateWorkspaceSchema1763700000300 } from './workspace.migration';
export { CreateDocumentRecords1763700000600 } from './document-records.migration';
export { REPOSITORY_CLIENTS } from './repository-client.registry';
