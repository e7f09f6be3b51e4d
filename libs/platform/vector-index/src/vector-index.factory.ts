import type { TypeOrmUnitOfWork } from '@svc/database';
import { ExactScanVectorIndex } from './exact-scan-vector-index';
import { HnswSettings, PgVectorIndex } from './pg-vector-index';

export interface VectorStorage {
  /** `pgvector`: the `embedding` column is a `vector`; `real[]`: the exact-scan fallback. */
  kind: 'pgvector' | 'real[]';
  /** The installed pgvector version, when there is one. */
  pgvectorVersion: string | null;
}

/** Reads how the migration stored vectors here: the `embedding` column's type decides the adapter. */
export async function detectVectorStorage(uow: TypeOrmUnitOfWork): Promise<VectorStorage> {
  const rows: { type: string; version: string | null }[] = await uow.manager().query(
    `SELECT format_type(a.atttypid, a.atttypmod) AS type,
            (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version
     FROM pg_attribute a
     WHERE a.attrelid = to_regclass('vector_index.node_vectors') AND a.attname = 'embedding' AND NOT a.attisdropped`,
  );
  const row = rows[0];
  if (!row) {
    throw new Error('vector_index.node_vectors does not exist: add VECTOR_INDEX_MIGRATIONS to the database migrations');
  }
  if (row.type === 'vector') return { kind: 'pgvector', pgvectorVersion: row.version };
  if (row.type === 'real[]') return { kind: 'real[]', pgvectorVersion: row.version };
  throw new Error(`vector_index.node_vectors.embedding has an unexpected type (${row.type})`);
}

/** The VectorIndex adapter `VECTOR_STORE=auto` chooses for this database: pgvector's when the column is a `vector`, else the exact scan. */
export async function createVectorIndex(uow: TypeOrmUnitOfWork, hnsw?: HnswSettings): Promise<PgVectorIndex | ExactScanVectorIndex> {
  const storage = await detectVectorStorage(uow);
  if (storage.kind === 'real[]') return new ExactScanVectorIndex(uow);
  return new PgVectorIndex(uow, { iterativeScan: versionAtLeast(storage.pgvectorVersion, [0, 8, 0]), hnsw });
}

/** Compares dotted versions numerically ("0.10.0" is after "0.8.7"). */
export function versionAtLeast(version: string | null, minimum: number[]): boolean {
  if (!version) return false;
  const parts = version.split('.').map((p) => parseInt(p, 10) || 0);
  for (let i = 0; i < minimum.length; i++) {
    const part = parts[i] ?? 0;
    if (part !== minimum[i]) return part > minimum[i];
  }
  return true;
}
