/** A customer's document repository as this deployment hosts it (`ki_`). */
export interface RepositoryInstance {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
}

/** A credential of the instance API (`instance-id` + `api-key` headers), stored hashed. */
export interface InstanceApiKey {
  id: string;
  instanceId: string;
  name: string;
  lookupId: string;
  secretHash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What callers may see of an instance key: never its hash, its lookup id or the raw key. */
export function instanceApiKeyView(key: InstanceApiKey) {
  return {
    id: key.id,
    instance_id: key.instanceId,
    name: key.name,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
export type InstanceApiKeyView = ReturnType<typeof instanceApiKeyView>;

/** Indexation states of a document (BEHAVIOUR.md §10). */
export const INDEXATION_STATES = ['PENDING', 'PARSING', 'INDEXED', 'PARSING_ERROR', 'EMBEDDING_ERROR', 'DELETED'] as const;
export type IndexationState = (typeof INDEXATION_STATES)[number];
/** States in which a document is still on its way to the index. */
export const PENDING_INDEXATION_STATES: readonly IndexationState[] = ['PENDING', 'PARSING'];
