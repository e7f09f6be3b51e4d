/**
 * Turns texts into dense vectors. Deterministic for a given model: the same text always gives the
 * same vector, so unchanged content is never re-embedded. Vectors are L2-normalised; a text with
 * no letters or digits gives the zero vector, which matches nothing.
 */
export abstract class Embedder {
  /** Identifies the vector space; vectors of different models are never compared. */
  abstract readonly model: string;
  abstract readonly dimensions: number;
  /** One vector per text, in order. Throws DomainError `unavailable` when a remote model cannot be reached. */
  abstract embed(texts: string[]): Promise<number[][]>;
}
