import { createHash } from 'node:crypto';
import type { TypeOrmUnitOfWork } from '@svc/database';
import { DomainError, VectorMatch } from '@svc/kernel';
import type { EntityManager } from 'typeorm';
import { SqlVectorIndex } from './sql-vector-index';
import { checkKey, clampScore, MAX_VECTOR_DIMENSIONS } from './vector-input';

/** pgvector builds HNSW indexes on `vector` values of at most 2,000 dimensions. */
export const MAX_HNSW_DIMENSIONS = 2000;
/** Serialises HNSW index creation across processes (pg_advisory_xact_lock key). */
const INDEX_CREATION_LOCK = 727_002;
/**
 * Default HNSW candidate list per search (pgvector's is 40). Measured by tools/bench (PGlite, 100,000
 * 512-dimension hashed-feature vectors of topical text, m 16, ef_construction 64, recall@10 against
 * an exact scan): ef_search 100 finds 0.81 of the exact top 10, 200 finds 0.90, 400 finds 0.97 (p50
 * 8.4 ms instead of 5.4), 800 finds 0.99 (14.9 ms). Raised to at least the requested limit.
 */
export const HNSW_EF_SEARCH = 400;

/** The HNSW graph and search settings (VECTOR_HNSW_*); pgvector's build defaults, a wider search list. */
export interface HnswSettings {
  /** Links per node (`m`). */
  m: number;
  /** Candidate list while building (`ef_construction`), at least 2 × m. */
  efConstruction: number;
  /** Candidate list per search (`hnsw.ef_search`), raised to the limit when smaller. */
  efSearch: number;
}

export const DEFAULT_HNSW_SETTINGS: HnswSettings = { m: 16, efConstruction: 64, efSearch: HNSW_EF_SEARCH };

export interface PgVectorIndexOptions {
  /**
   * pgvector ≥ 0.8: `hnsw.iterative_scan = strict_order`, so a search filtered to one instance keeps
   * walking the graph until it has `limit` matches (or `hnsw.max_scan_tuples`, 20,000 by default).
   */
  iterativeScan: boolean;
  hnsw?: HnswSettings;
}

/**
 * The VectorIndex on pgvector (PGlite embedded, or PostgreSQL with the extension).
 *
 * Dimensions: the `embedding` column is a `vector` without a fixed size, so several models (and
 * sizes) share one table, but HNSW needs a fixed size. Each vector space, a (model, dims) pair, gets
 * its own partial expression index, `USING hnsw ((embedding::vector(dims)) vector_cosine_ops) WHERE
 * model = '<model>' AND dims = <dims>`, and searches repeat the same cast and predicate so the planner
 * can use it. The index is created on the space's first write (in the writer's transaction, under an
 * advisory lock so concurrent processes create it once), or ahead of time with `ensureHnswIndex` (the
 * module does it at boot for the configured Embedder). Spaces above 2,000 dimensions get no index and
 * are searched exactly.
 *
 * Searching uses the cosine distance operator `<=>` (score = 1 - distance), ordered by distance then
 * node id, which PostgreSQL serves with an HNSW index scan plus an incremental sort for exact ties.
 * The planner may prefer the (instance_id, model) B-tree for a small instance: the result is then
 * exact. HNSW results are approximate by nature (recall < 100% on large sets).
 *
 * Cost (PGlite, 512 dimensions, 10,000 vectors, development machine): a write spends ~5 ms per vector
 * maintaining the HNSW graph (~0.4 ms without it); a search takes ~5-10 ms with the index, ~40 ms
 * scanning exactly. Native PostgreSQL is several times faster on both.
 */
export class PgVectorIndex extends SqlVectorIndex {
  /** Spaces whose index is known to be committed: no catalog look-up on their writes any more. */
  private readonly indexedSpaces = new Set<string>();
  /** Spaces indexed by a still-open transaction (its manager): not known committed until seen from another. */
  private readonly createdIn = new WeakMap<EntityManager, Set<string>>();
  private readonly hnsw: HnswSettings;

  constructor(
    uow: TypeOrmUnitOfWork,
    private readonly options: PgVectorIndexOptions = { iterativeScan: true },
  ) {
    super(uow);
    this.hnsw = options.hnsw ?? DEFAULT_HNSW_SETTINGS;
    const { m, efConstruction, efSearch } = this.hnsw;
    if (![m, efConstruction, efSearch].every(Number.isInteger) || m < 2 || m > 100 || efConstruction < 2 * m || efConstruction > 1000 || efSearch < 1 || efSearch > 1000) {
      throw DomainError.invalid('VECTOR_INDEX.INVALID_SETTINGS', 'HNSW settings need 2 ≤ m ≤ 100, 2 × m ≤ ef_construction ≤ 1000 and 1 ≤ ef_search ≤ 1000.');
    }
  }


