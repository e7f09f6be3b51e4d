import { Injectable } from '@nestjs/common';
import { DOCUMENT_CHANGE_JOBS, RepositoryIndexDocumentPayload } from '@svc/contracts';
import { Clock, DomainError, Embedder, IdGenerator, isDomainError, JobQueue, UnitOfWork, VectorIndex } from '@svc/kernel';
import type { RepositoryDocument, SemanticNode } from './document';
import { DocumentRepository, SemanticNodeRepository } from './documents.ports';
import { chunkDocument } from './parsing/chunking';
import { DocumentParser } from './parsing/document-parser.port';
import { PENDING_INDEXATION_STATES } from './repository-instance';

export interface IndexAttempt {
  progress(percent: number, message?: string): Promise<void>;
}

export const EMBEDDING_FAILED = 'REPOSITORY.EMBEDDING_FAILED';

/**
 * The embedding model failed on this document. `unavailable` (the model is down or overloaded: the
 * jobs platform retries) or `invalid` (it refused the input or is misconfigured: retrying cannot help).
 * When the job gives up, `recordGiveUp` marks the document EMBEDDING_ERROR with this message.
 */
export function embeddingFailure(error: unknown): DomainError {
  const transient = !isDomainError(error) || error.kind === 'unavailable';
  const reason = isDomainError(error) ? error.message : 'The embedding model failed.';
  return transient
    ? DomainError.unavailable(EMBEDDING_FAILED, reason, { cause: error })
    : DomainError.invalid(EMBEDDING_FAILED, reason, { cause: error });
}

/** Why an indexation job gave up: its worker stopped during the last attempt, or that attempt threw `error`. */
export type IndexGiveUp = { workerStopped: true; attempts: number } | { error: unknown };

export type IndexOutcome = 'indexed' | 'stale' | 'parsing_error';

const EMBEDDING_BATCH = 64;
/**
 * Nodes per INSERT, and vectors per upsert (each its own short transaction), sized so that one write
 * holds the embedded database for a few tens of milliseconds (measured on PGlite, 2-core machine: a
 * node costs ~1.5 ms, its three to_tsvector and GIN entries; a vector ~7 ms, the HNSW graph's upkeep).
 * A request arriving meanwhile waits for one batch, not for the document.
 */
const NODE_WRITE_BATCH = 32;
const VECTOR_WRITE_BATCH = 8;
/** Rows deleted per statement when the rows nobody reads are swept. */
const SWEEP_BATCH = 1000;

/**
 * The indexation of one document version (job `repository.index-document`, registered as
 * non-transactional and idempotent): parse, chunk into semantic nodes, embed and write the nodes and
 * vectors in short batches that no reader sees, then swap them in with one short transaction. Readers
 * see the old nodes or the new ones, never a mix; a crash leaves the old ones and nothing that hinders
 * the next attempt.
 * A broken file ends in PARSING_ERROR with its reason (the job succeeds: retrying cannot help); an
 * embedding failure is thrown as `REPOSITORY.EMBEDDING_FAILED` (the jobs platform retries an
 * unavailable model), and the job's give-up marks the document EMBEDDING_ERROR.
 */
