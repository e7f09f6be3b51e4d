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

/** Indexation states of a document (BEHAVIOUR.md §10). */
export const INDEXATION_STATES = ['PENDING', 'PARSING', 'INDEXED', 'PARSING_ERROR', 'EMBEDDING_ERROR', 'DELETED'] as const;
export type IndexationState = (typeof INDEXATION_STATES)[number];
/** States in which a document is still on its way to the index. */
export const PENDING_INDEXATION_STATES: readonly IndexationState[] = ['PENDING', 'PARSING'];
