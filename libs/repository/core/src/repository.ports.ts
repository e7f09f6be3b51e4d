import type { InstanceApiKey, RepositoryInstance } from './repository-instance';

export abstract class RepositoryInstanceStore {
  abstract insert(instance: RepositoryInstance): Promise<void>;
  abstract get(id: string): Promise<RepositoryInstance | null>;
  abstract insertApiKey(key: InstanceApiKey): Promise<void>;
  /** The live (not revoked) instance key with this lookup id, and its instance's organisation. */
  abstract findApiKey(lookupId: string): Promise<(InstanceApiKey & { organizationId: string }) | null>;
  /** Documents of the instance still waiting for indexation (failed ones are not waiting). */
  abstract countPendingDocuments(instanceId: string): Promise<number>;
}

/** Keyed hash of instance API keys (HMAC with a pepper of the repository context's own). */
export abstract class InstanceKeyHasher {
  abstract hash(secret: string): string;
  /** Constant-time comparison of a presented secret with a stored hash. */
  abstract matches(secret: string, hash: string): boolean;
}
