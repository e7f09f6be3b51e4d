import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DOCUMENT_CHANGE_JOBS, JOB_NAMES, RepositoryIndexDocumentPayload } from '@svc/contracts';
import { ActivityLog, Clock, DomainError, Embedder, IdGenerator, JobQueue, Page, PageRequest, UnitOfWork, VectorIndex } from '@svc/kernel';
import { documentView, DocumentView, INGESTION_LIMITS, IngestionSettings, RepositoryDocument, WEB_URL_PATTERN } from './document';
import { DocumentRepository, SemanticNodeRepository } from './documents.ports';
import { mediaTypeFor, SUPPORTED_MEDIA_TYPES } from './parsing/document-parser.port';
import { IndexationState, PENDING_INDEXATION_STATES } from './repository-instance';

export interface IngestInput {
  externalId: string;
  name: string;
  url?: string | null;
  owner?: string | null;
  extraproperties?: Record<string, unknown>;
  /** Declared media type; when absent or generic, deduced from the name's extension. */
  mediaType?: string;
  content: Buffer;
}

const documentNotFound = (id: string) => DomainError.notFound('REPOSITORY.DOCUMENT_NOT_FOUND', `Document ${id} does not exist.`);

/**
 * Queues the indexation of the document's current content. No dedupe key: a job that is still
 * "running" may already have written its result (it is marked completed just after), and a request
 * deduplicated against it would leave the document PENDING for ever. A surplus job costs little: it
 * finds the content indexed (or replaced) and stops at once.
 */
function enqueueIndexation(jobs: JobQueue, document: RepositoryDocument) {
  const payload: RepositoryIndexDocumentPayload = { instanceId: document.instanceId, documentId: document.id, contentHash: document.contentHash };
  return jobs.enqueue(JOB_NAMES.repositoryIndexDocument, payload);
}

const invalidUrl = (message: string) => DomainError.invalid('REPOSITORY.INVALID_URL', `${message}.`, { errors: [{ field: 'url', message }] });

/**
 * A document's link as it is stored and handed out: an `http:` or `https:` URL in its WHATWG
 * serialisation (`URL.href`), so what a caller sent as `"`, `<`, `>` or a space in the path, query or
 * fragment is percent-encoded, a host is lower-cased (and in punycode), a backslash is a slash
 * (ADR 0044). The link then stays one token wherever it is shown: HTML, Markdown, a log line.
 */
export function serialisedWebUrl(raw: string): string {
  if (!WEB_URL_PATTERN.test(raw)) throw invalidUrl('url must be an http: or https: URL');
  let href: string;
  try {
    href = new URL(raw).href;
  } catch {
    throw invalidUrl('url must be an http: or https: URL');
  }
  if (!WEB_URL_PATTERN.test(href)) throw invalidUrl('url must be an http: or https: URL');
  if (href.length > INGESTION_LIMITS.maxUrlLength) throw invalidUrl(`url must be at most ${INGESTION_LIMITS.maxUrlLength} characters once percent-encoded`);
  return href;
}

/**
 * Adds a document or replaces the one with the same external id. New or changed content is stored
 * and queued for indexation in the same transaction; content already indexed (same bytes, same media
 * type) only updates the metadata, so it is never parsed or embedded twice. The same bytes sent again
 * for a document that failed, or whose indexation is still pending, queue it again.
 */
