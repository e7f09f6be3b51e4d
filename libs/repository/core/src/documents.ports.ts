import type { Page, PageRequest } from '@svc/kernel';
import type { RepositoryDocument, SemanticNode } from './document';
import type { IndexationState } from './repository-instance';

/** `forUpdate`: lock the row until the current unit of work ends (writers of one document take turns). */
export interface ReadOptions {
  forUpdate?: boolean;
}

export abstract class DocumentRepository {
  abstract findByExternalId(instanceId: string, externalId: string, options?: ReadOptions): Promise<RepositoryDocument | null>;
  abstract get(instanceId: string, id: string, options?: ReadOptions): Promise<RepositoryDocument | null>;
  /**
   * Serialises ingestion into one instance until the current unit of work ends: two first uploads of
   * one external id, or uploads racing for the instance's quota, then take turns.
   */
  abstract lockInstanceIngestion(instanceId: string): Promise<void>;
  /**
   * Marks the document PARSING (failure reason cleared) if it holds `contentHash` and is not INDEXED
   * or DELETED, in one atomic statement, and records `attemptId` as its latest indexation attempt (the
   * only one that may publish nodes: see SemanticNodeRepository); returns it then, else null. (A failed
   * state is taken too: a job queued again for the same content may start after a late give-up of the
   * previous one.)
   */
  abstract startIndexation(instanceId: string, id: string, contentHash: string, now: Date, attemptId: string): Promise<RepositoryDocument | null>;
  /** The instance's documents with these ids (DELETED ones included), in no particular order; unknown ids are skipped. */
  abstract getMany(instanceId: string, ids: string[]): Promise<RepositoryDocument[]>;
  /** Inserts or replaces the document row (by id). */
  abstract save(document: RepositoryDocument): Promise<void>;
  /** Newest first, ties by id; `state` filters, DELETED documents are listed only when asked for. */
  abstract list(instanceId: string, page: PageRequest, state?: IndexationState): Promise<Page<RepositoryDocument>>;
  abstract saveContent(documentId: string, content: Buffer): Promise<void>;
  abstract loadContent(documentId: string): Promise<Buffer | null>;
  abstract removeContent(documentId: string): Promise<void>;
  /** Documents of the instance in `state`, or not DELETED when no state is given. */
  abstract count(instanceId: string, state?: IndexationState): Promise<number>;
  /** Number of documents per indexation state (states with none are absent). */
  abstract countByState(instanceId: string): Promise<Partial<Record<IndexationState, number>>>;
  /** Sum of the raw sizes of the documents not DELETED. */
  abstract totalBytes(instanceId: string): Promise<number>;
  /** Ids of the instance's documents not DELETED, for re-indexation. */
  abstract activeIds(instanceId: string): Promise<string[]>;
}

export interface FullTextMatch {
  id: string;
  documentId: string;
  rank: number;
}

/**
 * A document's nodes are written by indexation attempts (`kx_` ids), so that no transaction lasts as
 * long as a large document takes to write (in the embedded mode a transaction holds the only database
 * connection): the attempt `stage`s its nodes in batches, each its own short statement, invisible to
 * every reader; one short `publish` then makes them the document's nodes, the previous ones invisible
 * at the same moment. Readers (full-text search, `getMany`, `ofDocuments`) only ever see the published
 * attempt's nodes. Rows of any other attempt but the document's latest are garbage, which
 * `removeUnpublished` deletes in short batches.
 */
export abstract class SemanticNodeRepository {
  /** Writes these nodes (of one document) under `attemptId`, full-text vectors computed: invisible until published. */
  abstract stage(attemptId: string, nodes: SemanticNode[]): Promise<void>;
  /**
   * Makes the `expected` nodes written under `attemptId` the document's nodes, if that attempt is the
   * document's latest (`DocumentRepository.startIndexation`) and all of them are written; else changes
   * nothing and returns false. Meant for the caller's unit of work, under the document's row lock.
   */
  abstract publish(documentId: string, attemptId: string, expected: number): Promise<boolean>;
  /**
   * Deletes up to `limit` of the document's rows that belong neither to its published attempt nor to its
   * latest one (the previous version's after a publish, an attempt's that stopped half-way); returns their
   * ids, none when nothing is left to delete. The latest attempt's rows are left alone (it may be
   * writing), unless it is `abandoned` (it found its document moved on: deleted, or another content).
   */
  abstract removeUnpublished(documentId: string, limit: number, abandoned?: string): Promise<string[]>;
  /** Removes every node of the document, of every attempt. */
  abstract removeForDocument(documentId: string): Promise<void>;
  /** Best full-text matches of the instance's indexed documents, best first (ties by id). */
  abstract fullTextSearch(instanceId: string, query: string, limit: number): Promise<FullTextMatch[]>;
  /** The nodes with these ids, in no particular order; unknown ids are skipped. */
  abstract getMany(ids: string[]): Promise<SemanticNode[]>;
  /** The nodes of these documents of the instance, by document then position. */
  abstract ofDocuments(instanceId: string, documentIds: string[]): Promise<SemanticNode[]>;
}
