import { VectorMatch } from '@svc/kernel';
import { SqlVectorIndex } from './sql-vector-index';
import { clampScore } from './vector-input';

/**
 * Queries with at most this many non-zero components are scored term by term (see nearest);
 * denser ones (typical of neural embeddings) by one pass over both arrays. Also bounds the
 * statement's expression depth.
 */
export const SPARSE_QUERY_MAX_TERMS = 1000;

/**
 * The VectorIndex on PostgreSQL without pgvector (`embedding real[]`), as on CI's stock server; with
 * `VECTOR_STORE=exact-scan`, also over a pgvector column (read as `real[]`, written through pgvector's cast).
 *
 * Exact and bounded, not indexed: a search reads every vector of the instance and model (through the
 * (instance_id, model) index) and scores it in SQL; PostgreSQL keeps only the top `limit` rows
 * (top-N heap sort), so memory stays bounded and no vector leaves the server. Stored vectors are unit
 * length (storableVector), so the cosine is the dot product with the unit query.
 *
 * The dot product only needs the stored components where the query is non-zero. Hashed-feature
 * queries (the local embedder) have a few dozen of 512, so the statement inlines them as
 * `e[i] * q_i` terms over a private copy of the stored array (`embedding || '{}'`, decompressed
 * once per row; a subscript on the column itself would decompress it per term): measured on
 * PostgreSQL 15 with 20,000 vectors of 512 dimensions and an 80-term query, 125 ms instead of 1.3 s
 * for the `unnest` pass over both arrays, which remains for dense queries. Cost stays linear in the
 * instance's vectors (see tools/bench for figures at 100,000); install pgvector for HNSW.
 */
export class ExactScanVectorIndex extends SqlVectorIndex {
  protected embeddingSql(param: string): string {
    return `${param}::real[]`;
  }

  protected embeddingValue(vector: number[]): unknown {
    return vector;
  }

  protected async prepareWrite(): Promise<void> {
    // Nothing to prepare: a scan needs no index per vector space.
  }

  protected async nearest(instanceId: string, model: string, unit: number[], limit: number): Promise<VectorMatch[]> {
    const terms: string[] = [];
    unit.forEach((q, i) => {
      // Finite by checkedQuery; String() gives a valid numeric literal ("-0.25", "1.5e-7").
      if (q !== 0) terms.push(`x.e[${i + 1}]::float8 * ${String(q)}::float8`);
    });
    const sparse = terms.length <= SPARSE_QUERY_MAX_TERMS;
    const score = sparse ? `SELECT ${terms.join(' + ')} AS score` : `SELECT sum(e::float8 * q) AS score FROM unnest(x.e, $5::float8[]) AS t(e, q)`;
    const rows: { node_id: string; document_id: string; score: number }[] = await this.uow.manager().query(
      // LATERAL x: the stored array copied once per row (OFFSET 0 keeps it from being inlined);
      // LATERAL s: the score computed once per row. A stored zero vector scores 0 like an
      // orthogonal one; the zero test (a scan of its components) runs only for those rows.
      `SELECT v.node_id, v.document_id, s.score
       FROM vector_index.node_vectors v
       CROSS JOIN LATERAL (SELECT v.embedding::real[] || '{}'::real[] AS e OFFSET 0) x
       CROSS JOIN LATERAL (${score}) s
       WHERE v.instance_id = $1 AND v.model = $2 AND v.dims = $3
         AND (s.score <> 0 OR EXISTS (SELECT 1 FROM unnest(x.e) AS c WHERE c <> 0))
       ORDER BY s.score DESC, v.node_id COLLATE "C"
       LIMIT $4`,
      sparse ? [instanceId, model, unit.length, limit] : [instanceId, model, unit.length, limit, unit],
    );
    return rows.map((r) => ({ id: r.node_id, documentId: r.document_id, score: clampScore(r.score) }));
  }
}
