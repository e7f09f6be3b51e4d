import { DomainError, IndexedVector } from '@svc/kernel';

/** pgvector's `vector` type holds at most 16,000 dimensions; the fallback keeps the same bound. */
export const MAX_VECTOR_DIMENSIONS = 16_000;
/** The most matches one search returns (also pgvector's largest `hnsw.ef_search`). */
export const MAX_SEARCH_LIMIT = 1000;
const MAX_KEY_LENGTH = 200;

function invalid(message: string): DomainError {
  return DomainError.invalid('VECTOR_INDEX.INVALID_INPUT', message);
}

export function checkKey(name: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_KEY_LENGTH || value.includes('\u0000')) {
    throw invalid(`The ${name} must be a non-empty string of at most ${MAX_KEY_LENGTH} characters, without NUL.`);
  }
}

function checkNumbers(vector: readonly number[], what: string): void {
  if (!Array.isArray(vector) || vector.length === 0 || vector.length > MAX_VECTOR_DIMENSIONS) {
    throw invalid(`The ${what} must have between 1 and ${MAX_VECTOR_DIMENSIONS} dimensions.`);
  }
  for (const x of vector) {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw invalid(`The ${what} must contain finite numbers only.`);
  }
}

/**
 * The vector as stored: scaled to unit length (cosine ignores length) and rounded to single
 * precision, the storage type of both columns. Scaling first keeps every finite input storable:
 * `real` overflows above 3.4e38 and PostgreSQL refuses values that underflow it. The zero vector
 * stays zero.
 */
export function storableVector(vector: readonly number[]): number[] {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  if (max === 0) return vector.map(() => 0);
  let sq = 0;
  for (const x of vector) sq += (x / max) * (x / max);
  const scale = 1 / (max * Math.sqrt(sq));
  // `+ 0` turns -0 into 0: "-0" is a valid literal, but there is no reason to store it.
  return vector.map((x) => Math.fround(x * scale) + 0);
}

/**
 * Checked upsert input: one size for the whole call, finite numbers, ids present; vectors made
 * storable (see storableVector). A node listed twice keeps its last vector (one statement cannot
 * write a row twice). Empty input gives no rows.
 */
export function checkedUpsert(instanceId: string, model: string, vectors: IndexedVector[]): { dims: number; rows: IndexedVector[] } {
  checkKey('instance id', instanceId);
  checkKey('model', model);
  const byId = new Map<string, IndexedVector>();
  for (const v of vectors) {
    checkKey('node id', v.id);
    checkKey('document id', v.documentId);
    checkNumbers(v.vector, 'vector');
    byId.set(v.id, { id: v.id, documentId: v.documentId, vector: storableVector(v.vector) });
  }
  const rows = [...byId.values()];
  const dims = rows[0]?.vector.length ?? 0;
  if (rows.some((r) => r.vector.length !== dims)) throw invalid('All vectors of one upsert must have the same number of dimensions.');
  return { dims, rows };
}

/**
 * The query, L2-normalised, or null when nothing can match: a zero limit, or the zero vector (it has
 * no direction, so its cosine with anything is undefined; stored zero vectors never match either).
 */
export function checkedQuery(instanceId: string, model: string, vector: number[], limit: number): { unit: number[]; limit: number } | null {
  checkKey('instance id', instanceId);
  checkKey('model', model);
  checkNumbers(vector, 'query vector');
  if (typeof limit !== 'number' || Number.isNaN(limit)) throw invalid('The limit must be a number.');
  const wanted = Math.floor(limit);
  if (wanted > MAX_SEARCH_LIMIT) {
    throw DomainError.invalid('VECTOR_INDEX.LIMIT_TOO_LARGE', `A search returns at most ${MAX_SEARCH_LIMIT} matches.`);
  }
  const unit = storableVector(vector);
  if (wanted <= 0 || unit.every((x) => x === 0)) return null;
  return { unit, limit: wanted };
}

/** Cosine similarity within its bounds (float rounding can step past them). */
export function clampScore(score: number): number {
  return Math.max(-1, Math.min(1, score));
}
