import type { Principal } from '@svc/kernel';
import type { Surface } from './operation.decorator';

export interface PresentedCredential {
  /** Value of `Authorization: Bearer <value>`; other schemes never reach here. */
  bearer?: string;
  /** Value of the `svc_auth` session cookie, on routes that accept it, when no bearer was sent. */
  cookie?: string;
}

/**
 * Turns a presented credential into a principal. Throws DomainError `unauthenticated` (401) for
 * anything invalid, revoked or expired, and `unavailable` (503) when the credential store cannot be
 * reached; nothing else.
 */
export abstract class Authenticator {
  abstract authenticate(credential: PresentedCredential, surface: Surface): Promise<Principal>;
}

/**
 * The instance API's credential (`instance-id` + `api-key` headers). Same contract as Authenticator:
 * 401 or 503, nothing else. The principal carries `instanceId`, the only instance it may act on.
 */
export abstract class InstanceAuthenticator {
  abstract authenticate(instanceId: string | undefined, apiKey: string | undefined): Promise<Principal>;
}

/** An audit instance and the caller's membership of it, as one read returns them. */
export interface InstanceStanding {
  organizationId: string;
  isMember: boolean;
  isInstanceAdmin: boolean;
  /** The instance record, handed on to the use case in its `InstanceAccess`. */
  instance: unknown;
}

/**
 * Where an audit instance lives and what the caller is on it, in one read (one query); null when it
 * does not exist. The only place instance-scoped operations look the instance up.
 */
export abstract class InstanceAccessReader {
  abstract read(instanceId: string, userId: string): Promise<InstanceStanding | null>;
}