@Injectable()
export class IngestDocument {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly settings: IngestionSettings,
  ) {}

  async execute(instanceId: string, input: IngestInput): Promise<DocumentView & { reindexing: boolean }> {
    if (input.content.length > INGESTION_LIMITS.maxFileBytes) {
      throw new DomainError('too_large', 'REPOSITORY.FILE_TOO_LARGE', `${input.name} is ${input.content.length} bytes; the limit is ${INGESTION_LIMITS.maxFileBytes} bytes per file.`);
    }
    const url = input.url ? serialisedWebUrl(input.url) : null;
    const mediaType = mediaTypeFor(input.name, input.mediaType);
    if (!mediaType) {
      throw DomainError.invalid('REPOSITORY.UNSUPPORTED_FORMAT', `Cannot index ${input.name}${input.mediaType ? ` (${input.mediaType})` : ''}.`, {
        hint: `Give a supported media_type (${SUPPORTED_MEDIA_TYPES.join(', ')}), or a name ending in .md, .txt, .html, .pdf or .docx.`,
      });
    }
    const contentHash = createHash('sha256').update(input.content).digest('hex');
    return this.uow.run(async () => {
      await this.documents.lockInstanceIngestion(instanceId);
      const now = this.clock.now();
      const existing = await this.documents.findByExternalId(instanceId, input.externalId, { forUpdate: true });
      const sameContent = existing !== null && existing.contentHash === contentHash && existing.mediaType === mediaType;
      /** Already indexed, or on its way (PENDING/PARSING keep their state; the job is queued again if it died). */
      const unchanged = sameContent && (existing.state === 'INDEXED' || PENDING_INDEXATION_STATES.includes(existing.state));
      const indexed = unchanged && existing.state === 'INDEXED';
      const replaced = existing && existing.state !== 'DELETED' ? existing.sizeBytes : 0;
      const total = (await this.documents.totalBytes(instanceId)) - replaced + input.content.length;
      if (total > this.settings.maxInstanceBytes) {
        throw new DomainError('too_large', 'REPOSITORY.INSTANCE_QUOTA_EXCEEDED', `This document would bring the instance to ${total} bytes; the limit is ${this.settings.maxInstanceBytes} bytes of documents per instance.`, { hint: 'Delete documents you no longer need, or raise INGESTION_MAX_INSTANCE_BYTES.' });
      }
      const document: RepositoryDocument = {
        id: existing?.id ?? this.ids.next('kd_'),
        instanceId,
        externalId: input.externalId,
        name: input.name,
        url,
        owner: input.owner ?? null,
        extraproperties: input.extraproperties ?? {},
        mediaType,
        sizeBytes: input.content.length,
        contentHash,
        state: unchanged ? existing.state : 'PENDING',
        failureReason: unchanged ? existing.failureReason : null,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
        indexedAt: unchanged ? existing.indexedAt : null,
      };
      await this.documents.save(document);
      if (!unchanged) await this.documents.saveContent(document.id, input.content);
      if (!indexed) await enqueueIndexation(this.jobs, document);
      return { ...documentView(document), reindexing: !indexed };
    });
  }
}

@Injectable()
export class GetDocument {
  constructor(private readonly documents: DocumentRepository) {}
  async execute(instanceId: string, documentId: string): Promise<DocumentView> {
    const document = await this.documents.get(instanceId, documentId);
    // A deleted document still answers here, as a tombstone in state DELETED (list shows them with
    // state: DELETED too); it is gone from search, get-by-ids and the audit side.
    if (!document) throw documentNotFound(documentId);
    return documentView(document);
  }
}

/**
 * Several documents of one instance by id, in the order asked (duplicates once); unknown and deleted
 * ones are left out. The instance API caps a request at 100 ids; in-process callers (the audit side
 * reading a member's owned documents) may ask for more, in one query.
 */
@Injectable()
export class GetDocumentsByIds {
  constructor(private readonly documents: DocumentRepository) {}
  async execute(instanceId: string, ids: string[]): Promise<DocumentView[]> {
    const wanted = [...new Set(ids)];
    const found = new Map((await this.documents.getMany(instanceId, wanted)).map((d) => [d.id, d]));
    return wanted.flatMap((id) => {
      const document = found.get(id);
      return document && document.state !== 'DELETED' ? [documentView(document)] : [];
    });
  }
}

export interface IndexationProgress {
  instance_id: string;
  total: number;
  by_state: Partial<Record<IndexationState, number>>;
  /** Share of live documents whose indexation has finished (indexed or failed), 0-100. */
  percent_done: number;
  done: boolean;
}

/** Where the indexation of an instance stands: documents per state and the share finished. */
@Injectable()
export class GetIndexationProgress {
  constructor(private readonly documents: DocumentRepository) {}
  async execute(instanceId: string): Promise<IndexationProgress> {
    const byState = await this.documents.countByState(instanceId);
    const live = Object.entries(byState).filter(([state]) => state !== 'DELETED').reduce((sum, [, n]) => sum + (n ?? 0), 0);
    const pending = (byState.PENDING ?? 0) + (byState.PARSING ?? 0);
    const percent = live === 0 ? 100 : Math.floor(((live - pending) / live) * 100);
    return { instance_id: instanceId, total: live, by_state: byState, percent_done: percent, done: pending === 0 };
  }
}

@Injectable()
export class CountDocuments {
  constructor(private readonly documents: DocumentRepository) {}
  execute(instanceId: string, state?: IndexationState): Promise<number> {
    return this.documents.count(instanceId, state);
  }
}

@Injectable()
export class ListDocuments {
  constructor(private readonly documents: DocumentRepository) {}
  async execute(instanceId: string, page: PageRequest, state?: IndexationState): Promise<Page<DocumentView>> {
    const result = await this.documents.list(instanceId, page, state);
    return { ...result, items: result.items.map(documentView) };
  }
}

