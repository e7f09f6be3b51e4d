import type { TypeOrmUnitOfWork } from '@svc/database';
import { IndexedVector, VectorIndex, VectorMatch } from '@svc/kernel';
import type { EntityManager } from 'typeorm';
import { checkedQuery, checkedUpsert, checkKey } from './vector-input';

/** Rows per INSERT: 3 parameters each, and statements of a few MB at most with large vectors. */
const ROWS_PER_STATEMENT = 200;

/**
 * What both PostgreSQL adapters share: writes (upsert, removeDocument, removeNodes) through the unit of work's
 * manager, so they join the caller's transaction; an upsert of several statements runs in one
 * transaction of its own when the caller has none. Subclasses say how a vector is written and searched.
 */
export abstract class SqlVectorIndex extends VectorIndex {
  constructor(protected readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  /** The SQL expression that turns parameter `$n` into the column's type. */
  protected abstract embeddingSql(param: string): string;
  /** The parameter value of one vector. */
  protected abstract embeddingValue(vector: number[]): unknown;
  /** Called in the upsert's transaction before the rows are written. */
  protected abstract prepareWrite(manager: EntityManager, model: string, dims: number): Promise<void>;
  /** The `limit` stored vectors most similar to the unit vector `unit`, best first, ties by node id. */
  protected abstract nearest(instanceId: string, model: string, unit: number[], limit: number): Promise<VectorMatch[]>;

  async upsert(instanceId: string, model: string, vectors: IndexedVector[]): Promise<void> {
    const { dims, rows } = checkedUpsert(instanceId, model, vectors);
    if (rows.length === 0) return;
    await this.uow.run(async () => {
      const manager = this.uow.manager();
      await this.prepareWrite(manager, model, dims);
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        const params: unknown[] = [instanceId, model, dims];
        const values = chunk.map((row) => {
          params.push(row.id, row.documentId, this.embeddingValue(row.vector));
          const n = params.length;
          return `($${n - 2}, $1, $${n - 1}, $2, $3, ${this.embeddingSql(`$${n}`)})`;
        });
        await manager.query(
          `INSERT INTO vector_index.node_vectors (node_id, instance_id, document_id, model, dims, embedding)
           VALUES ${values.join(', ')}
           ON CONFLICT (node_id) DO UPDATE SET instance_id = EXCLUDED.instance_id, document_id = EXCLUDED.document_id,
             model = EXCLUDED.model, dims = EXCLUDED.dims, embedding = EXCLUDED.embedding`,
          params,
        );
      }
    });
  }

  async removeDocument(instanceId: string, documentId: string): Promise<void> {
    checkKey('instance id', instanceId);
    checkKey('document id', documentId);
    await this.uow
      .manager()
      .query(`DELETE FROM vector_index.node_vectors WHERE instance_id = $1 AND document_id = $2`, [instanceId, documentId]);
  }

  async removeNodes(instanceId: string, nodeIds: readonly string[]): Promise<void> {
    checkKey('instance id', instanceId);
    for (const id of nodeIds) checkKey('node id', id);
    if (nodeIds.length === 0) return;
    await this.uow.manager().query(`DELETE FROM vector_index.node_vectors WHERE instance_id = $1 AND node_id = ANY($2)`, [instanceId, [...nodeIds]]);
  }

  async vectorsOf(instanceId: string, model: string, documentIds: string[]): Promise<IndexedVector[]> {
    checkKey('instance id', instanceId);
    checkKey('model', model);
    if (documentIds.length === 0) return [];
    // pgvector's vector casts to real[]; the exact-scan adapter's column is real[] already.
    const rows: { node_id: string; document_id: string; embedding: (number | string)[] }[] = await this.uow
      .manager()
      .query(`SELECT node_id, document_id, embedding::real[] AS embedding FROM vector_index.node_vectors WHERE instance_id = $1 AND model = $2 AND document_id = ANY($3) ORDER BY node_id COLLATE "C"`, [instanceId, model, documentIds]);
    return rows.map((r) => ({ id: r.node_id, documentId: r.document_id, vector: r.embedding.map(Number) }));
  }

  async search(instanceId: string, model: string, vector: number[], limit: number): Promise<VectorMatch[]> {
    const query = checkedQuery(instanceId, model, vector, limit);
    if (!query) return [];
    return this.nearest(instanceId, model, query.unit, query.limit);
  }
}
