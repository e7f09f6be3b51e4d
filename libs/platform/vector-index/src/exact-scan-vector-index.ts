import { VectorMatch } from '@svc/kernel';
import { SqlVectorIndex } from './sql-vector-index';
import { clampScore } from './vector-input';

/**
 * The VectorIndex on PostgreSQL without pgvector (`embedding real[]`), as on CI's stock server.
 *
 * Exact and bounded, not fast: a search reads every vector of the instance and model (through the
 * (instance_id, model) index) and computes the cosine in SQL (`unnest` of the stored vector zipped
 * with the unit query vector, in double precision); PostgreSQL keeps only the top `limit` rows
 * (top-N heap sort), so memory stays bounded and no vector leaves the server. Cost is linear in the
 * vectors of the instance and model: about 50 µs per 512-dimension vector on the development machine
 * (PostgreSQL 15, 2 cores), so ~0.5 s for 10,000 nodes and ~5 s for 100,000; the statement timeout
 * (30 s) bounds it. Beyond a few tens of thousands of nodes per instance, install pgvector (the
 * migration then creates a `vector` column; an existing `real[]` table needs a migration of its own).
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
    const rows: { node_id: string; document_id: string; score: number }[] = await this.uow.manager().query(
      // LATERAL: the cosine is computed once per row (a plain subquery would be evaluated again for
      // the NULL filter). A zero stored vector has a NULL cosine and never matches.
      `SELECT v.node_id, v.document_id, s.score
       FROM vector_index.node_vectors v
       CROSS JOIN LATERAL (
         SELECT sum(e::float8 * q) / nullif(sqrt(sum(e::float8 * e::float8)), 0) AS score
         FROM unnest(v.embedding, $3::float8[]) AS t(e, q)) s
       WHERE v.instance_id = $1 AND v.model = $2 AND v.dims = $4 AND s.score IS NOT NULL
       ORDER BY s.score DESC, v.node_id COLLATE "C"
       LIMIT $5`,
      [instanceId, model, unit, unit.length, limit],
    );
    return rows.map((r) => ({ id: r.node_id, documentId: r.document_id, score: clampScore(r.score) }));
  }
}
