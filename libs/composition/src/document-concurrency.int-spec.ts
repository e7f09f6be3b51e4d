import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, PlatformCoreModule } from '@svc/config';
import { DatabaseModule } from '@svc/database';
import { DomainError, Embedder, isDomainError } from '@svc/kernel';
import { CreateRepositoryInstance, DeleteDocument, DocumentRepository, embeddingFailure, IndexDocument, IngestDocument, ReindexDocuments, SearchSemanticNodes, SemanticNodeRepository } from '@svc/repository-core';
import { createTestDatabase, TestDatabase, waitFor } from '@svc/test-kit';
import { DataSource } from 'typeorm';
import { repositoryContext } from './app-modules';
import { PERSISTENCE } from './persistence';

@Module({})
class ConcurrencyRootModule {}

/** The repository context as the apps assemble it, on PostgreSQL (a pool: writers really overlap), without workers. */
function repositoryModule(env: Record<string, string>): DynamicModule {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', DEMO_DATA: 'false', INGESTION_MAX_INSTANCE_BYTES: '1000' });
  return {
    module: ConcurrencyRootModule,
    imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...repositoryContext(config, { withControllers: false, runWorkers: false })],
  };
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const attempt = { attempt: 1, maxAttempts: 3, progress: async () => undefined };

/**
 * Writers of one document that overlap on PostgreSQL: uploads, deletes and the final write of an
 * indexation take turns on the document's row (and uploads on the instance), so no interleaving
 * loses a version, resurrects a deleted document or breaks the quota.
 */
