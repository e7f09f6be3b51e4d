import { loadConfig } from '@svc/config';
import { Database, PLATFORM_MIGRATIONS } from '@svc/database';
import { newId } from '@svc/kernel';
import { createTestDatabase, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { CreateDocumentRecords1763700000600 } from './document-records.migration';
import { TypeOrmDocumentRecordRepository } from './document-records.repository';
import { CreateWorkspaceSchema1763700000300 } from './workspace.migration';

/** The DocumentRecordRepository port (audit-documents.ts) on a real database. */
describe.each<TestDatabaseMode>(['embedded', 'postgres'])('TypeOrmDocumentRecordRepository (%s)', (mode) => {
  let testDb: TestDatabase;
  let db: Database;
  let records: TypeOrmDocumentRecordRepository;
  const t0 = new Date('2026-11-21T10:00:00.000Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeAll(async () => {
    testDb = await createTestDatabase(mode);
    db = await Database.open(loadConfig(testDb.env), {
      entities: [],
      migrations: [...PLATFORM_MIGRATIONS, CreateWorkspaceSchema1763700000300, CreateDocumentRecords1763700000600],
    });
    records = new TypeOrmDocumentRecordRepository(db.unitOfWork);
  });

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  // Each test works on an audit instance of its own: no cleanup needed between them.
  async function newInstance(): Promise<string> {
    const id = newId('ki_');
    await db.unitOfWork
      .manager()
      .query(`INSERT INTO workspace.audit_instances (id, organization_id, name, step, configuration, created_at, updated_at) VALUES ($1, 'org_records', 'Records', 'INIT', '{}', $2, $2)`, [id, t0]);
    return id;
  }

  const webUrlOf = async (instanceId: string, documentId: string) => (await records.getMany(instanceId, [documentId]))[0]?.webUrl;

  it('records the URL the repository last gave: a newer one replaces it, and so does none (the link was removed)', async () => {
    const instanceId = await newInstance();
    const [doc, other] = [newId('kd_'), newId('kd_')];
    await records.cacheWebUrls(instanceId, [{ documentId: doc, webUrl: 'https://wiki.example/a' }], at(1));
    await records.cacheWebUrls(instanceId, [{ documentId: doc, webUrl: 'https://wiki.example/a2' }], at(2));
    expect(await webUrlOf(instanceId, doc)).toBe('https://wiki.example/a2');
    await records.cacheWebUrls(instanceId, [{ documentId: doc, webUrl: null }, { documentId: other, webUrl: null }], at(2));
    expect(await webUrlOf(instanceId, doc)).toBeNull();
    // A first resolution without a URL still records the document, with no URL.
    expect(await records.getMany(instanceId, [other])).toEqual([{ instanceId, documentId: other, ownerUserId: null, webUrl: null }]);
    await records.cacheWebUrls(instanceId, [{ documentId: doc, webUrl: 'https://wiki.example/b' }], at(3));
    expect(await webUrlOf(instanceId, doc)).toBe('https://wiki.example/b');
  });

  it('caching URLs keeps the owner and its assignment order; setting an owner keeps the cached URL', async () => {
    const instanceId = await newInstance();
    const [first, second] = [newId('kd_'), newId('kd_')];
    await records.setOwner(instanceId, second, 'usr_a', at(1));
    await records.setOwner(instanceId, first, 'usr_a', at(2));
    await records.cacheWebUrls(instanceId, [{ documentId: second, webUrl: 'https://wiki.example/2' }, { documentId: first, webUrl: null }], at(3));
    expect(await records.ownedBy(instanceId, 'usr_a')).toEqual([second, first]);
    await records.setOwner(instanceId, second, null, at(4));
    expect(await records.getMany(instanceId, [second])).toEqual([{ instanceId, documentId: second, ownerUserId: null, webUrl: 'https://wiki.example/2' }]);
    expect(await records.ownedBy(instanceId, 'usr_a')).toEqual([first]);
  });

  it('keeps records per instance', async () => {
    const [a, b] = [await newInstance(), await newInstance()];
    const doc = newId('kd_');
    await records.cacheWebUrls(a, [{ documentId: doc, webUrl: 'https://wiki.example/a' }], at(1));
    await records.cacheWebUrls(b, [{ documentId: doc, webUrl: null }], at(1));
    expect(await webUrlOf(a, doc)).toBe('https://wiki.example/a');
    expect(await webUrlOf(b, doc)).toBeNull();
    expect(await records.getMany(a, [])).toEqual([]);
  });
});
