/** Organisation roles (spec part 5). `ORG_OWNER` exists for people only and is never assignable to a key. */
export const ROLES = [
  'ADMIN',
  'AUTHORITY_MANAGER',
  'STEWARD',
  'KNOWLEDGE_EXPERT',
  'ACTIVATION_MANAGER',
  'BILLING',
  'CONSUMER',
] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Roles that may read audit instances (BEHAVIOUR.md §3, "read" row). */
const READING_ROLES = ['ADMIN', 'AUTHORITY_MANAGER', 'STEWARD', 'KNOWLEDGE_EXPERT', 'CONSUMER'] as const;

/**
 * Permission classes of operations (BEHAVIOUR.md §3). Each operation names one; the roles allowed
 * for each class live here, in one table. Which class each audit operation belongs to, and where the
 * caller must stand on its instance, is the table `AUDIT_ACCESS` (operation-access.ts, ADR 0028).
 */
export const PERMISSIONS = {
  read: READING_ROLES,
  resolve: ['ADMIN', 'STEWARD', 'KNOWLEDGE_EXPERT'],
  govern: ['ADMIN', 'AUTHORITY_MANAGER', 'STEWARD'],
  /** Membership and ownership: a reading role too (ADR 0028), on top of instance admin or global admin. */
  membership: READING_ROLES,
  /** The caller's own standing on an instance it belongs to (`user-is-admin-for-instance`): any role (ADR 0028). */
  standing: ROLES,
  createInstances: ['ADMIN', 'AUTHORITY_MANAGER'],
  retrieval: ['ADMIN', 'AUTHORITY_MANAGER', 'STEWARD', 'KNOWLEDGE_EXPERT', 'ACTIVATION_MANAGER', 'CONSUMER'],
  /** Instance API keys, the audit link key included (ADR 0016, 0028), and MCP/retrieval exposure. */
  exposure: ['ADMIN', 'ACTIVATION_MANAGER'],
  organization: ['ADMIN'],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

/** Permission classes whose operations change nothing: an OAuth token needs only the API's read scope for them. */
export const READ_ONLY_PERMISSIONS: readonly Permission[] = ['read', 'retrieval', 'standing'];

/** Roles that see every instance of their organisation without membership. */
export const ORGANIZATION_WIDE_ROLES: readonly Role[] = ['ADMIN', 'AUTHORITY_MANAGER'];

/** Whether these roles see every instance of the organisation without membership. */
export function isOrganizationWide(roles: readonly Role[]): boolean {
  return roles.some((r) => ORGANIZATION_WIDE_ROLES.includes(r));
}

export function rolesAllow(roles: readonly Role[], permission: Permission): boolean {
  const allowed = PERMISSIONS[permission] as readonly Role[];
  return roles.some((r) => allowed.includes(r));
}

export function isGlobalAdmin(roles: readonly Role[]): boolean {
  return roles.includes('ADMIN');
}
