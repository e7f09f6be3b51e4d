import { Injectable } from '@nestjs/common';
import { Query, queryOf, selectPage, SqlConditions, TypeOrmUnitOfWork, updateVersioned } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import {
  blockKey,
  ClaimBlock,
  ClaimStore,
  DirtyDocument,
  DocumentClaims,
  FullAuditChanges,
  FullAuditConflict,
  FullAuditConflictRepository,
  FullAuditFinding,
  FullAuditListFilter,
  FullAuditScan,
  FullAuditState,
  isImportant,
  ModelBatchStore,
  ModelRejections,
  PendingModelBatch,
  ScanStore,
  Visible,
} from '@svc/full-audit-core';
import { claimBlocks } from '@svc/text';


interface ConflictRow {
  id: string;
  instance_id: string;
  organization_id: string;
  fingerprint: string;
  state: FullAuditState;
  attribute: string;
  subject: string;
  explanation: string;
  excerpts: FullAuditConflict['excerpts'];
  document_ids: string[];
  pairs: FullAuditConflict['pairs'];
  compagnon_questions: string[];
  linked_questions: FullAuditConflict['linkedQuestions'];
  answer: string | null;
  compagnon_recommendations: FullAuditConflict['compagnonRecommendations'];
  created_at: Date;
  updated_at: Date;
  last_seen_at: Date;
  answered_at: Date | null;
  managed_at: Date | null;
  absent_since: Date | null;
  version: number;
}

const toConflict = (r: ConflictRow): FullAuditConflict => ({
  id: r.id,
  instanceId: r.instance_id,
  organizationId: r.organization_id,
  fingerprint: r.fingerprint,
  state: r.state,
  attribute: r.attribute,
  subject: r.subject,
  explanation: r.explanation,
  excerpts: r.excerpts,
  documentIds: r.document_ids,
  pairs: r.pairs ?? [],
  compagnonQuestions: r.compagnon_questions,
  linkedQuestions: r.linked_questions,
  answer: r.answer,
  compagnonRecommendations: r.compagnon_recommendations,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastSeenAt: r.last_seen_at,
  answeredAt: r.answered_at,
  managedAt: r.managed_at,
  absentSince: r.absent_since,
  version: r.version,
});

const JSON_COLUMNS = new Set(['excerpts', 'pairs', 'compagnon_questions', 'linked_questions', 'compagnon_recommendations']);
const COLUMNS: Record<keyof FullAuditChanges, string> = {
  state: 'state',
  answer: 'answer',
  answeredAt: 'answered_at',
  compagnonRecommendations: 'compagnon_recommendations',
  managedAt: 'managed_at',
  absentSince: 'absent_since',
  lastSeenAt: 'last_seen_at',
  updatedAt: 'updated_at',
  excerpts: 'excerpts',
  subject: 'subject',
  explanation: 'explanation',
  compagnonQuestions: 'compagnon_questions',
  linkedQuestions: 'linked_questions',
  documentIds: 'document_ids',
  pairs: 'pairs',
};

@Injectable()
export class TypeOrmFullAuditConflictRepository extends FullAuditConflictRepository {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async insertIfNew(c: FullAuditConflict): Promise<boolean> {
    const rows = await this.q(
      `INSERT INTO full_audit.conflicts (id, instance_id, organization_id, fingerprint, state, attribute, subject, explanation, excerpts, document_ids, compagnon_questions, linked_questions, is_important, answer, compagnon_recommendations, created_at, updated_at, last_seen_at, version, pairs)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT (instance_id, fingerprint) DO NOTHING RETURNING id`,
      [c.id, c.instanceId, c.organizationId, c.fingerprint, c.state, c.attribute, c.subject, c.explanation, JSON.stringify(c.excerpts), c.documentIds, JSON.stringify(c.compagnonQuestions), JSON.stringify(c.linkedQuestions), isImportant(c), c.answer, JSON.stringify(c.compagnonRecommendations), c.createdAt, c.updatedAt, c.lastSeenAt, c.version, JSON.stringify(c.pairs)],
    );
    return rows.length === 1;
  }

