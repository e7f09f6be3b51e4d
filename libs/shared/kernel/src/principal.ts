import type { Role } from './roles';

/** How the caller proved who they are. Decides which surfaces accept it (SECURITY.md). */
export type CredentialKind = 'org_api_key' | 'key_exchange_token' | 'oauth_token' | 'session_cookie';

/** The authenticated caller, the same shape whatever the credential. */
export interface Principal {
  organizationId: string;
  userId: string;
  roles: readonly Role[];
  credential: { kind: CredentialKind; id: string };
}
