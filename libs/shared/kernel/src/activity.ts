import type { Principal } from './principal';

/** One mutation, as the activity log keeps it: who, with which credential, what, when, before/after. */
export interface ActivityEntry {
  organizationId: string;
  instanceId: string | null;
  action: string;
  subjectId: string | null;
  actor: Principal | null;
  before: unknown;
  after: unknown;
}

/**
 * Append-only log of every mutation. `record` joins the caller's open transaction when there is one,
 * so an entry exists if and only if the change it describes was committed.
 */
export abstract class ActivityLog {
  abstract record(entry: ActivityEntry): Promise<void>;
}
