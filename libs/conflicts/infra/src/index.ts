/** The conflicts context's public surface: its Nest module and its migrations. */
export { ConflictsModule } from './conflicts.module';
export { AddAppliedRecommendations1763700001400, AddStatsIndexes1763700001600, CreateConflictsSchema1763700000900 } from './conflicts.migration';
