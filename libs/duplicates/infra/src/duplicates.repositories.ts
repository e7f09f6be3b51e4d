import { Injectable } from '@nestjs/common';
import { Query, queryOf, selectPage, TypeOrmUnitOfWork, updateVersioned } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import { ClusterChanges, DocumentFingerprint, DuplicateCluster, DuplicateClusterRepository, DuplicateState, FingerprintStore, IdentificationRun, IdentificationRuns, Visible } from '@svc/duplicates-core';


/** Rows written per INSERT (9 parameters each). */
const BATCH = 250;

const toBytes = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
// Copied: a driver's Buffer may be a slice of a pool at an offset a Uint32Array view cannot start at.
const toWords = (b: Buffer | Uint8Array): Uint32Array => new Uint32Array(Uint8Array.from(b).buffer);

interface FingerprintRow {
  document_id: string;
  content_hash: string;
  scheme: string;
  canonical_hash: string;
  shingles: Buffer | Uint8Array;
  signature: Buffer | Uint8Array;
  band_keys: number[];
}

const toFingerprint = (r: FingerprintRow): DocumentFingerprint => ({
  documentId: r.document_id,
  contentHash: r.content_hash,
  scheme: r.scheme,
  canonicalHash: r.canonical_hash,
  shingles: toWords(r.shingles),
  signature: toWords(r.signature),
  bandKeys: r.band_keys,
});

@Injectable()
export class TypeOrmFingerprintStore extends FingerprintStore {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async refreshStatistics(): Promise<void> {
    await this.q(`ANALYZE duplicates.fingerprints`, []);
    await this.q(`ANALYZE duplicates.clusters`, []);
  }

  async versions(instanceId: string, documentIds: string[]): Promise<Map<string, { contentHash: string; scheme: string }>> {
    const rows = await this.q<{ document_id: string; content_hash: string; scheme: string }>(
      `SELECT document_id, content_hash, scheme FROM duplicates.fingerprints WHERE instance_id = $1 AND document_id = ANY($2::text[])`,
      [instanceId, documentIds],
    );
    return new Map(rows.map((r) => [r.document_id, { contentHash: r.content_hash, scheme: r.scheme }]));
  }