  /** The name of a vector space's HNSW index: a hash, since model names are free text. */
  static hnswIndexName(model: string, dims: number): string {
    return `node_vectors_hnsw_${createHash('sha256').update(`${model}\u0000${dims}`).digest('hex').slice(0, 16)}`;
  }

  /** Creates the HNSW index of a vector space unless it exists. Idempotent, safe across processes. */
  async ensureHnswIndex(model: string, dims: number): Promise<void> {
    checkKey('model', model);
    if (!Number.isInteger(dims) || dims < 1 || dims > MAX_VECTOR_DIMENSIONS) {
      throw DomainError.invalid('VECTOR_INDEX.INVALID_INPUT', `Dimensions must be a whole number between 1 and ${MAX_VECTOR_DIMENSIONS}.`);
    }
    await this.uow.run(() => this.prepareWrite(this.uow.manager(), model, dims));
  }

  /**
   * The search statement of a vector space: $1 instance, $2 model, $3 the query as a pgvector literal,
   * $4 the limit. The size is inlined: the cast and predicate must match the partial index's own.
   */
  static searchSql(dims: number): string {
    const distance = `embedding::vector(${dims}) <=> $3::vector(${dims})`;
    return `SELECT node_id, document_id, ${distance} AS distance
      FROM vector_index.node_vectors
      WHERE instance_id = $1 AND model = $2 AND dims = ${dims}
      ORDER BY ${distance}, node_id COLLATE "C"
      LIMIT $4`;
  }

  protected embeddingSql(param: string): string {
    return `${param}::vector`;
  }

  protected embeddingValue(vector: number[]): unknown {
    return `[${vector.join(',')}]`;
  }

  protected async prepareWrite(manager: EntityManager, model: string, dims: number): Promise<void> {
    const space = `${model}\u0000${dims}`;
    if (dims > MAX_HNSW_DIMENSIONS || this.indexedSpaces.has(space)) return;
    const name = PgVectorIndex.hnswIndexName(model, dims);
    const exists = async (): Promise<boolean> => {
      const rows: { present: boolean }[] = await manager.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`vector_index.${name}`]);
      return rows[0]?.present === true;
    };
    if (await exists()) {
      if (!this.createdIn.get(manager)?.has(space)) this.indexedSpaces.add(space);
      return;
    }
    await manager.query(`SELECT pg_advisory_xact_lock($1)`, [INDEX_CREATION_LOCK]);
    // Another process may have created it while this one waited for the lock.
    if (await exists()) return;
    await manager.query(
      `CREATE INDEX IF NOT EXISTS ${name} ON vector_index.node_vectors
       USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WITH (m = ${this.hnsw.m}, ef_construction = ${this.hnsw.efConstruction})
       WHERE model = ${sqlLiteral(model)} AND dims = ${dims}`,
    );
    const created = this.createdIn.get(manager) ?? new Set<string>();
    created.add(space);
    this.createdIn.set(manager, created);
  }

  protected async nearest(instanceId: string, model: string, unit: number[], limit: number): Promise<VectorMatch[]> {
    // The HNSW settings are transaction-local (set_config(..., true)): a transaction of our own when
    // the caller has none, so they never leak to the pooled connection's next user.
    const rows: { node_id: string; document_id: string; distance: number }[] = await this.uow.run(async () => {
      const manager = this.uow.manager();
      const settings = [`set_config('hnsw.ef_search', $1, true)`];
      if (this.options.iterativeScan) settings.push(`set_config('hnsw.iterative_scan', 'strict_order', true)`);
      await manager.query(`SELECT ${settings.join(', ')}`, [String(Math.max(this.hnsw.efSearch, limit))]);
      return manager.query(PgVectorIndex.searchSql(unit.length), [instanceId, model, `[${unit.join(',')}]`, limit]);
    });
    // A stored zero vector has no direction: its distance is NaN, which PostgreSQL sorts last.
    return rows
      .filter((r) => !Number.isNaN(r.distance))
      .map((r) => ({ id: r.node_id, documentId: r.document_id, score: clampScore(1 - r.distance) }));
  }
}

/** A SQL string literal (standard_conforming_strings, the default since PostgreSQL 9.1). */
function sqlLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
