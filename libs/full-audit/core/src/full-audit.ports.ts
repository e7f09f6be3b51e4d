import type { Page, PageRequest } from '@svc/kernel';
import type { Claim } from '@svc/text';
import type { FullAuditConflict, FullAuditExcerpt, FullAuditFinding, FullAuditState, LinkedQuestion } from './full-audit-conflict';
import type { ModelStatement } from './discovery/statement-extractor';

/** Which documents the caller may see: all, or only these (the owner-visibility rule). */
export type Visible = 'all' | string[];

export interface FullAuditListFilter {
  /** [] means every state but DISAPPEARED. */
  states: FullAuditState[];
  onlyLinked: boolean;
  visible: Visible;
}

/** The fields an edit or a scan may change; the version column guards them. */
export type FullAuditChanges = Partial<
  Pick<
    FullAuditConflict,
    | 'state'
    | 'answer'
    | 'answeredAt'
    | 'compagnonRecommendations'
    | 'managedAt'
    | 'absentSince'
    | 'lastSeenAt'
    | 'updatedAt'
    | 'excerpts'
    | 'subject'
    | 'explanation'
    | 'compagnonQuestions'
    | 'linkedQuestions'
    | 'documentIds'
    | 'pairs'
  >
>;

export abstract class FullAuditConflictRepository {
  /** Inserts unless the instance already has a conflict with this fingerprint (any state); true when inserted. */
  abstract insertIfNew(conflict: FullAuditConflict): Promise<boolean>;
  abstract get(instanceId: string, id: string): Promise<FullAuditConflict | null>;
  /** Newest first, ties by id. */
  abstract list(instanceId: string, filter: FullAuditListFilter, page: PageRequest): Promise<Page<FullAuditConflict>>;
  /** Every conflict of the instance (documents null), or those touching at least one of the documents. */
  abstract inScope(instanceId: string, documentIds: string[] | null): Promise<FullAuditConflict[]>;
  abstract update(key: { id: string; version: number }, changes: FullAuditChanges): Promise<boolean>;
  /** Conflicts in these states, counted over visible documents. */
  abstract count(instanceId: string, states: FullAuditState[], visible: Visible): Promise<number>;
  /** The instance's conflicts with these fingerprints (any state). */
  abstract withFingerprints(instanceId: string, fingerprints: string[]): Promise<FullAuditConflict[]>;
}

/** The claims of one document, as the last extraction read them. */
export interface DocumentClaims {
  documentId: string;
  /** The content version they were read from, and the claim reader's version (`claims-v<n>:<content hash>`). */
  contentHash: string;
  claims: Claim[];
  /** With a model configured: the statements the model read in it, grounded (issue 24 item 3); absent or null offline. */
  statements?: ModelStatement[] | null;
  /** When the content they were read from last changed (not when they were last read). */
  changedAt: Date;
}

/** A block of the judge: the claims of one attribute sharing one subject stem. */
export interface ClaimBlock {
  attribute: string;
  stem: string;
}

export const blockKey = (b: ClaimBlock): string => `${b.attribute}|${b.stem}`;

/** A document whose claims changed since the last judgement (incremental rescans). */
export interface DirtyDocument {
  documentId: string;
  markedAt: Date;
}

export abstract class ClaimStore {
  /** The content versions read so far for these documents. */
  abstract contentHashes(instanceId: string, documentIds: string[]): Promise<Map<string, string>>;
  /** Saves documents' claims and their blocks (attribute and subject stem, with how many claims each), replacing what they had. */
  abstract save(instanceId: string, documents: DocumentClaims[]): Promise<void>;
  abstract remove(instanceId: string, documentIds: string[]): Promise<void>;
  abstract all(instanceId: string): Promise<DocumentClaims[]>;
  abstract ofDocuments(instanceId: string, documentIds: string[]): Promise<DocumentClaims[]>;
  /** The model's statements of every document that has some (model-led discovery's incremental judgement compares across the repository). */
  abstract withStatements(instanceId: string): Promise<Pick<DocumentClaims, 'documentId' | 'contentHash' | 'statements'>[]>;
  /**
   * The instance's claim count and its count of documents with claims; how many claims each of these subject stems
   * appears in, and for a scope name's stem (`nameStem`), how many documents have claims limited by it.
   */
  abstract statistics(instanceId: string, stems: string[]): Promise<{ claims: number; documents: number; documentFrequency: Map<string, number> }>;
  /** How many claims each of these blocks holds over the instance. */
  abstract blockSizes(instanceId: string, blocks: ClaimBlock[]): Promise<Map<string, number>>;
  /** Documents with claims in these blocks. */
  abstract documentsInBlocks(instanceId: string, blocks: ClaimBlock[]): Promise<string[]>;
  abstract markDirty(instanceId: string, documentIds: string[], at: Date): Promise<void>;
  abstract dirty(instanceId: string): Promise<DirtyDocument[]>;
  /** Clears the marks made at or before `upTo` (later marks were made after the judge read the claims). */
  abstract clearDirty(instanceId: string, upTo: Date): Promise<void>;
  /** Instances with documents marked before `before` (the sweep re-queues their judgement). */
  abstract instancesWithDirty(before: Date): Promise<string[]>;
  /**
   * Adds `judged` documents judged incrementally since the last full judgement; returns how many that
   * makes, and how many documents have claims.
   */
  abstract addDrift(instanceId: string, judged: number): Promise<{ changed: number; documents: number }>;
  /** How many documents were judged incrementally since the last full judgement, and how many documents have claims. */
  abstract driftOf(instanceId: string): Promise<{ changed: number; documents: number }>;
  /** A full judgement read every claim: no drift since. */
  abstract resetDrift(instanceId: string): Promise<void>;
}

