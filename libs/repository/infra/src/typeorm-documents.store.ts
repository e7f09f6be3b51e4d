import { Injectable } from '@nestjs/common';
import { selectPage, TypeOrmUnitOfWork } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import { DocumentRepository, FullTextMatch, IndexationState, ReadOptions, RepositoryDocument, SemanticNode, SemanticNodeRepository } from '@svc/repository-core';

interface DocumentRow {
  id: string;
  instance_id: string;
  external_id: string;
  name: string;
  url: string | null;
  owner: string | null;
  extraproperties: Record<string, unknown>;
  media_type: string;
  size_bytes: number;
  content_hash: string;
  state: IndexationState;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  indexed_at: Date | null;
  total?: string;
}

const toDocument = (r: DocumentRow): RepositoryDocument => ({
  id: r.id,
  instanceId: r.instance_id,
  externalId: r.external_id,
  name: r.name,
  url: r.url,
  owner: r.owner,
  extraproperties: r.extraproperties,
  mediaType: r.media_type,
  sizeBytes: r.size_bytes,
  contentHash: r.content_hash,
  state: r.state,
  failureReason: r.failure_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  indexedAt: r.indexed_at,
});

@Injectable()
export class TypeOrmDocumentRepository extends DocumentRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async findByExternalId(instanceId: string, externalId: string, options: ReadOptions = {}): Promise<RepositoryDocument | null> {
    const lock = options.forUpdate ? ' FOR UPDATE' : '';
    const [row] = await this.q<DocumentRow>(`SELECT * FROM repository.documents WHERE instance_id = $1 AND external_id = $2${lock}`, [instanceId, externalId]);
    return row ? toDocument(row) : null;
  }

  async get(instanceId: string, id: string, options: ReadOptions = {}): Promise<RepositoryDocument | null> {
    const lock = options.forUpdate ? ' FOR UPDATE' : '';
    const [row] = await this.q<DocumentRow>(`SELECT * FROM repository.documents WHERE instance_id = $1 AND id = $2${lock}`, [instanceId, id]);
    return row ? toDocument(row) : null;
  }

  async startIndexation(instanceId: string, id: string, contentHash: string, now: Date, attemptId: string): Promise<RepositoryDocument | null> {
    // One guarded statement (its own row lock and commit): no transaction round trips per job.
    const [row] = await this.q<DocumentRow>(
      `WITH changed AS (
         UPDATE repository.documents SET state = 'PARSING', failure_reason = NULL, updated_at = $4, indexing_attempt = $5
          WHERE instance_id = $1 AND id = $2 AND content_hash = $3 AND state NOT IN ('INDEXED', 'DELETED')
          RETURNING *)
       SELECT * FROM changed`,
      [instanceId, id, contentHash, now, attemptId],
    );
    return row ? toDocument(row) : null;
  }

  async getMany(instanceId: string, ids: string[]): Promise<RepositoryDocument[]> {
    if (ids.length === 0) return [];
    const rows = await this.q<DocumentRow>(`SELECT * FROM repository.documents WHERE instance_id = $1 AND id = ANY($2)`, [instanceId, ids]);
    return rows.map(toDocument);
  }

  async lockInstanceIngestion(instanceId: string): Promise<void> {
    // A transaction-scoped advisory lock: released at commit or rollback, never left behind.
    await this.q(`SELECT pg_advisory_xact_lock(hashtext('repository.ingestion'), hashtext($1))`, [instanceId]);
  }

  async save(d: RepositoryDocument): Promise<void> {
    await this.q(
      `INSERT INTO repository.documents (id, instance_id, external_id, name, url, owner, extraproperties, media_type, size_bytes, content_hash, state, failure_reason, created_at, updated_at, indexed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (id) DO UPDATE SET external_id = EXCLUDED.external_id, name = EXCLUDED.name, url = EXCLUDED.url, owner = EXCLUDED.owner,
         extraproperties = EXCLUDED.extraproperties, media_type = EXCLUDED.media_type, size_bytes = EXCLUDED.size_bytes,
         content_hash = EXCLUDED.content_hash, state = EXCLUDED.state, failure_reason = EXCLUDED.failure_reason,
         updated_at = EXCLUDED.updated_at, indexed_at = EXCLUDED.indexed_at`,
      [d.id, d.instanceId, d.externalId, d.name, d.url, d.owner, JSON.stringify(d.extraproperties), d.mediaType, d.sizeBytes, d.contentHash, d.state, d.failureReason, d.createdAt, d.updatedAt, d.indexedAt],
    );
  }

  async list(instanceId: string, page: PageRequest, state?: IndexationState): Promise<Page<RepositoryDocument>> {
    const filter = state ? `AND state = $2` : `AND state <> 'DELETED'`;
    return selectPage(
      (sql, params) => this.q(sql, params),
      { from: `FROM repository.documents WHERE instance_id = $1 ${filter}`, orderBy: 'created_at DESC, id DESC', params: state ? [instanceId, state] : [instanceId] },
      page,
      toDocument,
    );
  }

  async saveContent(documentId: string, content: Buffer): Promise<void> {
    await this.q(
      `INSERT INTO repository.document_contents (document_id, content) VALUES ($1, $2) ON CONFLICT (document_id) DO UPDATE SET content = EXCLUDED.content`,
      [documentId, content],
    );
  }

  async loadContent(documentId: string): Promise<Buffer | null> {
    const [row] = await this.q<{ content: Buffer }>(`SELECT content FROM repository.document_contents WHERE document_id = $1`, [documentId]);
    return row ? Buffer.from(row.content) : null;
  }

  async removeContent(documentId: string): Promise<void> {
    await this.q(`DELETE FROM repository.document_contents WHERE document_id = $1`, [documentId]);
  }

  async count(instanceId: string, state?: IndexationState): Promise<number> {
    const rows = await this.q<{ n: string }>(
      state ? `SELECT count(*) AS n FROM repository.documents WHERE instance_id = $1 AND state = $2` : `SELECT count(*) AS n FROM repository.documents WHERE instance_id = $1 AND state <> 'DELETED'`,
      state ? [instanceId, state] : [instanceId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async countByState(instanceId: string): Promise<Partial<Record<IndexationState, number>>> {
    const rows = await this.q<{ state: IndexationState; n: string }>(`SELECT state, count(*) AS n FROM repository.documents WHERE instance_id = $1 GROUP BY state`, [instanceId]);
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  async totalBytes(instanceId: string): Promise<number> {
    const rows = await this.q<{ n: string | null }>(`SELECT sum(size_bytes) AS n FROM repository.documents WHERE instance_id = $1 AND state <> 'DELETED'`, [instanceId]);
    return Number(rows[0]?.n ?? 0);
  }

  async activeIds(instanceId: string): Promise<string[]> {
    const rows = await this.q<{ id: string }>(`SELECT id FROM repository.documents WHERE instance_id = $1 AND state <> 'DELETED' ORDER BY id`, [instanceId]);
    return rows.map((r) => r.id);
  }
}

interface NodeRow {
  id: string;
  instance_id: string;
  document_id: string;
  position: number;
  text: string;
  heading_path: string[];
  char_start: number;
  char_end: number;
}

/** Rows per INSERT: 8 parameters each. */
const NODES_PER_STATEMENT = 200;

/**
 * The join condition that keeps a reader (`n`, joined to its document `d`) on the document's published
 * attempt: the rows an attempt is writing, and those of the version it replaces once published, are
 * never read. Rows written before attempts existed have none, like their documents' `nodes_attempt`.
 */
const PUBLISHED = 'n.attempt_id IS NOT DISTINCT FROM d.nodes_attempt';
const NODE_COLUMNS = 'n.id, n.instance_id, n.document_id, n.position, n.text, n.heading_path, n.char_start, n.char_end';

/**
 * Nodes with their full-text vector: English stemming (weight A) plus the unstemmed 'simple'
 * configuration, so words of other languages and exact terms match too.
 */
@Injectable()
export class TypeOrmSemanticNodeRepository extends SemanticNodeRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async stage(attemptId: string, nodes: SemanticNode[]): Promise<void> {
    for (let i = 0; i < nodes.length; i += NODES_PER_STATEMENT) {
      const batch = nodes.slice(i, i + NODES_PER_STATEMENT);
      const values: unknown[] = [attemptId];
      const tuples = batch.map((n, j) => {
        const b = 1 + j * 8;
        values.push(n.id, n.instanceId, n.documentId, n.position, n.text, n.headingPath, n.charStart, n.charEnd);
        const text = `$${b + 5}`;
        const headings = `array_to_string($${b + 6}::text[], ' ')`;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, ${text}, $${b + 6}::text[], $${b + 7}, $${b + 8},
          setweight(to_tsvector('english', ${headings}), 'A') || setweight(to_tsvector('english', ${text}), 'B') || setweight(to_tsvector('simple', ${text}), 'D'), $1)`;
      });
      await this.q(
        `INSERT INTO repository.semantic_nodes (id, instance_id, document_id, position, text, heading_path, char_start, char_end, search_vector, attempt_id) VALUES ${tuples.join(', ')}`,
        values,
      );
    }
  }

  async publish(documentId: string, attemptId: string, expected: number): Promise<boolean> {
    // RETURNING through a CTE: TypeORM answers an UPDATE or DELETE with [rows, count], a SELECT with its rows.
    const rows = await this.q<{ id: string }>(
      `WITH published AS (
         UPDATE repository.documents SET nodes_attempt = $2
          WHERE id = $1 AND indexing_attempt = $2
            AND (SELECT count(*) FROM repository.semantic_nodes WHERE document_id = $1 AND attempt_id = $2) = $3
          RETURNING id)
       SELECT id FROM published`,
      [documentId, attemptId, expected],
    );
    return rows.length > 0;
  }

  async removeUnpublished(documentId: string, limit: number, abandoned?: string): Promise<string[]> {
    const rows = await this.q<{ id: string }>(
      `WITH removed AS (
         DELETE FROM repository.semantic_nodes WHERE id IN (
           SELECT n.id FROM repository.semantic_nodes n JOIN repository.documents d ON d.id = n.document_id
            WHERE n.document_id = $1 AND n.attempt_id IS DISTINCT FROM d.nodes_attempt
              AND (n.attempt_id IS DISTINCT FROM d.indexing_attempt OR n.attempt_id = $3)
            LIMIT $2)
         RETURNING id)
       SELECT id FROM removed`,
      [documentId, limit, abandoned ?? null],
    );
    return rows.map((r) => r.id);
  }

  async removeForDocument(documentId: string): Promise<void> {
    await this.q(`DELETE FROM repository.semantic_nodes WHERE document_id = $1`, [documentId]);
  }

  async fullTextSearch(instanceId: string, query: string, limit: number): Promise<FullTextMatch[]> {
    // Any of the query's content words may match (OR of lexemes), ranked by how many and how close.
    // The English configuration drops stop words ("how", "do", "the"), which would otherwise match
    // nearly every node; a query made only of stop words falls back to the unstemmed 'simple' one.
    const rows = await this.q<{ id: string; document_id: string; rank: number }>(
      `WITH english AS (
         SELECT string_agg(DISTINCT quote_literal(lexeme), ' | ') AS q FROM unnest(tsvector_to_array(to_tsvector('english', $2))) AS lexeme),
       simple AS (
         SELECT string_agg(DISTINCT quote_literal(lexeme), ' | ') AS q FROM unnest(tsvector_to_array(to_tsvector('simple', $2))) AS lexeme),
       terms AS (SELECT coalesce(english.q, simple.q) AS q FROM english, simple)
       SELECT n.id, n.document_id, ts_rank_cd(n.search_vector, to_tsquery('simple', terms.q)) AS rank
         FROM repository.semantic_nodes n JOIN repository.documents d ON d.id = n.document_id AND ${PUBLISHED}, terms
        WHERE terms.q IS NOT NULL AND n.instance_id = $1 AND n.search_vector @@ to_tsquery('simple', terms.q)
        ORDER BY rank DESC, n.id ASC
        LIMIT $3`,
      [instanceId, query, limit],
    );
    return rows.map((r) => ({ id: r.id, documentId: r.document_id, rank: Number(r.rank) }));
  }

  async getMany(ids: string[]): Promise<SemanticNode[]> {
    if (ids.length === 0) return [];
    return this.nodes(await this.q<NodeRow>(`SELECT ${NODE_COLUMNS} FROM repository.semantic_nodes n JOIN repository.documents d ON d.id = n.document_id AND ${PUBLISHED} WHERE n.id = ANY($1)`, [ids]));
  }

  async ofDocuments(instanceId: string, documentIds: string[]): Promise<SemanticNode[]> {
    if (documentIds.length === 0) return [];
    return this.nodes(
      await this.q<NodeRow>(
        `SELECT ${NODE_COLUMNS} FROM repository.semantic_nodes n JOIN repository.documents d ON d.id = n.document_id AND ${PUBLISHED}
          WHERE n.instance_id = $1 AND n.document_id = ANY($2) ORDER BY n.document_id, n.position`,
        [instanceId, documentIds],
      ),
    );
  }

  private nodes(rows: NodeRow[]): SemanticNode[] {
    return rows.map((r) => ({
      id: r.id,
      instanceId: r.instance_id,
      documentId: r.document_id,
      position: r.position,
      text: r.text,
      headingPath: r.heading_path,
      charStart: r.char_start,
      charEnd: r.char_end,
    }));
  }
}
