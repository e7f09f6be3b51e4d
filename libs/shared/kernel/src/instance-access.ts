import { DomainError } from './domain-error';
import { isGlobalAdmin, Role } from './roles';

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

/** An audit instance that does not exist, or not in the caller's organisation (the same 404, so ids of other organisations are not confirmed). */
export function auditInstanceNotFound(instanceId: string): DomainError {
  return DomainError.notFound('WORKSPACE.INSTANCE_NOT_FOUND', `Audit instance ${instanceId} does not exist.`);
}

/**
 * The access a caller with these roles has to an instance where they stand so (the authorizer's, for one
 * instance; the dashboard's, for each): `isAdmin` for instance admins and global admins.
 */
export function instanceAccessOf<I>(roles: readonly Role[], standing: { instanceId: string; organizationId: string; isMember: boolean; isInstanceAdmin: boolean; instance: I }): InstanceAccess<I> {
  const { instanceId, organizationId, isMember, isInstanceAdmin, instance } = standing;
  return { instanceId, organizationId, isMember, isInstanceAdmin, isAdmin: isGlobalAdmin(roles) || isInstanceAdmin, instance };
}