export type ScanState = 'RUNNING' | 'COMPLETED' | 'ABANDONED';

export interface FullAuditScan {
  id: string;
  instanceId: string;
  reason: string;
  state: ScanState;
  /** Documents the scan reads, and the chunks (jobs) they are read in. */
  total: number;
  chunks: number;
  startedAt: Date;
  finishedAt: Date | null;
  findings: number | null;
}

export abstract class ScanStore {
  /** Starts a scan unless one is running on the instance; the running one otherwise. */
  abstract start(scan: FullAuditScan): Promise<{ started: boolean; scan: FullAuditScan }>;
  abstract running(instanceId: string): Promise<FullAuditScan | null>;
  abstract lastCompleted(instanceId: string): Promise<FullAuditScan | null>;
  abstract complete(scanId: string, at: Date, findings: number): Promise<void>;
  /** Records that a chunk was read (idempotent) and returns how many chunks are read. */
  abstract chunkDone(scanId: string, chunk: number): Promise<number>;
  abstract chunksDone(scanId: string): Promise<number>;
  /** Instances with a running scan started before `before` whose chunks are all read. */
  abstract readToJudge(before: Date): Promise<string[]>;
  /** Marks scans still running since before `startedBefore` ABANDONED; returns how many. */
  abstract abandonStale(startedBefore: Date, at: Date): Promise<number>;
  /** Instances whose last completed full scan finished before `before` and that run none now (a settle reads no document: it does not count). */
  abstract dueForRescan(before: Date): Promise<string[]>;
}

/** Candidates submitted to the model in a batch, until its verdicts are applied. */
export interface PendingModelBatch {
  batchId: string;
  instanceId: string;
  /** The candidates as submitted, in order (the model answers them group by group in this order). */
  candidates: FullAuditFinding[];
  /** The content version of each candidate's documents when submitted: a document changed since was judged again by its change. */
  contentHashes: Record<string, string>;
  submittedAt: Date;
}

export abstract class ModelBatchStore {
  abstract add(batch: PendingModelBatch): Promise<void>;
  /** The batch while its verdicts are not applied; null afterwards or when unknown. */
  abstract pending(batchId: string): Promise<PendingModelBatch | null>;
  /** Fingerprints of the instance's candidates awaiting a batch's verdicts. */
  abstract pendingFingerprints(instanceId: string): Promise<Set<string>>;
  /** How many of the instance's candidates await a batch's verdicts. */
  abstract awaiting(instanceId: string): Promise<number>;
  /** Marks the batch's verdicts applied (its candidates are let go); false when they already were. */
  abstract applied(batchId: string, at: Date): Promise<boolean>;
  /** Records a poll that found the batch still running. */
  abstract polled(batchId: string, at: Date): Promise<void>;
  /** Batches awaiting verdicts, submitted (or last polled) before `before`: the sweep polls them. */
  abstract pendingSince(before: Date): Promise<{ instanceId: string; batchId: string }[]>;
}

/** The model's rejections: a candidate it judged no contradiction is not sent again while its documents stay as they were. */
export abstract class ModelRejections {
  /** For those of these fingerprints the model rejected, the content versions of their documents then. */
  abstract of(instanceId: string, fingerprints: string[]): Promise<Map<string, Record<string, string>>>;
  abstract record(instanceId: string, rejected: { fingerprint: string; contentHashes: Record<string, string> }[], at: Date): Promise<void>;
}

/** A document with its passages, as the repository gives them. */
export interface ScannedDocument {
  id: string;
  name: string;
  url: string | null;
  contentHash: string;
  /** With `vectors`: each passage's node vector, and the embedding model they come from (null when the document has none). */
  passages: { id: string; text: string; headingPath: string[]; vector?: number[] }[];
  vectorModel?: string | null;
}

/** The repository, as the scan reads it (ARCHITECTURE.md: a port, never its tables). */
export abstract class ScanSource {
  abstract liveIds(instanceId: string): Promise<string[]>;
  /** Indexed documents among these ids, with their passages (and their node vectors with `vectors`); others are left out. */
  abstract read(instanceId: string, documentIds: string[], options?: { vectors: boolean }): Promise<ScannedDocument[]>;
  /** Name and link of live documents among these ids. */
  abstract names(instanceId: string, documentIds: string[]): Promise<Map<string, { name: string; url: string | null }>>;
}

/** Mandatory questions whose conflicts' excerpts overlap a full-audit conflict's. */
export abstract class QuestionLinks {
  /** For each key (a finding's fingerprint), the linked questions; one read for all of them. */
  abstract linked(instanceId: string, findings: Map<string, Pick<FullAuditExcerpt, 'semanticNodeId' | 'documentId'>[]>): Promise<Map<string, LinkedQuestion[]>>;
}
