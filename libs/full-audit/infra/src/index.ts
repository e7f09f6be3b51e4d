/** The full-audit context's public surface: its Nest module and its migrations. */
export { FullAuditModule } from './full-audit.module';
export { AddFindingPairs1763700002100, AddModelDiscovery1763700002200, AddModelBudgetDays1763700002300, AddJudgementDrift1763700001700, AddModelBatches1763700001800, AddModelRejections1763700001900, CreateFullAuditSchema1763700001100 } from './full-audit.migration';
