export interface IndexedVector {
  /** The semantic node id (`kn_`). */
  id: string;
  documentId: string;
  vector: number[];
}

export interface VectorMatch {
  id: string;
  documentId: string;
  /** Cosine similarity, 1 = same direction. */
  score: number;
}

/**
 * Nearest-neighbour search over node vectors, partitioned by repository instance and model.
 *
 * Contract, for every adapter (`vectorIndexContract`, `@svc/vector-index/testing`, checks what a test can):
 * - Store: the vectors live in the store, never in the adapter object (the standalone process builds one
 *   VectorIndex per app, and the workers' writes are the retrieval app's searches), and outlive a restart
 *   (nothing embeds them again: lost vectors leave search on full text, silently).
 * - Transactions: a store in the service's PostgreSQL joins the caller's unit of work (a deletion removes
 *   the document's vectors in the transaction that marks it deleted). A store outside it cannot; its
 *   writes must then be idempotent. Either way a vector whose node does not exist (not yet published, or
 *   rolled back) must do no harm: every reader goes through the nodes (search drops matches without one),
 *   and indexation writes a large document's vectors in many short upserts before its nodes are published,
 *   then removes the old nodes' vectors (`removeNodes`) in short calls after.
 * - Order: `search` best first, equal scores by node id in byte order (`kn_C` before `kn_a`: SQL's
 *   `COLLATE "C"`, JavaScript's `<`, never `localeCompare`); `vectorsOf` by node id in the same order.
 * - Errors are DomainErrors, `invalid` `VECTOR_INDEX.INVALID_INPUT` for malformed input: an instance id,
 *   model, node id or document id that is not a non-empty string of at most 200 characters without NUL;
 *   a vector (stored or searched) with no component, more than 16,000, or one that is not a finite
 *   number; vectors of different sizes in one upsert; a limit that is not a number. `invalid`
 *   `VECTOR_INDEX.LIMIT_TOO_LARGE` for a limit above 1,000. Not errors: an empty upsert (does nothing),
 *   an empty `documentIds` (nothing), a limit of 0 or less (nothing; a fractional one is rounded down),
 *   the zero vector (stored, it never matches; searched, it finds nothing), any finite scale (1e300
 *   components included: cosine ignores length, so no score may overflow to NaN).
 */
export abstract class VectorIndex {
  /** Inserts or replaces the vectors of these nodes (a node listed twice keeps its last vector). */
  abstract upsert(instanceId: string, model: string, vectors: IndexedVector[]): Promise<void>;
  /** Removes every vector of a document (deletion), under every model; a document without vectors is no error. */
  abstract removeDocument(instanceId: string, documentId: string): Promise<void>;
  /** Removes the vectors of these nodes of the instance, under every model (a re-indexation's old nodes); unknown ids are skipped. */
  abstract removeNodes(instanceId: string, nodeIds: readonly string[]): Promise<void>;
  /**
   * The stored vectors of these documents' nodes under `model`, as stored (their direction; the length may be
   * normalised), ordered by node id in byte order (the full audit's vector-neighbour blocking reads them).
   */
  abstract vectorsOf(instanceId: string, model: string, documentIds: string[]): Promise<IndexedVector[]>;
  /**
   * The `limit` nodes of the instance and model most similar to `vector` by cosine, best first, equal scores
   * by node id in byte order; only vectors of the query's size are compared.
   */
  abstract search(instanceId: string, model: string, vector: number[], limit: number): Promise<VectorMatch[]>;
}
