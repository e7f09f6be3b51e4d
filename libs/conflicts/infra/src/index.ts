/** The conflicts context's public surface: its Nest module and its migrations. */
export { ConflictsModule } from './conflicts.module';
export { CreateConflictsSchema1763700000900 } from './conflicts.migration';
