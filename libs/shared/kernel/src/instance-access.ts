/**
 * The caller's standing on one audit instance, established once per request by the authorizer (one
 * read of the instance and the caller's membership) and handed to the use case, which never loads
 * the instance again. `I` is the instance record of the context that owns instances (workspace).
 */
export interface InstanceAccess<I = unknown> {
  instanceId: string;
  organizationId: string;
  /** The caller is a member of the instance. */
  isMember: boolean;
  /** The caller's membership is an admin one (global admins aside). */
  isInstanceAdmin: boolean;
  /** Instance admin or global admin: administers the instance and sees all of it. */
  isAdmin: boolean;
  /** The instance as read for this request. */
  instance: I;
}
