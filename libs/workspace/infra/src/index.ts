/** The workspace context's public surface: its Nest module and its migrations. Repositories, clients and controllers stay inside. */
export { WorkspaceModule } from './workspace.module';
export { CreateWorkspaceSchema1763700000300 } from './workspace.migration';
export { CreateDocumentRecords1763700000600 } from './document-records.migration';