  async save(instanceId: string, fingerprints: DocumentFingerprint[], at: Date): Promise<void> {
    for (let i = 0; i < fingerprints.length; i += BATCH) {
      const batch = fingerprints.slice(i, i + BATCH);
      const params: unknown[] = [];
      const values = batch.map((f) => {
        params.push(instanceId, f.documentId, f.contentHash, f.scheme, f.canonicalHash, toBytes(f.shingles), toBytes(f.signature), f.bandKeys, at);
        const n = params.length - 9;
        return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}::integer[], $${n + 9})`;
      });
      await this.q(
        `INSERT INTO duplicates.fingerprints (instance_id, document_id, content_hash, scheme, canonical_hash, shingles, signature, band_keys, updated_at) VALUES ${values.join(', ')}
         ON CONFLICT (instance_id, document_id) DO UPDATE SET content_hash = EXCLUDED.content_hash, scheme = EXCLUDED.scheme, canonical_hash = EXCLUDED.canonical_hash, shingles = EXCLUDED.shingles,
           signature = EXCLUDED.signature, band_keys = EXCLUDED.band_keys, updated_at = EXCLUDED.updated_at`,
        params,
      );
    }
  }

  async remove(instanceId: string, documentIds: string[]): Promise<void> {
    await this.q(`DELETE FROM duplicates.fingerprints WHERE instance_id = $1 AND document_id = ANY($2::text[])`, [instanceId, documentIds]);
  }

  async retainOnly(instanceId: string, liveIds: string[]): Promise<number> {
    const rows = await this.q<{ document_id: string }>(
      `WITH gone AS (DELETE FROM duplicates.fingerprints WHERE instance_id = $1 AND NOT (document_id = ANY($2::text[])) RETURNING document_id) SELECT document_id FROM gone`,
      [instanceId, liveIds],
    );
    return rows.length;
  }

  async all(instanceId: string): Promise<DocumentFingerprint[]> {
    return (await this.q<FingerprintRow>(`SELECT * FROM duplicates.fingerprints WHERE instance_id = $1 ORDER BY document_id`, [instanceId])).map(toFingerprint);
  }

  async ofDocuments(instanceId: string, documentIds: string[]): Promise<DocumentFingerprint[]> {
    return (await this.q<FingerprintRow>(`SELECT * FROM duplicates.fingerprints WHERE instance_id = $1 AND document_id = ANY($2::text[]) ORDER BY document_id`, [instanceId, documentIds])).map(toFingerprint);
  }

  async candidates(instanceId: string, f: Pick<DocumentFingerprint, 'documentId' | 'canonicalHash' | 'bandKeys'>): Promise<DocumentFingerprint[]> {
    // Two index lookups rather than one OR: each side keeps its index (the band keys' GIN, the canonical
    // hash's b-tree) whatever the planner knows of the table, e.g. right after a bulk identification.
    const rows = await this.q<FingerprintRow>(
      `SELECT * FROM duplicates.fingerprints WHERE instance_id = $1 AND document_id <> $2 AND canonical_hash = $3
       UNION ALL
       SELECT * FROM duplicates.fingerprints WHERE instance_id = $1 AND document_id <> $2 AND band_keys && $4::integer[]
       ORDER BY document_id`,
      [instanceId, f.documentId, f.canonicalHash, f.bandKeys],
    );
    // An exact copy shares every band too: once each.
    return rows.filter((r, i) => i === 0 || rows[i - 1].document_id !== r.document_id).map(toFingerprint);
  }
}

interface ClusterRow {
  id: string;
  instance_id: string;
  organization_id: string;
  state: DuplicateState;
  document_ids: string[];
  canonical_hash: string;
  similarity: number;
  exact: boolean;
  created_at: Date;
  updated_at: Date;
  managed_at: Date | null;
  last_verification_at: Date | null;
  version: number;
}

const toCluster = (r: ClusterRow): DuplicateCluster => ({
  id: r.id,
  instanceId: r.instance_id,
  organizationId: r.organization_id,
  state: r.state,
  documentIds: r.document_ids,
  canonicalHash: r.canonical_hash,
  similarity: Number(r.similarity),
  exact: r.exact,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  managedAt: r.managed_at,
  lastVerificationAt: r.last_verification_at,
  version: r.version,
});

const COLUMNS: Record<keyof ClusterChanges, string> = {
  state: 'state',
  documentIds: 'document_ids',
  canonicalHash: 'canonical_hash',
  similarity: 'similarity',
  exact: 'exact',
  managedAt: 'managed_at',
  lastVerificationAt: 'last_verification_at',
  updatedAt: 'updated_at',
};

@Injectable()
export class TypeOrmDuplicateClusterRepository extends DuplicateClusterRepository {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async lock(instanceId: string): Promise<void> {
    // Transaction-scoped: released at commit or rollback, never left behind.
    await this.q(`SELECT pg_advisory_xact_lock(hashtext('duplicates.clusters'), hashtext($1))`, [instanceId]);
  }

  async insert(c: DuplicateCluster): Promise<void> {
    await this.q(
      `INSERT INTO duplicates.clusters (id, instance_id, organization_id, state, document_ids, canonical_hash, similarity, exact, created_at, updated_at, managed_at, last_verification_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [c.id, c.instanceId, c.organizationId, c.state, c.documentIds, c.canonicalHash, c.similarity, c.exact, c.createdAt, c.updatedAt, c.managedAt, c.lastVerificationAt, c.version],
    );
  }

  async get(instanceId: string, id: string): Promise<DuplicateCluster | null> {
    const [row] = await this.q<ClusterRow>(`SELECT * FROM duplicates.clusters WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
    return row ? toCluster(row) : null;
  }

  list(instanceId: string, visible: Visible, page: PageRequest): Promise<Page<DuplicateCluster>> {
    const params: unknown[] = [instanceId];
    let where = 'instance_id = $1';
    if (visible !== 'all') {
      params.push(visible);
      where += ' AND document_ids && $2::text[]';
    }
    return selectPage((sql, p) => this.q(sql, p), { from: `FROM duplicates.clusters WHERE ${where}`, orderBy: 'created_at DESC, id DESC', params }, page, toCluster);
  }

  async all(instanceId: string): Promise<DuplicateCluster[]> {
    return (await this.q<ClusterRow>(`SELECT * FROM duplicates.clusters WHERE instance_id = $1 ORDER BY id`, [instanceId])).map(toCluster);
  }

  async touching(instanceId: string, documentIds: string[]): Promise<DuplicateCluster[]> {
    return (await this.q<ClusterRow>(`SELECT * FROM duplicates.clusters WHERE instance_id = $1 AND document_ids && $2::text[] ORDER BY id`, [instanceId, documentIds])).map(toCluster);
  }

  update(key: { id: string; version: number }, changes: ClusterChanges): Promise<boolean> {
    const columns: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(changes)) columns[COLUMNS[k as keyof ClusterChanges]] = v;
    return updateVersioned((sql, p) => this.q(sql, p), 'duplicates.clusters', key, columns);
  }
}

interface RunRow {
  instance_id: string;
  state: 'RUNNING' | 'COMPLETED';
  documents: number;
  read: number;
  clusters: number | null;
  started_at: Date;
  finished_at: Date | null;
}

@Injectable()
export class TypeOrmIdentificationRuns extends IdentificationRuns {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async start(instanceId: string, documents: number, at: Date): Promise<void> {
    await this.q(
      `INSERT INTO duplicates.identification_runs (instance_id, state, documents, read, clusters, started_at, finished_at) VALUES ($1, 'RUNNING', $2, 0, NULL, $3, NULL)
       ON CONFLICT (instance_id) DO UPDATE SET state = 'RUNNING', documents = EXCLUDED.documents, read = 0, clusters = NULL, started_at = EXCLUDED.started_at, finished_at = NULL`,
      [instanceId, documents, at],
    );
  }

  async progress(instanceId: string, read: number): Promise<void> {
    await this.q(`UPDATE duplicates.identification_runs SET read = $2 WHERE instance_id = $1`, [instanceId, read]);
  }

  async finish(instanceId: string, clusters: number, at: Date): Promise<void> {
    await this.q(`UPDATE duplicates.identification_runs SET state = 'COMPLETED', clusters = $2, finished_at = $3 WHERE instance_id = $1`, [instanceId, clusters, at]);
  }

  async get(instanceId: string): Promise<IdentificationRun | null> {
    const [r] = await this.q<RunRow>(`SELECT * FROM duplicates.identification_runs WHERE instance_id = $1`, [instanceId]);
    return r ? { instanceId: r.instance_id, state: r.state, documents: r.documents, read: r.read, clusters: r.clusters, startedAt: r.started_at, finishedAt: r.finished_at } : null;
  }
}
