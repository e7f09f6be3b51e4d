import type { Role } from './roles';

/**
 * How the caller proved who they are. Decides which surfaces accept it (SECURITY.md). `cli` is an
 * operator using the admin CLI on the database directly; no HTTP surface accepts it.
 */
export type CredentialKind = 'org_api_key' | 'key_exchange_token' | 'oauth_token' | 'session_cookie' | 'instance_api_key' | 'cli';

/** The authenticated caller, the same shape whatever the credential. */
export interface Principal {
  organizationId: string;
  userId: string;
  roles: readonly Role[];
  credential: { kind: CredentialKind; id: string };
  /** Set for instance API keys: the one repository instance the credential may act on. */
  instanceId?: string;
  /**
   * Set for OAuth access tokens only: what the user consented to (`audit:read`, ...). Operations
   * need the matching scope on top of the role table; other credentials carry no scope limit.
   */
  scopes?: readonly string[];
}