describe('document writers racing on PostgreSQL', () => {
  let db: TestDatabase;
  let app: INestApplicationContext;
  let instanceId: string;
  let ingest: IngestDocument;
  let index: IndexDocument;
  let documents: DocumentRepository;
  let nodes: SemanticNodeRepository;
  let sql: DataSource;

  const upload = (externalId: string, text: string) => ingest.execute(instanceId, { externalId, name: `${externalId}.md`, mediaType: 'text/markdown', content: Buffer.from(text) });
  const nodesOf = async (documentId: string) => Number((await sql.query(`SELECT count(*) AS n FROM repository.semantic_nodes WHERE document_id = $1`, [documentId]))[0].n);

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    app = await NestFactory.createApplicationContext(repositoryModule(db.env), { logger: false, abortOnError: false });
    ingest = app.get(IngestDocument);
    index = app.get(IndexDocument);
    documents = app.get(DocumentRepository);
    nodes = app.get(SemanticNodeRepository);
    sql = app.get(DataSource);
  }, 60000);
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });
  beforeEach(async () => {
    jest.restoreAllMocks();
    ({ instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_race', name: `Race ${Date.now()}` }));
  });

  it('turns simultaneous first uploads of one external id into one document, without errors', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => upload('handbook', `# Handbook\n\nVersion ${i}.`)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const ids = new Set(results.map((r) => (r as PromiseFulfilledResult<{ id: string }>).value.id));
    expect(ids.size).toBe(1);
    expect(Number((await sql.query(`SELECT count(*) AS n FROM repository.documents WHERE instance_id = $1`, [instanceId]))[0].n)).toBe(1);
  });

  it('keeps the instance quota when uploads race for it', async () => {
    // 1000 bytes per instance here: three documents of 300 bytes fit, a fourth does not.
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => upload(`doc-${i}`, `${i}`.padEnd(300, '.'))));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.length - refused.length).toBe(3);
    for (const r of refused) expect(isDomainError(r.reason) && r.reason.code).toBe('REPOSITORY.INSTANCE_QUOTA_EXCEEDED');
    expect(await documents.totalBytes(instanceId)).toBe(900);
  });

  it('shows PARSING while a document is being indexed', async () => {
    const doc = await upload('slow', '# Slow\n\nEmbedding takes a while.');
    const embedding = gate();
    const release = gate();
    const embedder = app.get(Embedder);
    const embed = embedder.embed.bind(embedder);
    jest.spyOn(embedder, 'embed').mockImplementation(async (texts) => {
      embedding.open();
      await release.opened;
      return embed(texts);
    });
    const run = index.execute({ instanceId, documentId: doc.id, contentHash: doc.content_hash }, attempt);
    await embedding.opened;
    expect((await documents.get(instanceId, doc.id))?.state).toBe('PARSING');
    release.open();
    expect(await run).toBe('indexed');
    expect((await documents.get(instanceId, doc.id))?.state).toBe('INDEXED');
  });

  /** Resolves once another session of this database waits for a lock: the race is really on. */
  async function waitingOnALock(): Promise<void> {
    await waitFor(
      async () => {
        const [row] = await sql.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return Number(row.n) > 0 ? true : undefined;
      },
      5000,
      'a session waiting for a lock (the writers did not take turns)',
    );
  }

  /**
   * Runs the indexation of `doc` into its final transaction, and holds it there (after it has read
   * the document, before it writes anything) until `release`.
   */
  async function indexingHeldInFinalWrite(doc: { id: string; content_hash: string }) {
    const inside = gate();
    const release = gate();
    const publish = nodes.publish.bind(nodes);
    jest.spyOn(nodes, 'publish').mockImplementation(async (...args) => {
      inside.open();
      await release.opened;
      return publish(...args);
    });
    const run = index.execute({ instanceId, documentId: doc.id, contentHash: doc.content_hash }, attempt);
    await inside.opened;
    return { run, release: release.open };
  }

  it('never leaves a deleted document searchable, whichever of delete and indexation commits first', async () => {
    const doc = await upload('refunds', '# Refunds\n\nRefunds are paid within 30 days of the request.');
    const indexing = await indexingHeldInFinalWrite(doc);
    const deleting = app.get(DeleteDocument).execute(instanceId, 'org_race', doc.id);
    await waitingOnALock(); // the delete waits for the document's row
    indexing.release();
    await Promise.all([indexing.run, deleting]);
    expect((await documents.get(instanceId, doc.id))?.state).toBe('DELETED');
    expect(await nodesOf(doc.id)).toBe(0);
    const found = await app.get(SearchSemanticNodes).execute(instanceId, 'when are refunds paid', 10, 'hybrid');
    expect(found.semantic_nodes).toEqual([]);
    expect(found.documents_contents).toEqual([]);
  });

  it('keeps a new version uploaded while the previous one is being written', async () => {
    const v1 = await upload('policy', '# Policy\n\nVersion one says thirty days.');
    const indexing = await indexingHeldInFinalWrite(v1);
    const v2upload = upload('policy', '# Policy\n\nVersion two says fourteen days.');
    await waitingOnALock(); // the upload waits for the document's row
    indexing.release();
    const [, v2] = await Promise.all([indexing.run, v2upload]);
    expect(v2.content_hash).not.toBe(v1.content_hash);
    // The new version is waiting for its own indexation: not "indexed" under the old version's hash.
    expect(await documents.get(instanceId, v1.id)).toMatchObject({ contentHash: v2.content_hash, state: 'PENDING' });
    jest.restoreAllMocks();
    expect(await index.execute({ instanceId, documentId: v2.id, contentHash: v2.content_hash }, attempt)).toBe('indexed');
    const found = await app.get(SearchSemanticNodes).execute(instanceId, 'how many days does the policy say', 10, 'fulltext');
    expect(found.semantic_nodes.map((n) => n.text).join(' ')).toContain('fourteen');
    expect(found.semantic_nodes.map((n) => n.text).join(' ')).not.toContain('thirty');
  });

  it('queues a re-index even while a job for the same content is still live (it may be past its write)', async () => {
    const doc = await upload('reindexed', '# Reindexed\n\nQueued twice on purpose.');
    const queued = async () =>
      Number((await sql.query(`SELECT count(*) AS n FROM jobs.jobs WHERE name = 'repository.index-document' AND payload->>'documentId' = $1 AND state = 'queued'`, [doc.id]))[0].n);
    expect(await queued()).toBe(1);
    expect(await app.get(ReindexDocuments).execute(instanceId, doc.id)).toEqual({ queued: 1 });
    expect(await app.get(ReindexDocuments).execute(instanceId)).toEqual({ queued: 1 });
    // Three jobs: the first to run indexes the content, the others find it indexed and stop.
    expect(await queued()).toBe(3);
    const payload = { instanceId, documentId: doc.id, contentHash: doc.content_hash };
    expect(await index.execute(payload, attempt)).toBe('indexed');
    expect(await index.execute(payload, attempt)).toBe('stale');
  });

  it('marks a document whose indexation gave up, and queues it again when the same file is sent again', async () => {
    const doc = await upload('stuck', '# Stuck\n\nThe worker died while reading this.');
    await index.recordGiveUp({ instanceId, documentId: doc.id, contentHash: doc.content_hash }, { workerStopped: true, attempts: 5 });
    expect(await documents.get(instanceId, doc.id)).toMatchObject({ state: 'PARSING_ERROR', failureReason: 'Indexation failed: Gave up after 5 attempts: the worker stopped during the last one.' });
    const again = await upload('stuck', '# Stuck\n\nThe worker died while reading this.');
    expect(again).toMatchObject({ state: 'PENDING', reindexing: true });
    expect(await index.execute({ instanceId, documentId: doc.id, contentHash: doc.content_hash }, attempt)).toBe('indexed');
    // Only the jobs' verdict or a domain error reaches clients; other error text stays in the server log.
    const other = await upload('other', '# Other\n\nA driver error will not show.');
    await index.recordGiveUp({ instanceId, documentId: other.id, contentHash: other.content_hash }, { error: Object.assign(new Error('duplicate key value violates unique constraint "secret_index"'), { name: 'QueryFailedError' }) });
    expect((await documents.get(instanceId, other.id))?.failureReason).toBe('Indexation failed: an unexpected error (the server log has the details).');
    await index.recordGiveUp({ instanceId, documentId: other.id, contentHash: other.content_hash }, { workerStopped: true, attempts: 5 });
    // (Already failed: a second give-up does not overwrite the first reason.)
    expect((await documents.get(instanceId, other.id))?.failureReason).toBe('Indexation failed: an unexpected error (the server log has the details).');
    // A job queued again for the same content starts even after a late give-up marked it failed.
    expect(await index.execute({ instanceId, documentId: other.id, contentHash: other.content_hash }, attempt)).toBe('indexed');
    // An embedding model that stayed down (or refused the text) leaves EMBEDDING_ERROR with its reason.
    const embedding = await upload('embedding', '# Embedding\n\nThe model was down all day.');
    await index.recordGiveUp(
      { instanceId, documentId: embedding.id, contentHash: embedding.content_hash },
      { error: embeddingFailure(DomainError.unavailable('EMBEDDINGS.UNAVAILABLE', 'The embedding service is unavailable (HTTP 503, 4 attempts).')) },
    );
    expect(await documents.get(instanceId, embedding.id)).toMatchObject({ state: 'EMBEDDING_ERROR', failureReason: 'The embedding service is unavailable (HTTP 503, 4 attempts).' });
    // A give-up reported after the content was indexed (a duplicate delivery) changes nothing.
    await index.recordGiveUp({ instanceId, documentId: doc.id, contentHash: doc.content_hash }, { error: new Error('late') });
    expect((await documents.get(instanceId, doc.id))?.state).toBe('INDEXED');
    // Indexed content sent again only updates the metadata.
    expect(await upload('stuck', '# Stuck\n\nThe worker died while reading this.')).toMatchObject({ state: 'INDEXED', reindexing: false });
  });
});
