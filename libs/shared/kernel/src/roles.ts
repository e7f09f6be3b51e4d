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

/**
 * Permission classes of operations (BEHAVIOUR.md §3). Each operation in the catalogue names one;
 * the roles allowed for each class live here, in one table.
 */
export const PERMISSIONS = {
  read: ['ADMIN', 'AUTHORITY_MANAGER', 'STEWARD', 'KNOWLEDGE_EXPERT', 'CONSUMER'],
  resolve: ['ADMIN', 'STEWARD', 'KNOWLEDGE_EXPERT'],
  govern: ['ADMIN', 'AUTHORITY_MANAGER', 'STEWARD'],
  /** Instance admin or global admin; any organisation role may hold instance admin. */
  membership: ROLES,
  createInstances: ['ADMIN', 'AUTHORITY_MANAGER'],
  retrieval: ['ADMIN', 'AUTHORITY_MANAGER', 'STEWARD', 'KNOWLEDGE_EXPERT', 'ACTIVATION_MANAGER', 'CONSUMER'],
  exposure: ['ADMIN', 'ACTIVATION_MANAGER'],
  organization: ['ADMIN'],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

/** Roles that see every instance of their organisation without membership. */
export const ORGANIZATION_WIDE_ROLES: readonly Role[] = ['ADMIN', 'AUTHORITY_MANAGER'];

export function rolesAllow(roles: readonly Role[], permission: Permission): boolean {
  const allowed = PERMISSIONS[permission] as readonly Role[];
  return roles.some((r) => allowed.includes(r));
}

export function isGlobalAdmin(roles: readonly Role[]): boolean {
  return roles.includes('ADMIN');
}
