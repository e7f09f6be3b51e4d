import { adapter, AdapterRegistry, ConfigError, integerSetting } from '@svc/config';
import type { TypeOrmUnitOfWork } from '@svc/database';
import { VectorIndex } from '@svc/kernel';
import { ExactScanVectorIndex } from './exact-scan-vector-index';
import { DEFAULT_HNSW_SETTINGS, HnswSettings, PgVectorIndex } from './pg-vector-index';
import { detectVectorStorage, versionAtLeast } from './vector-index.factory';

/** What the module hands every VectorIndex adapter: the unit of work its writes join (and its database). */
export interface VectorIndexDeps {
  uow: TypeOrmUnitOfWork;
  /** HNSW settings given to `VectorIndexModule.forRoot` (tests); the VECTOR_HNSW_* variables otherwise. */
  hnsw?: HnswSettings;
}

/** VECTOR_HNSW_M, _EF_CONSTRUCTION and _EF_SEARCH (pgvector's graph and search lists). */
function hnswSettings(raw: Record<string, unknown>, problems: string[]): HnswSettings {
  const m = integerSetting(raw, 'VECTOR_HNSW_M', 2, 100, problems) ?? DEFAULT_HNSW_SETTINGS.m;
  const efConstruction = integerSetting(raw, 'VECTOR_HNSW_EF_CONSTRUCTION', 4, 1000, problems) ?? DEFAULT_HNSW_SETTINGS.efConstruction;
  const efSearch = integerSetting(raw, 'VECTOR_HNSW_EF_SEARCH', 1, 1000, problems) ?? DEFAULT_HNSW_SETTINGS.efSearch;
  if (efConstruction < 2 * m) problems.push(`VECTOR_HNSW_EF_CONSTRUCTION: must be at least twice VECTOR_HNSW_M (${2 * m}), as pgvector requires`);
  return { m, efConstruction, efSearch };
}

async function pgVectorIndex(deps: VectorIndexDeps, hnsw: HnswSettings, pgvectorVersion: string | null): Promise<PgVectorIndex> {
  return new PgVectorIndex(deps.uow, { iterativeScan: versionAtLeast(pgvectorVersion, [0, 8, 0]), hnsw: deps.hnsw ?? hnsw });
}

/**
 * The VectorIndex adapters, one per VECTOR_STORE value (`ADAPTER_SETTINGS` in @svc/config). Every adapter keeps its
 * vectors in the database, never in the object: the standalone process builds one per app, and the workers' writes
 * must be the retrieval app's searches (the contract's one-store test). A new store adds its adapter file and one
 * entry here (docs/architecture.md, "Adding an adapter").
 */
export const VECTOR_STORES: AdapterRegistry<'VECTOR_STORE', VectorIndex, VectorIndexDeps> = {
  setting: 'VECTOR_STORE',
  adapters: {
    auto: adapter({
      summary: "pgvector's HNSW when the vectors' column is pgvector's vector, else an exact scan of real[] (the column the migration could create decides)",
      settings: hnswSettings,
      create: async (hnsw, deps: VectorIndexDeps): Promise<VectorIndex> => {
        const storage = await detectVectorStorage(deps.uow);
        return storage.kind === 'pgvector' ? pgVectorIndex(deps, hnsw, storage.pgvectorVersion) : new ExactScanVectorIndex(deps.uow);
      },
    }),
    pgvector: adapter({
      summary: "pgvector's HNSW index per vector space; refuses to start when the column is not pgvector's vector",
      settings: hnswSettings,
      create: async (hnsw, deps: VectorIndexDeps): Promise<VectorIndex> => {
        const storage = await detectVectorStorage(deps.uow);
        if (storage.kind !== 'pgvector') {
          throw new ConfigError([
            "VECTOR_STORE: pgvector needs vector_index.node_vectors.embedding to be pgvector's vector, but it is real[] (pgvector was not available when the migration ran): install the extension and recreate the column, or set VECTOR_STORE=auto or exact-scan",
          ]);
        }
        return pgVectorIndex(deps, hnsw, storage.pgvectorVersion);
      },
    }),
    'exact-scan': adapter({
      summary: 'exact cosine in SQL over the instance’s vectors (linear), on a real[] or a pgvector column',
      settings: () => ({}),
      create: async (_settings, deps: VectorIndexDeps): Promise<VectorIndex> => {
        await detectVectorStorage(deps.uow);
        return new ExactScanVectorIndex(deps.uow);
      },
    }),
  },
};
