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
 * Writes join the caller's transaction.
 */
export abstract class VectorIndex {
  /** Inserts or replaces the vectors of these nodes. */
  abstract upsert(instanceId: string, model: string, vectors: IndexedVector[]): Promise<void>;
  /** Removes every vector of a document (re-indexation, deletion). */
  abstract removeDocument(instanceId: string, documentId: string): Promise<void>;
  /** The stored vectors of these documents' nodes under `model`, as stored (the full audit's vector-neighbour blocking reads them). */
  abstract vectorsOf(instanceId: string, model: string, documentIds: string[]): Promise<IndexedVector[]>;
  /** The `limit` nodes most similar to `vector`, best first (ties by id). */
  abstract search(instanceId: string, model: string, vector: number[], limit: number): Promise<VectorMatch[]>;
}