@Injectable()
export class IndexDocument {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly nodes: SemanticNodeRepository,
    private readonly parser: DocumentParser,
    private readonly embedder: Embedder,
    private readonly vectors: VectorIndex,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly jobs: JobQueue,
  ) {}

  async execute(payload: RepositoryIndexDocumentPayload, attempt: IndexAttempt): Promise<IndexOutcome> {
    // Reads and the slow work (parsing, embedding, writing) run outside any transaction: in the embedded
    // mode a transaction holds the only database connection. The swap then commits in one short one,
    // after a re-check that the document still has this content (a newer version may have arrived).
    // Nothing to do when the document moved on (other content, deleted) or this content is already
    // indexed (a redelivery after a crash, say).
    const attemptId = this.ids.next('kx_');
    const document = await this.documents.startIndexation(payload.instanceId, payload.documentId, payload.contentHash, this.clock.now(), attemptId);
    if (!document) return 'stale';
    const content = await this.documents.loadContent(document.id);
    if (!content) {
      // Cannot happen while the row says this content is current (they are written together); a
      // document must never stay PARSING, so say so on it.
      return (await this.fail(payload, 'PARSING_ERROR', 'The stored content of this document is missing; upload it again.')) ? 'parsing_error' : 'stale';
    }

    let drafts;
    try {
      const parsed = await this.parser.parse({ content, mediaType: document.mediaType, fileName: document.name });
      drafts = chunkDocument(parsed);
    } catch (error) {
      if (!isDomainError(error) || error.kind !== 'invalid') throw error;
      return (await this.fail(payload, 'PARSING_ERROR', error.message)) ? 'parsing_error' : 'stale';
    }
    await attempt.progress(30, `parsed into ${drafts.length} semantic nodes`);

    // The nodes and their vectors are written in many short statements, each holding the database
    // only briefly (in the embedded mode a transaction holds its only connection: one transaction for
    // a large document kept every request waiting for over a minute). The nodes are written under this
    // attempt, which no reader sees before it is published; the vectors under the new nodes' ids, which
    // no reader reaches before those nodes are published (every reader goes through the nodes). One
    // short transaction then publishes them. An attempt that stops half-way leaves only rows nobody
    // reads, which the next attempt deletes first (with their vectors).
    await this.sweep(document.instanceId, document.id);
    const nodes: SemanticNode[] = drafts.map((d) => ({
      id: this.ids.next('kn_'),
      instanceId: document.instanceId,
      documentId: document.id,
      position: d.position,
      text: d.text,
      headingPath: d.headingPath,
      charStart: d.charStart,
      charEnd: d.charEnd,
    }));
    for (let i = 0; i < nodes.length; i += EMBEDDING_BATCH) {
      const batch = nodes.slice(i, i + EMBEDDING_BATCH);
      let vectors: number[][];
      try {
        vectors = await this.embedder.embed(batch.map((n) => n.text));
      } catch (error) {
        throw embeddingFailure(error);
      }
      // Nodes before their vectors: a vector is only ever written for a node row, which the next
      // attempt's sweep finds (and removes with its vector) if this one stops.
      for (let j = 0; j < batch.length; j += NODE_WRITE_BATCH) await this.nodes.stage(attemptId, batch.slice(j, j + NODE_WRITE_BATCH));
      for (let j = 0; j < batch.length; j += VECTOR_WRITE_BATCH) {
        const written = batch.slice(j, j + VECTOR_WRITE_BATCH);
        await this.vectors.upsert(document.instanceId, this.embedder.model, written.map((n, k) => ({ id: n.id, documentId: n.documentId, vector: vectors[j + k] })));
      }
      await attempt.progress(30 + Math.round((60 * Math.min(i + EMBEDDING_BATCH, nodes.length)) / Math.max(nodes.length, 1)), 'embedding and writing');
    }

    const outcome = await this.uow.run(async (): Promise<IndexOutcome> => {
      // Locked: a delete, re-index or new upload of this document waits for this write, or this
      // write waits for it and then finds the document moved on.
      const current = await this.documents.get(payload.instanceId, payload.documentId, { forUpdate: true });
      if (!isCurrent(current, payload)) return 'stale';
      // False when a later attempt of this document started meanwhile (a job queued twice for one
      // content): that one publishes, this one's rows must not mix in.
      if (!(await this.nodes.publish(current.id, attemptId, nodes.length))) return 'stale';
      const now = this.clock.now();
      await this.documents.save({ ...current, state: 'INDEXED', failureReason: null, updatedAt: now, indexedAt: now });
      // The contexts that follow documents (question analysis...) hear of it with this write (outbox).
      for (const job of DOCUMENT_CHANGE_JOBS) await this.jobs.enqueue(job, { instanceId: current.instanceId, documentId: current.id, change: 'indexed' });
      return 'indexed';
    });
    // Published, the previous version's rows are invisible: delete them (or, when stale, this
    // attempt's), with their vectors, in short statements after the commit. A crash here leaves only
    // rows nobody reads, swept by the document's next indexation or its deletion.
    await this.sweep(document.instanceId, document.id, outcome === 'stale' ? attemptId : undefined);
    // A vector this attempt wrote after another attempt's sweep took its node row.
    if (outcome === 'stale') for (let i = 0; i < nodes.length; i += SWEEP_BATCH) await this.vectors.removeNodes(document.instanceId, nodes.slice(i, i + SWEEP_BATCH).map((n) => n.id));
    return outcome;
  }

  /**
   * Deletes the document's rows no reader sees and no attempt may still publish (`abandoned`'s too),
   * with their vectors, in short batches.
   */
  private async sweep(instanceId: string, documentId: string, abandoned?: string): Promise<void> {
    for (;;) {
      const removed = await this.nodes.removeUnpublished(documentId, SWEEP_BATCH, abandoned);
      if (removed.length === 0) return;
      await this.vectors.removeNodes(instanceId, removed);
    }
  }

  /**
   * The job gave up (an unexpected error on its last attempt, or the worker stopped during it): the
   * document must not stay PENDING or PARSING, which would hold up its instance's audit for ever.
   */
  async recordGiveUp(payload: RepositoryIndexDocumentPayload, giveUp: IndexGiveUp): Promise<void> {
    if (!('workerStopped' in giveUp) && isDomainError(giveUp.error) && giveUp.error.code === EMBEDDING_FAILED) {
      await this.fail(payload, 'EMBEDDING_ERROR', giveUp.error.message);
      return;
    }
    // Clients read the reason: a domain error is fit to show; anything else (a driver's or a
    // library's message) stays in the server log.
    const shown =
      'workerStopped' in giveUp
        ? `Gave up after ${giveUp.attempts} attempts: the worker stopped during the last one.`
        : isDomainError(giveUp.error)
          ? `${giveUp.error.code}: ${giveUp.error.message}`
          : 'an unexpected error (the server log has the details).';
    await this.fail(payload, 'PARSING_ERROR', `Indexation failed: ${shown}`);
  }

  /** Records a failure on the document if it still has this content; false when it moved on. */
  private fail(payload: RepositoryIndexDocumentPayload, state: 'PARSING_ERROR' | 'EMBEDDING_ERROR', reason: string): Promise<boolean> {
    return this.uow.run(async () => {
      const current = await this.documents.get(payload.instanceId, payload.documentId, { forUpdate: true });
      // Only an indexation in progress can fail: another job may already have indexed this content.
      if (!isCurrent(current, payload) || !inProgress(current)) return false;
      await this.documents.save({ ...current, state, failureReason: reason.slice(0, 500), updatedAt: this.clock.now() });
      return true;
    });
  }
}

/** The document still exists with the content this job was queued for. */
function isCurrent(document: RepositoryDocument | null, payload: RepositoryIndexDocumentPayload): document is RepositoryDocument {
  return document !== null && document.state !== 'DELETED' && document.contentHash === payload.contentHash;
}

const inProgress = (document: RepositoryDocument) => PENDING_INDEXATION_STATES.includes(document.state);

/** For tests and callers that want to tell a parsing refusal from other failures. */
export function isParsingRefusal(error: unknown): error is DomainError {
  return isDomainError(error) && error.kind === 'invalid';
}
