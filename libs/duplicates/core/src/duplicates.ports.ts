import type { Page, PageRequest } from '@svc/kernel';
import type { ClusterChanges, DuplicateCluster } from './duplicate-cluster';

/** Which documents the caller may see: all, or only these (the owner-visibility rule). */
export type Visible = 'all' | string[];

/** What the identification keeps per document: enough to match a new document without reading the others' text. */
export interface DocumentFingerprint {
  documentId: string;
  /** The content version it was computed from. */
  contentHash: string;
  /** How it was computed (algorithm version and LSH banding): fingerprints of another scheme are computed again. */
  scheme: string;
  canonicalHash: string;
  /** Sorted unique hashes of the document's word shingles (exact Jaccard). */
  shingles: Uint32Array;
  /** MinHash signature (estimated Jaccard). */
  signature: Uint32Array;
  /** One LSH key per band: documents sharing a key are candidates. */
  bandKeys: number[];
}

export abstract class FingerprintStore {
  /** The content version and scheme of the stored fingerprints among these documents. */
  abstract versions(instanceId: string, documentIds: string[]): Promise<Map<string, { contentHash: string; scheme: string }>>;
  /** Inserts or replaces. */
  abstract save(instanceId: string, fingerprints: DocumentFingerprint[], at: Date): Promise<void>;
  abstract remove(instanceId: string, documentIds: string[]): Promise<void>;
  /** Removes the fingerprints of documents not in this list (gone from the repository). */
  abstract retainOnly(instanceId: string, liveIds: string[]): Promise<number>;
  abstract all(instanceId: string): Promise<DocumentFingerprint[]>;
  abstract ofDocuments(instanceId: string, documentIds: string[]): Promise<DocumentFingerprint[]>;
  /** Other documents with the same canonical content or sharing a band key (LSH candidates, not yet verified). */
  abstract candidates(instanceId: string, fingerprint: Pick<DocumentFingerprint, 'documentId' | 'canonicalHash' | 'bandKeys'>): Promise<DocumentFingerprint[]>;
  /** After a whole-repository run that wrote: the database's planner statistics of fingerprints and clusters are brought up to date. */
  abstract refreshStatistics(): Promise<void>;
}

export abstract class DuplicateClusterRepository {
  /** Serialises the cluster writes of one instance until the current transaction ends. */
  abstract lock(instanceId: string): Promise<void>;
  abstract insert(cluster: DuplicateCluster): Promise<void>;
  abstract get(instanceId: string, id: string): Promise<DuplicateCluster | null>;
  /** Newest first, ties by id; only clusters with at least one visible document. */
  abstract list(instanceId: string, visible: Visible, page: PageRequest): Promise<Page<DuplicateCluster>>;
  abstract all(instanceId: string): Promise<DuplicateCluster[]>;
  /** Clusters (any state) with at least one of these documents. */
  abstract touching(instanceId: string, documentIds: string[]): Promise<DuplicateCluster[]>;
  /** Guarded by the version: false when it changed meanwhile. */
  abstract update(key: { id: string; version: number }, changes: ClusterChanges): Promise<boolean>;
}

export interface IdentificationRun {
  instanceId: string;
  state: 'RUNNING' | 'COMPLETED';
  documents: number;
  /** Documents read so far (fingerprinted when their content changed). */
  read: number;
  clusters: number | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** The last whole-repository identification of each instance (what an admin or a benchmark reads back). */
export abstract class IdentificationRuns {
  abstract start(instanceId: string, documents: number, at: Date): Promise<void>;
  abstract progress(instanceId: string, read: number): Promise<void>;
  abstract finish(instanceId: string, clusters: number, at: Date): Promise<void>;
  abstract get(instanceId: string): Promise<IdentificationRun | null>;
}

/** A document's text as the repository gives it (its indexed passages, in order). */
export interface SourceDocument {
  id: string;
  contentHash: string;
  text: string;
}

/** The repository, as duplicate identification reads it (a port, never its tables). */
export abstract class DuplicatesSource {
  abstract liveIds(instanceId: string): Promise<string[]>;
  /** The content version of the indexed documents among these ids (a cheap read: no text). */
  abstract indexedVersions(instanceId: string, documentIds: string[]): Promise<Map<string, string>>;
  /** Indexed documents among these ids; others (deleted, pending, failed) are left out. */
  abstract read(instanceId: string, documentIds: string[]): Promise<SourceDocument[]>;
}
