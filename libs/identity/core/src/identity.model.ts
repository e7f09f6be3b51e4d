import type { Role } from '@svc/kernel';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

/** A person, or the service account behind an API key (`kind: 'service'`). */
export interface User {
  id: string;
  organizationId: string;
  email: string | null;
  name: string;
  roles: Role[];
  kind: 'person' | 'service';
  createdAt: Date;
}

export interface ApiKey {
  id: string;
  organizationId: string;
  /** The user the key acts as: its audit trail and instance memberships. */
  userId: string;
  name: string;
  roles: Role[];
  lookupId: string;
  /** Keyed hash (HMAC-SHA-256 with the server pepper) of the whole raw key. */
  secretHash: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** What callers may see of a key: never the hash. */
export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    user_id: key.userId,
    roles: key.roles,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
  };
}

export function userView(user: User) {
  return {
    id: user.id,
    organization_id: user.organizationId,
    email: user.email,
    name: user.name,
    roles: user.roles,
    kind: user.kind,
    created_at: user.createdAt.toISOString(),
  };
}
