/** The full-audit context's public surface: its Nest module and its migration. */
export { FullAuditModule } from './full-audit.module';
export { CreateFullAuditSchema1763700001100 } from './full-audit.migration';
