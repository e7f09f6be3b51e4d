import type { DailyCounters, DashboardCounters, FilteredStats, VisibleDocuments } from './stats';

/**
 * The counts behind the stats, read from the audit contexts' tables and the activity log (the stats
 * context may read them, read-only, from its infra: ARCHITECTURE.md §3). `visible` restricts what is
 * document-bound (conflicts, recommendations, clusters) to those documents.
 */
export abstract class StatsReadModel {
  /** Every field of the filtered stats record but `total_documents` (the repository counts documents). */
  abstract filtered(instanceId: string, visible: VisibleDocuments): Promise<Omit<FilteredStats, 'total_documents'>>;
  /**
   * The activity counters per UTC day (YYYY-MM-DD) within [from, toExclusive); days with nothing
   * counted may be absent. `userId` null counts everyone; else what that user did, and the conflicts
   * detected on the questions they created.
   */
  abstract daily(instanceId: string, from: Date, toExclusive: Date, userId: string | null, visible: VisibleDocuments): Promise<Map<string, DailyCounters>>;
  /** The dashboard counters of each instance, in one read whatever their number. */
  abstract dashboard(scopes: { instanceId: string; visible: VisibleDocuments }[]): Promise<Map<string, DashboardCounters>>;
}
