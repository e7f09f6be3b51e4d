import type { Page, PageRequest } from '@svc/kernel';
import type { InstanceApiKey, RepositoryInstance } from './repository-instance';

export abstract class RepositoryInstanceStore {
  abstract insert(instance: RepositoryInstance): Promise<void>;
  abstract get(id: string): Promise<RepositoryInstance | null>;
  abstract insertApiKey(key: InstanceApiKey): Promise<void>;
  /** The live (not revoked) instance key with this lookup id, and its instance's organisation. */
  abstract findApiKey(lookupId: string): Promise<(InstanceApiKey & { organizationId: string }) | null>;
  /** A key of this instance by id, revoked or not; null when unknown or when it belongs to another instance. */
  abstract getApiKey(instanceId: string, id: string): Promise<InstanceApiKey | null>;
  /** Every key of the instance, revoked ones included, newest first (ties by id, descending). */
  abstract listApiKeys(instanceId: string, page: PageRequest): Promise<Page<InstanceApiKey>>;
  /**
   * Sets `revokedAt` on a live key. Idempotent: a revoked key keeps its first revocation time.
   * True only for the call that revoked it, so concurrent revocations log one change.
   */
  abstract revokeApiKey(id: string, at: Date): Promise<boolean>;
  /** Documents of the instance still waiting for indexation (failed ones are not waiting). */
  abstract countPendingDocuments(instanceId: string): Promise<number>;
}

/** Keyed hash of instance API keys (HMAC with a pepper of the repository context's own). */
export abstract class InstanceKeyHasher {
  abstract hash(secret: string): string;
  /** Constant-time comparison of a presented secret with a stored hash. */
  abstract matches(secret: string, hash: string): boolean;
}
