import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, PlatformCoreModule } from '@svc/config';
import { DatabaseModule } from '@svc/database';
import { Embedder, VectorIndex } from '@svc/kernel';
import { CreateRepositoryInstance, IndexDocument, IngestDocument, ReadDocumentPassages, SearchSemanticNodes, SemanticNodeRepository } from '@svc/repository-core';
import { createTestDatabase, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { DataSource } from 'typeorm';
import { repositoryContext } from './app-modules';
import { PERSISTENCE } from './persistence';

@Module({})
class LargeDocumentRootModule {}

function repositoryModule(env: Record<string, string>): DynamicModule {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
  return {
    module: LargeDocumentRootModule,
    imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...repositoryContext(config, { withControllers: false, runWorkers: false })],
  };
}

const attempt = { attempt: 1, maxAttempts: 3, progress: async () => undefined };

/** A handbook of `sections` short sections, each its own semantic node; `edition` names its version in every one. */
function handbook(edition: string, sections: number): string {
  const body = Array.from({ length: sections }, (_, i) => `## Rule ${i}\n\nUnder the ${edition} edition, request ${i} is answered within ${i + 1} days by the ${edition} desk.`);
  return `# Handbook\n\n${body.join('\n\n')}\n`;
}

/** Rejects with `what` unless `promise` settles within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Indexing a large document (issue 28 item 5): its writes must not hold the database in one long
 * transaction (on PGlite, the only connection: every request waited for it), yet readers see its old
 * nodes or its new ones, never a mix, and a crash half-way leaves the old ones and a clean retry.
 */