/** Marks the document DELETED and removes its content, nodes and vectors: it stops answering at once. */
@Injectable()
export class DeleteDocument {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly nodes: SemanticNodeRepository,
    private readonly vectors: VectorIndex,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
    private readonly jobs: JobQueue,
  ) {}

  async execute(instanceId: string, organizationId: string, documentId: string): Promise<true> {
    return this.uow.run(async (): Promise<true> => {
      // The row lock makes a running indexation's final write wait for this delete, or this delete
      // wait for it (then it removes the nodes the indexation wrote).
      const document = await this.documents.get(instanceId, documentId, { forUpdate: true });
      if (!document || document.state === 'DELETED') throw documentNotFound(documentId);
      await this.nodes.removeForDocument(document.id);
      await this.vectors.removeDocument(instanceId, document.id);
      await this.documents.removeContent(document.id);
      await this.documents.save({ ...document, state: 'DELETED', failureReason: null, updatedAt: this.clock.now() });
      await this.activity.record({ organizationId, instanceId, action: 'repository.document.delete', subjectId: document.id, actor: null, before: { state: document.state }, after: { state: 'DELETED' } });
      for (const job of DOCUMENT_CHANGE_JOBS) await this.jobs.enqueue(job, { instanceId, documentId: document.id, change: 'deleted' });
      return true;
    });
  }
}

/** Documents re-queued per transaction by a whole-instance re-index. */
const REINDEX_BATCH = 200;

/**
 * Queues every live document of the instance (or one) for indexation again, e.g. after a model
 * change. A whole instance goes in batches of short transactions, so other requests are not held up.
 */
@Injectable()
export class ReindexDocuments {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(instanceId: string, documentId?: string): Promise<{ queued: number }> {
    if (documentId) {
      const queued = await this.uow.run(() => this.requeue(instanceId, documentId));
      if (!queued) throw documentNotFound(documentId);
      return { queued: 1 };
    }
    const ids = await this.documents.activeIds(instanceId);
    let queued = 0;
    for (let i = 0; i < ids.length; i += REINDEX_BATCH) {
      const batch = ids.slice(i, i + REINDEX_BATCH);
      queued += await this.uow.run(async () => {
        let n = 0;
        for (const id of batch) if (await this.requeue(instanceId, id)) n += 1;
        return n;
      });
    }
    return { queued };
  }

  /** Marks one live document PENDING and queues its indexation; false when it is unknown or deleted. */
  private async requeue(instanceId: string, id: string): Promise<boolean> {
    const document = await this.documents.get(instanceId, id, { forUpdate: true });
    if (!document || document.state === 'DELETED') return false;
    const pending: RepositoryDocument = { ...document, state: 'PENDING', failureReason: null, updatedAt: this.clock.now() };
    await this.documents.save(pending);
    await enqueueIndexation(this.jobs, pending);
    return true;
  }
}

/** A live document with its semantic nodes, as the analyses read it. */
export interface DocumentPassages {
  id: string;
  name: string;
  url: string | null;
  /** The indexed content version: equal keys mean equal nodes. */
  contentHash: string;
  indexedAt: string | null;
  /** With `vectors`: each node's vector (none for a node the index holds none of). */
  passages: { id: string; text: string; headingPath: string[]; vector?: number[] }[];
  /** With `vectors`: the embedding model of those vectors (the repository's current one), when the document has any. */
  vectorModel?: string;
}

/**
 * What the repository-wide analyses read (the full audit): the ids of an instance's live
 * documents, and documents with their nodes. Deleted, failed and not yet indexed documents are left out.
 */
@Injectable()
export class ReadDocumentPassages {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly nodes: SemanticNodeRepository,
    private readonly vectors: VectorIndex,
    private readonly embedder: Embedder,
  ) {}

  /** Every live document (PENDING ones included: their indexation will report them as changed). */
  async liveIds(instanceId: string): Promise<string[]> {
    return this.documents.activeIds(instanceId);
  }

  /** With `vectors`, each node's vector too, under the repository's embedding model. */
  async read(instanceId: string, documentIds: string[], options: { vectors?: boolean } = {}): Promise<DocumentPassages[]> {
    const documents = (await this.documents.getMany(instanceId, [...new Set(documentIds)])).filter((d) => d.state === 'INDEXED');
    const ids = documents.map((d) => d.id);
    const vectors = options.vectors ? new Map((await this.vectors.vectorsOf(instanceId, this.embedder.model, ids)).map((v) => [v.id, v.vector])) : null;
    const byDocument = new Map<string, DocumentPassages['passages']>();
    for (const n of await this.nodes.ofDocuments(instanceId, ids)) {
      const list = byDocument.get(n.documentId) ?? [];
      const vector = vectors?.get(n.id);
      list.push({ id: n.id, text: n.text, headingPath: n.headingPath, ...(vector ? { vector } : {}) });
      byDocument.set(n.documentId, list);
    }
    return documents.map((d) => ({
      id: d.id,
      name: d.name,
      url: d.url,
      contentHash: d.contentHash,
      indexedAt: d.indexedAt?.toISOString() ?? null,
      passages: byDocument.get(d.id) ?? [],
      // Named only when the document has vectors under it (none yet after a change of model, before re-indexation).
      ...(vectors && (byDocument.get(d.id) ?? []).some((p) => p.vector) ? { vectorModel: this.embedder.model } : {}),
    }));
  }
}