  async get(instanceId: string, id: string): Promise<FullAuditConflict | null> {
    const [row] = await this.q<ConflictRow>(`SELECT * FROM full_audit.conflicts WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
    return row ? toConflict(row) : null;
  }

  async list(instanceId: string, filter: FullAuditListFilter, page: PageRequest): Promise<Page<FullAuditConflict>> {
    const where = new SqlConditions((n) => `instance_id = $${n}`, instanceId);
    if (filter.states.length > 0) where.add((n) => `state = ANY($${n})`, filter.states);
    else where.also(`state <> 'DISAPPEARED'`);
    if (filter.onlyLinked) where.also('is_important');
    if (filter.visible !== 'all') where.add((n) => `document_ids && $${n}::text[]`, filter.visible);
    return selectPage((sql, p) => this.q(sql, p), { from: `FROM full_audit.conflicts WHERE ${where.where}`, orderBy: 'created_at DESC, id DESC', params: where.params }, page, toConflict);
  }

  async inScope(instanceId: string, documentIds: string[] | null): Promise<FullAuditConflict[]> {
    const rows = await this.q<ConflictRow>(`SELECT * FROM full_audit.conflicts WHERE instance_id = $1 AND ($2::text[] IS NULL OR document_ids && $2::text[]) ORDER BY created_at, id`, [instanceId, documentIds]);
    return rows.map(toConflict);
  }

  update(key: { id: string; version: number }, changes: FullAuditChanges): Promise<boolean> {
    const columns: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(changes)) {
      const column = COLUMNS[k as keyof FullAuditChanges];
      columns[column] = JSON_COLUMNS.has(column) ? JSON.stringify(v) : v;
    }
    if (changes.linkedQuestions) columns.is_important = changes.linkedQuestions.length > 0;
    return updateVersioned((sql, p) => this.q(sql, p), 'full_audit.conflicts', key, columns);
  }

  async count(instanceId: string, states: FullAuditState[], visible: Visible): Promise<number> {
    const [row] = await this.q<{ n: string }>(`SELECT count(*) AS n FROM full_audit.conflicts WHERE instance_id = $1 AND state = ANY($2) AND ($3::text[] IS NULL OR document_ids && $3::text[])`, [instanceId, states, visible === 'all' ? null : visible]);
    return Number(row?.n ?? 0);
  }

  async withFingerprints(instanceId: string, fingerprints: string[]): Promise<FullAuditConflict[]> {
    if (fingerprints.length === 0) return [];
    const rows = await this.q<ConflictRow>(`SELECT * FROM full_audit.conflicts WHERE instance_id = $1 AND fingerprint = ANY($2)`, [instanceId, fingerprints]);
    return rows.map(toConflict);
  }
}

interface ModelBatchRow {
  batch_id: string;
  instance_id: string;
  candidates: FullAuditFinding[];
  content_hashes: Record<string, string>;
  submitted_at: Date;
}

@Injectable()
export class TypeOrmModelBatchStore extends ModelBatchStore {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async add(b: PendingModelBatch): Promise<void> {
    await this.q(
      `INSERT INTO full_audit.model_batches (batch_id, instance_id, candidates, candidate_count, fingerprints, content_hashes, submitted_at) VALUES ($1, $2, $3::jsonb, $4, $5, $6::jsonb, $7)`,
      [b.batchId, b.instanceId, JSON.stringify(b.candidates), b.candidates.length, b.candidates.map((c) => c.fingerprint), JSON.stringify(b.contentHashes), b.submittedAt],
    );
  }

  async pending(batchId: string): Promise<PendingModelBatch | null> {
    const [row] = await this.q<ModelBatchRow>(`SELECT batch_id, instance_id, candidates, content_hashes, submitted_at FROM full_audit.model_batches WHERE batch_id = $1 AND applied_at IS NULL`, [batchId]);
    return row ? { batchId: row.batch_id, instanceId: row.instance_id, candidates: row.candidates, contentHashes: row.content_hashes, submittedAt: row.submitted_at } : null;
  }

  async pendingFingerprints(instanceId: string): Promise<Set<string>> {
    const rows = await this.q<{ fingerprint: string }>(`SELECT unnest(fingerprints) AS fingerprint FROM full_audit.model_batches WHERE instance_id = $1 AND applied_at IS NULL`, [instanceId]);
    return new Set(rows.map((r) => r.fingerprint));
  }

  async awaiting(instanceId: string): Promise<number> {
    const [row] = await this.q<{ n: string | null }>(`SELECT sum(candidate_count) AS n FROM full_audit.model_batches WHERE instance_id = $1 AND applied_at IS NULL`, [instanceId]);
    return Number(row?.n ?? 0);
  }

  async applied(batchId: string, at: Date): Promise<boolean> {
    const rows = await this.q<{ batch_id: string }>(
      `UPDATE full_audit.model_batches SET applied_at = $2, candidates = '[]'::jsonb, fingerprints = '{}' WHERE batch_id = $1 AND applied_at IS NULL RETURNING batch_id`,
      [batchId, at],
    );
    return rows.length === 1;
  }

  async polled(batchId: string, at: Date): Promise<void> {
    await this.q(`UPDATE full_audit.model_batches SET polled_at = $2 WHERE batch_id = $1`, [batchId, at]);
  }

  async pendingSince(before: Date): Promise<{ instanceId: string; batchId: string }[]> {
    const rows = await this.q<{ instance_id: string; batch_id: string }>(
      `SELECT instance_id, batch_id FROM full_audit.model_batches WHERE applied_at IS NULL AND coalesce(polled_at, submitted_at) < $1 ORDER BY submitted_at`,
      [before],
    );
    return rows.map((r) => ({ instanceId: r.instance_id, batchId: r.batch_id }));
  }
}

@Injectable()
export class TypeOrmModelRejections extends ModelRejections {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async of(instanceId: string, fingerprints: string[]): Promise<Map<string, Record<string, string>>> {
    if (fingerprints.length === 0) return new Map();
    const rows = await this.q<{ fingerprint: string; content_hashes: Record<string, string> }>(
      `SELECT fingerprint, content_hashes FROM full_audit.model_rejections WHERE instance_id = $1 AND fingerprint = ANY($2)`,
      [instanceId, fingerprints],
    );
    return new Map(rows.map((r) => [r.fingerprint, r.content_hashes]));
  }

  async record(instanceId: string, rejected: { fingerprint: string; contentHashes: Record<string, string> }[], at: Date): Promise<void> {
    if (rejected.length === 0) return;
    await this.q(
      `INSERT INTO full_audit.model_rejections (instance_id, fingerprint, content_hashes, judged_at)
       SELECT $1, f, h::jsonb, $4 FROM unnest($2::text[], $3::text[]) AS t(f, h)
       ON CONFLICT (instance_id, fingerprint) DO UPDATE SET content_hashes = EXCLUDED.content_hashes, judged_at = EXCLUDED.judged_at`,
      [instanceId, rejected.map((r) => r.fingerprint), rejected.map((r) => JSON.stringify(r.contentHashes)), at],
    );
  }
}

interface ClaimsRow {
  document_id: string;
  content_hash: string;
  claims: DocumentClaims['claims'];
  model_statements: DocumentClaims['statements'];
  changed_at: Date;
}

/** Documents per statement when all the claims are read (about 10 claims, 10 kB of JSON, each). */
const CLAIMS_PAGE = 100;

// Offline (no model statements) a document reads as it always did.
const toDocumentClaims = (r: ClaimsRow): DocumentClaims => ({ documentId: r.document_id, contentHash: r.content_hash, claims: r.claims, ...(r.model_statements ? { statements: r.model_statements } : {}), changedAt: r.changed_at });

@Injectable()
export class TypeOrmClaimStore extends ClaimStore {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async contentHashes(instanceId: string, documentIds: string[]): Promise<Map<string, string>> {
    if (documentIds.length === 0) return new Map();
    const rows = await this.q<{ document_id: string; content_hash: string }>(`SELECT document_id, content_hash FROM full_audit.document_claims WHERE instance_id = $1 AND document_id = ANY($2)`, [instanceId, documentIds]);
    return new Map(rows.map((r) => [r.document_id, r.content_hash]));
  }

  /** One statement per table for the whole chunk (a query per document cost 75 s of a 10,000-document scan). */
  async save(instanceId: string, documents: DocumentClaims[]): Promise<void> {
    if (documents.length === 0) return;
    const ids = documents.map((d) => d.documentId);
    await this.q(
      `INSERT INTO full_audit.document_claims (instance_id, document_id, content_hash, claims, claim_count, changed_at, model_statements)
       SELECT $1, d, h, c::jsonb, n, t, m::jsonb FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::text[]) AS u(d, h, c, n, t, m)
       ON CONFLICT (instance_id, document_id) DO UPDATE SET content_hash = EXCLUDED.content_hash, claims = EXCLUDED.claims, claim_count = EXCLUDED.claim_count, changed_at = EXCLUDED.changed_at,
         model_statements = EXCLUDED.model_statements`,
      [
        instanceId,
        ids,
        documents.map((d) => d.contentHash),
        documents.map((d) => JSON.stringify(d.claims)),
        documents.map((d) => d.claims.length),
        documents.map((d) => d.changedAt),
        documents.map((d) => (d.statements ? JSON.stringify(d.statements) : null)),
      ],
    );
    await this.q(`DELETE FROM full_audit.claim_blocks WHERE instance_id = $1 AND document_id = ANY($2::text[])`, [instanceId, ids]);
    const rows: { documentId: string; attribute: string; stem: string; claims: number }[] = [];
    for (const d of documents) {
      const blocks = new Map<string, { documentId: string; attribute: string; stem: string; claims: number }>();
      for (const c of d.claims) {
        for (const { attribute, stem } of claimBlocks(c)) {
          const key = blockKey({ attribute, stem });
          const block = blocks.get(key) ?? { documentId: d.documentId, attribute, stem, claims: 0 };
          block.claims += 1;
          blocks.set(key, block);
        }
      }
      rows.push(...blocks.values());
    }
    if (rows.length === 0) return;
    await this.q(
      `INSERT INTO full_audit.claim_blocks (instance_id, document_id, attribute, stem, claims) SELECT $1, d, a, s, n FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS t(d, a, s, n)`,
      [instanceId, rows.map((r) => r.documentId), rows.map((r) => r.attribute), rows.map((r) => r.stem), rows.map((r) => r.claims)],
    );
  }

  async remove(instanceId: string, documentIds: string[]): Promise<void> {
    if (documentIds.length === 0) return;
    await this.q(`DELETE FROM full_audit.document_claims WHERE instance_id = $1 AND document_id = ANY($2)`, [instanceId, documentIds]);
    await this.q(`DELETE FROM full_audit.claim_blocks WHERE instance_id = $1 AND document_id = ANY($2)`, [instanceId, documentIds]);
  }

  /**
   * Page by page (CLAIMS_PAGE documents, by id): one statement for 1,000 documents held the embedded database's only
   * connection, and the thread parsing its rows, for a request's whole patience; between two pages requests get their turn.
   */
  async all(instanceId: string): Promise<DocumentClaims[]> {
    const documents: DocumentClaims[] = [];
    for (let after = ''; ; ) {
      const rows = await this.q<ClaimsRow>(
        `SELECT document_id, content_hash, claims, model_statements, changed_at FROM full_audit.document_claims WHERE instance_id = $1 AND document_id > $2 ORDER BY document_id LIMIT $3`,
        [instanceId, after, CLAIMS_PAGE],
      );
      documents.push(...rows.map(toDocumentClaims));
      if (rows.length < CLAIMS_PAGE) return documents;
      after = rows[rows.length - 1].document_id;
    }
  }

  async ofDocuments(instanceId: string, documentIds: string[]): Promise<DocumentClaims[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.q<ClaimsRow>(`SELECT document_id, content_hash, claims, model_statements, changed_at FROM full_audit.document_claims WHERE instance_id = $1 AND document_id = ANY($2) ORDER BY document_id`, [instanceId, documentIds]);
    return rows.map(toDocumentClaims);
  }

  async withStatements(instanceId: string): Promise<Pick<DocumentClaims, 'documentId' | 'contentHash' | 'statements'>[]> {
    const documents: Pick<DocumentClaims, 'documentId' | 'contentHash' | 'statements'>[] = [];
    for (let after = ''; ; ) {
      const rows = await this.q<{ document_id: string; content_hash: string; model_statements: DocumentClaims['statements'] }>(
        `SELECT document_id, content_hash, model_statements FROM full_audit.document_claims
          WHERE instance_id = $1 AND document_id > $2 AND model_statements IS NOT NULL AND model_statements <> '[]'::jsonb ORDER BY document_id LIMIT $3`,
        [instanceId, after, CLAIMS_PAGE],
      );
      documents.push(...rows.map((r) => ({ documentId: r.document_id, contentHash: r.content_hash, statements: r.model_statements })));
      if (rows.length < CLAIMS_PAGE) return documents;
      after = rows[rows.length - 1].document_id;
    }
  }

  async statistics(instanceId: string, stems: string[]): Promise<{ claims: number; documents: number; documentFrequency: Map<string, number> }> {
    const [total] = await this.q<{ n: string | null; d: string }>(`SELECT sum(claim_count) AS n, count(*) FILTER (WHERE claim_count > 0) AS d FROM full_audit.document_claims WHERE instance_id = $1`, [instanceId]);
    // A subject stem counts claims; a scope name's (isNameStem) counts documents, as claimStemFrequencies does.
    const rows =
      stems.length === 0
        ? []
        : await this.q<{ stem: string; n: string }>(
            `SELECT stem, CASE WHEN left(stem, 1) = '@' THEN count(DISTINCT document_id) ELSE sum(claims) END AS n FROM full_audit.claim_blocks WHERE instance_id = $1 AND stem = ANY($2) GROUP BY stem`,
            [instanceId, stems],
          );
    return { claims: Number(total?.n ?? 0), documents: Number(total?.d ?? 0), documentFrequency: new Map(rows.map((r) => [r.stem, Number(r.n)])) };
  }

  async blockSizes(instanceId: string, blocks: ClaimBlock[]): Promise<Map<string, number>> {
    if (blocks.length === 0) return new Map();
    const rows = await this.q<{ attribute: string; stem: string; n: string }>(
      `SELECT b.attribute, b.stem, sum(b.claims) AS n FROM full_audit.claim_blocks b JOIN unnest($2::text[], $3::text[]) AS k(attribute, stem) ON b.attribute = k.attribute AND b.stem = k.stem
        WHERE b.instance_id = $1 GROUP BY b.attribute, b.stem`,
      [instanceId, blocks.map((b) => b.attribute), blocks.map((b) => b.stem)],
    );
    return new Map(rows.map((r) => [blockKey(r), Number(r.n)]));
  }

  async documentsInBlocks(instanceId: string, blocks: ClaimBlock[]): Promise<string[]> {
    if (blocks.length === 0) return [];
    const rows = await this.q<{ document_id: string }>(
      `SELECT DISTINCT b.document_id FROM full_audit.claim_blocks b JOIN unnest($2::text[], $3::text[]) AS k(attribute, stem) ON b.attribute = k.attribute AND b.stem = k.stem WHERE b.instance_id = $1`,
      [instanceId, blocks.map((b) => b.attribute), blocks.map((b) => b.stem)],
    );
    return rows.map((r) => r.document_id);
  }

  async markDirty(instanceId: string, documentIds: string[], at: Date): Promise<void> {
    if (documentIds.length === 0) return;
    await this.q(
      `INSERT INTO full_audit.dirty_documents (instance_id, document_id, marked_at) SELECT $1, unnest($2::text[]), $3
       ON CONFLICT (instance_id, document_id) DO UPDATE SET marked_at = EXCLUDED.marked_at`,
      [instanceId, documentIds, at],
    );
  }

  async dirty(instanceId: string): Promise<DirtyDocument[]> {
    const rows = await this.q<{ document_id: string; marked_at: Date }>(`SELECT document_id, marked_at FROM full_audit.dirty_documents WHERE instance_id = $1 ORDER BY document_id`, [instanceId]);
    return rows.map((r) => ({ documentId: r.document_id, markedAt: r.marked_at }));
  }

  async clearDirty(instanceId: string, upTo: Date): Promise<void> {
    await this.q(`DELETE FROM full_audit.dirty_documents WHERE instance_id = $1 AND marked_at <= $2`, [instanceId, upTo]);
  }

  async instancesWithDirty(before: Date): Promise<string[]> {
    const rows = await this.q<{ instance_id: string }>(`SELECT DISTINCT instance_id FROM full_audit.dirty_documents WHERE marked_at < $1`, [before]);
    return rows.map((r) => r.instance_id);
  }

  async driftOf(instanceId: string): Promise<{ changed: number; documents: number }> {
    const [row] = await this.q<{ changed: number | null; documents: string }>(
      `SELECT (SELECT documents FROM full_audit.judgement_drift WHERE instance_id = $1) AS changed, (SELECT count(*) FROM full_audit.document_claims WHERE instance_id = $1) AS documents`,
      [instanceId],
    );
    return { changed: Number(row.changed ?? 0), documents: Number(row.documents) };
  }

  async addDrift(instanceId: string, judged: number): Promise<{ changed: number; documents: number }> {
    const [row] = await this.q<{ changed: number; documents: string }>(
      `WITH d AS (INSERT INTO full_audit.judgement_drift (instance_id, documents) VALUES ($1, $2)
         ON CONFLICT (instance_id) DO UPDATE SET documents = full_audit.judgement_drift.documents + EXCLUDED.documents RETURNING documents)
       SELECT (SELECT documents FROM d) AS changed, (SELECT count(*) FROM full_audit.document_claims WHERE instance_id = $1) AS documents`,
      [instanceId, judged],
    );
    return { changed: Number(row.changed), documents: Number(row.documents) };
  }

  async resetDrift(instanceId: string): Promise<void> {
    await this.q(`DELETE FROM full_audit.judgement_drift WHERE instance_id = $1`, [instanceId]);
  }
}

interface ScanRow {
  id: string;
  instance_id: string;
  reason: string;
  state: FullAuditScan['state'];
  total: number;
  chunks: number;
  started_at: Date;
  finished_at: Date | null;
  findings: number | null;
}

const toScan = (r: ScanRow): FullAuditScan => ({ id: r.id, instanceId: r.instance_id, reason: r.reason, state: r.state, total: r.total, chunks: r.chunks, startedAt: r.started_at, finishedAt: r.finished_at, findings: r.findings });

@Injectable()
export class TypeOrmScanStore extends ScanStore {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async start(s: FullAuditScan): Promise<{ started: boolean; scan: FullAuditScan }> {
    const inserted = await this.q<ScanRow>(
      `INSERT INTO full_audit.scans (id, instance_id, reason, state, total, chunks, started_at) VALUES ($1, $2, $3, 'RUNNING', $4, $5, $6)
       ON CONFLICT (instance_id) WHERE state = 'RUNNING' DO NOTHING RETURNING *`,
      [s.id, s.instanceId, s.reason, s.total, s.chunks, s.startedAt],
    );
    if (inserted.length === 1) return { started: true, scan: toScan(inserted[0]) };
    const running = await this.running(s.instanceId);
    return { started: false, scan: running ?? s };
  }

  async running(instanceId: string): Promise<FullAuditScan | null> {
    const [row] = await this.q<ScanRow>(`SELECT * FROM full_audit.scans WHERE instance_id = $1 AND state = 'RUNNING'`, [instanceId]);
    return row ? toScan(row) : null;
  }

  async lastCompleted(instanceId: string): Promise<FullAuditScan | null> {
    const [row] = await this.q<ScanRow>(`SELECT * FROM full_audit.scans WHERE instance_id = $1 AND state = 'COMPLETED' ORDER BY finished_at DESC LIMIT 1`, [instanceId]);
    return row ? toScan(row) : null;
  }

  async complete(scanId: string, at: Date, findings: number): Promise<void> {
    await this.q(`UPDATE full_audit.scans SET state = 'COMPLETED', finished_at = $2, findings = $3 WHERE id = $1`, [scanId, at, findings]);
  }

  async chunkDone(scanId: string, chunk: number): Promise<number> {
    await this.q(`INSERT INTO full_audit.scan_chunks (scan_id, chunk) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [scanId, chunk]);
    return this.chunksDone(scanId);
  }

  async chunksDone(scanId: string): Promise<number> {
    const [row] = await this.q<{ n: string }>(`SELECT count(*) AS n FROM full_audit.scan_chunks WHERE scan_id = $1`, [scanId]);
    return Number(row?.n ?? 0);
  }

  async readToJudge(before: Date): Promise<string[]> {
    const rows = await this.q<{ instance_id: string }>(
      `SELECT s.instance_id FROM full_audit.scans s WHERE s.state = 'RUNNING' AND s.started_at < $1 AND (SELECT count(*) FROM full_audit.scan_chunks c WHERE c.scan_id = s.id) >= s.chunks`,
      [before],
    );
    return rows.map((r) => r.instance_id);
  }

  async abandonStale(startedBefore: Date, at: Date): Promise<number> {
    const rows = await this.q<{ id: string }>(`WITH abandoned AS (UPDATE full_audit.scans SET state = 'ABANDONED', finished_at = $2 WHERE state = 'RUNNING' AND started_at < $1 RETURNING id) SELECT id FROM abandoned`, [startedBefore, at]);
    return rows.length;
  }

  async dueForRescan(before: Date): Promise<string[]> {
    const rows = await this.q<{ instance_id: string }>(
      `SELECT instance_id FROM full_audit.scans GROUP BY instance_id
        HAVING bool_and(state <> 'RUNNING') AND max(finished_at) FILTER (WHERE state = 'COMPLETED' AND reason <> 'settle') < $1`,
      [before],
    );
    return rows.map((r) => r.instance_id);
  }
}