describe.each<TestDatabaseMode>(['embedded', 'postgres'])('indexing a large document (%s)', (mode) => {
  let db: TestDatabase;
  let app: INestApplicationContext;
  let instanceId: string;
  let ingest: IngestDocument;
  let index: IndexDocument;
  let nodes: SemanticNodeRepository;
  let vectors: VectorIndex;
  let sql: DataSource;

  const upload = (text: string) => ingest.execute(instanceId, { externalId: 'handbook', name: 'handbook.md', mediaType: 'text/markdown', content: Buffer.from(text) });
  const indexed = async (doc: { id: string; content_hash: string }) => expect(await index.execute({ instanceId, documentId: doc.id, contentHash: doc.content_hash }, attempt)).toBe('indexed');
  /** Rows of the document's nodes no reader sees (other attempts'): none once an indexation has ended. */
  const staged = async (documentId: string) =>
    Number(
      (
        await sql.query(
          `SELECT count(*) AS n FROM repository.semantic_nodes n JOIN repository.documents d ON d.id = n.document_id WHERE n.document_id = $1 AND n.attempt_id IS DISTINCT FROM d.nodes_attempt`,
          [documentId],
        )
      )[0].n,
    );

  /**
   * What readers see of the document: its nodes and their editions, search hits. (The analyses read
   * indexed documents only: `passagesWithVectors` counts the passages they get with a vector, none while
   * the document is being indexed again.)
   */
  async function seen(documentId: string) {
    const ofDocument = await nodes.ofDocuments(instanceId, [documentId]);
    const [passages] = await app.get(ReadDocumentPassages).read(instanceId, [documentId], { vectors: true });
    const found = await app.get(SearchSemanticNodes).execute(instanceId, 'which edition answers the request', 50, 'hybrid');
    const editions = (texts: string[]) => [...new Set(texts.map((t) => /Under the (\w+) edition/.exec(t)?.[1] ?? t))].sort();
    return {
      ids: ofDocument.map((n) => n.id),
      editions: editions(ofDocument.map((n) => n.text)),
      passagesWithVectors: passages?.passages.filter((p) => p.vector).length ?? 0,
      searchEditions: editions(found.semantic_nodes.map((n) => n.text)),
    };
  }
  /** `seen` while the document is indexed again: the same nodes and hits, no passages for the analyses. */
  const whileIndexing = (view: Awaited<ReturnType<typeof seen>>) => ({ ...view, passagesWithVectors: 0 });

  beforeAll(async () => {
    db = await createTestDatabase(mode);
    app = await NestFactory.createApplicationContext(repositoryModule(db.env), { logger: false, abortOnError: false });
    ingest = app.get(IngestDocument);
    index = app.get(IndexDocument);
    nodes = app.get(SemanticNodeRepository);
    vectors = app.get(VectorIndex);
    sql = app.get(DataSource);
  }, 60000);
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });
  beforeEach(async () => {
    jest.restoreAllMocks();
    ({ instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_large', name: `Large ${Date.now()}` }));
  });

  it('answers other queries between its write batches, which see the old nodes in full until the new ones replace them at once', async () => {
    const v1 = await upload(handbook('first', 300));
    await indexed(v1);
    const before = await seen(v1.id);
    expect(before).toMatchObject({ editions: ['first'], passagesWithVectors: before.ids.length, searchEditions: ['first'] });
    expect(before.ids.length).toBeGreaterThan(250);

    // Every write of the indexation waits for the test to read the document from outside it. Had it
    // opened a transaction around its writes, on PGlite that read would wait for the one connection.
    const waiting: (() => void)[] = [];
    let passThrough = false;
    let arrived: () => void = () => undefined;
    const pause = async () => {
      if (passThrough) return;
      await new Promise<void>((resume) => {
        waiting.push(resume);
        arrived();
      });
    };
    const stage = nodes.stage.bind(nodes);
    jest.spyOn(nodes, 'stage').mockImplementation(async (...args) => {
      await pause();
      return stage(...args);
    });
    const upsert = vectors.upsert.bind(vectors);
    jest.spyOn(vectors, 'upsert').mockImplementation(async (...args) => {
      await pause();
      return upsert(...args);
    });

    const v2 = await upload(handbook('second', 300));
    let settled = false;
    const run = index.execute({ instanceId, documentId: v2.id, contentHash: v2.content_hash }, attempt).finally(() => (settled = true));
    const views = [];
    try {
      for (;;) {
        if (waiting.length === 0) await Promise.race([new Promise<void>((resolve) => (arrived = resolve)), run.catch(() => undefined)]);
        const resume = waiting.shift();
        if (!resume) break;
        views.push(await within(seen(v1.id), 5000, 'a read between two write batches was not answered (the indexation held the database)'));
        resume();
      }
    } finally {
      passThrough = true;
      for (const resume of waiting.splice(0)) resume();
    }
    expect(settled).toBe(true);
    expect(await run).toBe('indexed');
    // Many batches, each followed by an answered read that saw the first edition whole.
    expect(views.length).toBeGreaterThan(4);
    for (const view of views) expect(view).toEqual(whileIndexing(before));
    const after = await seen(v1.id);
    expect(after).toMatchObject({ editions: ['second'], passagesWithVectors: after.ids.length, searchEditions: ['second'] });
    expect(after.ids.length).toBe(before.ids.length);
    expect(await staged(v1.id)).toBe(0);
  });

  it('leaves the old nodes whole when it stops half-way, and the next attempt indexes the document without leftovers', async () => {
    const v1 = await upload(handbook('first', 300));
    await indexed(v1);
    const before = await seen(v1.id);
    const v2 = await upload(handbook('second', 300));
    const stage = nodes.stage.bind(nodes);
    let calls = 0;
    jest.spyOn(nodes, 'stage').mockImplementation(async (...args) => {
      if (++calls === 3) throw new Error('the worker stopped');
      return stage(...args);
    });
    await expect(index.execute({ instanceId, documentId: v2.id, contentHash: v2.content_hash }, attempt)).rejects.toThrow('the worker stopped');
    expect(await seen(v1.id)).toEqual(whileIndexing(before));

    // The job runs again from the start: the first attempt's staged nodes and vectors leave no trace.
    jest.restoreAllMocks();
    await indexed(v2);
    const after = await seen(v1.id);
    expect(after).toMatchObject({ editions: ['second'], passagesWithVectors: after.ids.length, searchEditions: ['second'] });
    const stored = await vectors.vectorsOf(instanceId, app.get(Embedder).model, [v1.id]);
    expect(stored.map((v) => v.id).sort()).toEqual([...after.ids].sort());
    expect(await staged(v1.id)).toBe(0);
  });

  it('gives way to a newer version uploaded while it writes', async () => {
    const v1 = await upload(handbook('first', 300));
    await indexed(v1);
    const before = await seen(v1.id);
    const v2 = await upload(handbook('second', 300));
    const upsert = vectors.upsert.bind(vectors);
    let v3: Awaited<ReturnType<typeof upload>> | undefined;
    jest.spyOn(vectors, 'upsert').mockImplementation(async (...args) => {
      v3 ??= await upload(handbook('third', 300));
      return upsert(...args);
    });
    expect(await index.execute({ instanceId, documentId: v2.id, contentHash: v2.content_hash }, attempt)).toBe('stale');
    expect(await seen(v1.id)).toEqual(whileIndexing(before));
    expect(await staged(v1.id)).toBe(0);
    jest.restoreAllMocks();
    await indexed(v3!);
    const after = await seen(v1.id);
    expect(after).toMatchObject({ editions: ['third'], passagesWithVectors: after.ids.length, searchEditions: ['third'] });
    expect((await vectors.vectorsOf(instanceId, app.get(Embedder).model, [v1.id])).map((v) => v.id).sort()).toEqual([...after.ids].sort());
  });
});
