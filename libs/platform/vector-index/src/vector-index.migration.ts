import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `vector_index.node_vectors`: one vector per semantic node, tagged with its repository instance,
 * document, model and size. The `embedding` column is pgvector's `vector` (without a fixed size, so
 * models of different sizes share the table) when the extension exists or can be created here, else
 * `real[]` (stock PostgreSQL, as on CI): the VectorIndex adapter is chosen from the column's type at
 * startup. The per-model HNSW indexes are created by PgVectorIndex, not here (see there).
 */
export class CreateVectorIndexSchema1763700000400 implements MigrationInterface {
  name = 'CreateVectorIndexSchema1763700000400';

  async up(q: QueryRunner): Promise<void> {
    const pgvector = await ensurePgvector(q);
    await q.query(`CREATE SCHEMA IF NOT EXISTS vector_index`);
    await q.query(`CREATE TABLE vector_index.node_vectors (
      node_id text PRIMARY KEY,
      instance_id text NOT NULL,
      document_id text NOT NULL,
      model text NOT NULL,
      dims int NOT NULL CHECK (dims > 0),
      embedding ${pgvector ? 'vector' : 'real[]'} NOT NULL,
      CONSTRAINT node_vectors_dims CHECK (${
        pgvector
          ? 'vector_dims(embedding) = dims'
          : 'array_ndims(embedding) = 1 AND cardinality(embedding) = dims AND array_position(embedding, NULL) IS NULL'
      }))`);
    await q.query(`CREATE INDEX node_vectors_instance_model ON vector_index.node_vectors (instance_id, model)`);
    await q.query(`CREATE INDEX node_vectors_document ON vector_index.node_vectors (document_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The extension stays: other schemas may use it.
    await q.query(`DROP SCHEMA vector_index CASCADE`);
  }
}

/**
 * True when pgvector is installed after this call. Creating it is attempted only when the server
 * offers it (`pg_available_extensions`), inside a savepoint: a role without the right to create
 * extensions falls back to `real[]` instead of failing the migration.
 */
async function ensurePgvector(q: QueryRunner): Promise<boolean> {
  const installed = async () => (await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)).length > 0;
  if (await installed()) return true;
  const available = await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  if (available.length === 0) return false;
  await q.query(`SAVEPOINT vector_index_pgvector`);
  try {
    await q.query(`CREATE EXTENSION IF NOT EXISTS vector`);
    await q.query(`RELEASE SAVEPOINT vector_index_pgvector`);
  } catch {
    await q.query(`ROLLBACK TO SAVEPOINT vector_index_pgvector`);
    return false;
  }
  return installed();
}

export const VECTOR_INDEX_MIGRATIONS = [CreateVectorIndexSchema1763700000400];
