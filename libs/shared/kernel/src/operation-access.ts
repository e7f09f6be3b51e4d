import type { AuditOperationName } from '@svc/contracts';
import { isGlobalAdmin, isOrganizationWide, Permission, Role } from './roles';

/**
 * Where the caller must stand on the instance the body names (`instance_id`):
 * - `none`: the operation names no instance;
 * - `member`: member of the instance, or a role that sees every instance of the organisation
 *   (ADMIN, AUTHORITY_MANAGER);
 * - `admin`: admin of the instance, or global admin (ADMIN).
 */
export type InstanceRequirement = 'none' | 'member' | 'admin';

/** Who may call an operation: the roles of a permission class, and a standing on the instance (ADR 0028). */
export interface AccessRule {
  permission: Permission;
  instance: InstanceRequirement;
}

/** Operations served under /audit that the spec does not list (each has its ADR). */
export const AUDIT_EXTENSIONS = ['audit_instance_create'] as const;
export type AuditExtensionName = (typeof AUDIT_EXTENSIONS)[number];

const read: AccessRule = { permission: 'read', instance: 'member' };
const resolve: AccessRule = { permission: 'resolve', instance: 'member' };
const govern: AccessRule = { permission: 'govern', instance: 'member' };
const membership: AccessRule = { permission: 'membership', instance: 'admin' };

/**
 * The role matrix of the audit API (BEHAVIOUR.md §3, decided in ADR 0028): one rule per operation,
 * the 48 of the spec (implemented or not yet) and the extensions. `@AuditOperation` takes its
 * permission and instance requirement from here, the authorizer applies them, and the role-matrix
 * e2e test derives what every role may do from this table.
 */
export const AUDIT_ACCESS: Readonly<Record<AuditOperationName | AuditExtensionName, AccessRule>> = {
  // Question conflicts
  audit_question_conflict_list: read,
  audit_question_conflict_get: read,
  audit_question_conflict_set_answer: resolve,
  audit_question_conflict_close: resolve,
  audit_question_conflict_ignore: resolve,
  audit_conflict_get_top_collaborators: read,
  // Full audit
  audit_full_audit_conflict_list: read,
  audit_full_audit_have_to_show: read,
  audit_full_audit_conflict_get: read,
  audit_full_audit_set_state: govern,
  audit_full_audit_conflict_set_answer: resolve,
  audit_full_audit_conflict_close: resolve,
  audit_full_audit_conflict_ignore: resolve,
  // Mandatory questions
  audit_mandatory_question_list: read,
  audit_mandatory_question_create: govern,
  audit_mandatory_question_set_answer: govern,
  audit_mandatory_question_set_managed: govern,
  audit_mandatory_question_set_ignored: govern,
  audit_mandatory_question_force_analyze: govern,
  // Instances and users
  audit_dashboard_get: { permission: 'read', instance: 'none' },
  audit_instance_create: { permission: 'createInstances', instance: 'none' },
  audit_instance_list_for_user: { permission: 'read', instance: 'none' },
  audit_instance_get: read,
  /** The audit link key follows the key-management rule (ADR 0016), and BEHAVIOUR.md §2 keeps it to admins. */
  audit_instance_get_svc_instances: { permission: 'exposure', instance: 'admin' },
  /** §2 says admin only, §3 says governance: both (ADR 0028). */
  audit_instance_update_step: { permission: 'govern', instance: 'admin' },
  audit_instance_update_configuration: govern,
  audit_user_get_users: read,
  audit_user_list_instances: { permission: 'read', instance: 'none' },
  audit_user_add: membership,
  audit_user_remove: membership,
  audit_user_set_admin: membership,
  audit_user_set_normal: membership,
  audit_user_is_admin: { permission: 'standing', instance: 'member' },
  // Missing subjects
  audit_missing_subject_list: read,
  audit_missing_subject_find: read,
  audit_missing_subject_list_questions: read,
  audit_missing_subject_set_state: resolve,
  audit_missing_subject_generate_compagnon_document: resolve,
  // Documents
  audit_documents_list: read,
  audit_documents_set_owner: membership,
  audit_documents_get_by_ids: read,
  audit_documents_get_recommendations: read,
  audit_documents_count: read,
  audit_documents_list_with_state: read,
  // Stats
  audit_stats_get_filtered: read,
  audit_stats_get_daily: read,
  audit_stats_get_user: read,
  // Duplicates
  audit_duplicate_list: read,
  audit_duplicate_set_managed: govern,
};

export function auditAccessRule(name: string): AccessRule | undefined {
  return Object.prototype.hasOwnProperty.call(AUDIT_ACCESS, name) ? AUDIT_ACCESS[name as keyof typeof AUDIT_ACCESS] : undefined;
}

/** The caller's membership of one instance, as read by the authorizer. */
export interface InstanceStanding {
  isMember: boolean;
  isInstanceAdmin: boolean;
}

export type StandingRefusal = 'WORKSPACE.NOT_A_MEMBER' | 'WORKSPACE.INSTANCE_ADMIN_ONLY';

/**
 * Whether a caller whose roles passed the permission class stands where the operation requires on
 * the instance (ADR 0007): null when it does, else the 403 code. Global admins stand everywhere;
 * AUTHORITY_MANAGER counts as a member of every instance of its organisation, not as an admin.
 */
export function standingRefusal(requirement: InstanceRequirement, roles: readonly Role[], standing: InstanceStanding): StandingRefusal | null {
  if (requirement === 'none' || isGlobalAdmin(roles)) return null;
  if (!standing.isMember && !isOrganizationWide(roles)) return 'WORKSPACE.NOT_A_MEMBER';
  if (requirement === 'admin' && !standing.isInstanceAdmin) return 'WORKSPACE.INSTANCE_ADMIN_ONLY';
  return null;
}
