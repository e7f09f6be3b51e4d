import { randomBytes } from 'node:crypto';
import { loadConfig } from '@svc/config';
import { Database, PLATFORM_MIGRATIONS } from '@svc/database';
import { newId } from '@svc/kernel';
import type { InstanceApiKey } from '@svc/repository-core';
import { createTestDatabase, TestDatabase, TestDatabaseMode } from '@svc/test-kit';
import { CreateRepositorySchema1763700000200 } from './repository.migration';
import { TypeOrmRepositoryInstanceStore } from './typeorm-repository-instance.store';

/** The instance-key half of the RepositoryInstanceStore port (repository.ports.ts) on a real database. */
describe.each<TestDatabaseMode>(['embedded', 'postgres'])('TypeOrmRepositoryInstanceStore: instance API keys (%s)', (mode) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: TypeOrmRepositoryInstanceStore;
  const t0 = new Date('2026-11-21T10:00:00.000Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeAll(async () => {
    testDb = await createTestDatabase(mode);
    db = await Database.open(loadConfig(testDb.env), { entities: [], migrations: [...PLATFORM_MIGRATIONS, CreateRepositorySchema1763700000200] });
    store = new TypeOrmRepositoryInstanceStore(db.unitOfWork);
  });

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  // Each test works on instances of its own: no cleanup needed between them.
  async function newInstance(organizationId = 'org_store') {
    const id = newId('ki_');
    await store.insert({ id, organizationId, name: 'Store', createdAt: t0 });
    return id;
  }

  async function newKey(instanceId: string, overrides: Partial<InstanceApiKey> = {}): Promise<InstanceApiKey> {
    const key: InstanceApiKey = { id: newId('key_'), instanceId, name: 'k', lookupId: randomBytes(12).toString('base64url'), secretHash: 'hash', createdAt: t0, revokedAt: null, ...overrides };
    await store.insertApiKey(key);
    return key;
  }

  it('finds a live key by lookup id with its organisation, and never a revoked one', async () => {
    const key = await newKey(await newInstance('org_b'));
    expect(await store.findApiKey(key.lookupId)).toEqual({ ...key, organizationId: 'org_b' });
    expect(await store.revokeApiKey(key.id, at(5))).toBe(true);
    expect(await store.findApiKey(key.lookupId)).toBeNull();
  });

  it('gets a key only through its own instance, revoked or not', async () => {
    const instanceId = await newInstance();
    const other = await newInstance();
    const key = await newKey(instanceId);
    expect(await store.getApiKey(instanceId, key.id)).toEqual(key);
    expect(await store.getApiKey(other, key.id)).toBeNull();
    expect(await store.getApiKey(instanceId, newId('key_'))).toBeNull();
    await store.revokeApiKey(key.id, at(1));
    expect(await store.getApiKey(instanceId, key.id)).toEqual({ ...key, revokedAt: at(1) });
  });

  it('lists the keys of one instance newest first, ties by id descending, revoked ones included, paginated', async () => {
    const instanceId = await newInstance();
    const oldest = await newKey(instanceId, { createdAt: at(1) });
    const tiedA = await newKey(instanceId, { createdAt: at(2) });
    const tiedB = await newKey(instanceId, { createdAt: at(2) });
    const newest = await newKey(instanceId, { createdAt: at(3), revokedAt: at(4) });
    await newKey(await newInstance(), { createdAt: at(9) });
    const [first, second] = [tiedA, tiedB].sort((a, b) => (a.id < b.id ? 1 : -1));
    expect(await store.listApiKeys(instanceId, { offset: 0, limit: 50 })).toEqual({ items: [newest, first, second, oldest], total: 4, offset: 0, limit: 50 });
    expect(await store.listApiKeys(instanceId, { offset: 1, limit: 2 })).toEqual({ items: [first, second], total: 4, offset: 1, limit: 2 });
    // Past the end: no rows to carry the window count, the total still comes back.
    expect(await store.listApiKeys(instanceId, { offset: 10, limit: 2 })).toEqual({ items: [], total: 4, offset: 10, limit: 2 });
    expect(await store.listApiKeys(await newInstance(), { offset: 0, limit: 50 })).toEqual({ items: [], total: 0, offset: 0, limit: 50 });
  });

  it('revokes once: a second revocation reports false and keeps the first time', async () => {
    const instanceId = await newInstance();
    const key = await newKey(instanceId);
    expect(await store.revokeApiKey(key.id, at(10))).toBe(true);
    expect(await store.revokeApiKey(key.id, at(20))).toBe(false);
    expect((await store.getApiKey(instanceId, key.id))?.revokedAt).toEqual(at(10));
    expect(await store.revokeApiKey(newId('key_'), at(30))).toBe(false);
  });

  it('lets exactly one of two concurrent revocations win', async () => {
    const key = await newKey(await newInstance());
    const outcomes = await Promise.all([db.unitOfWork.run(() => store.revokeApiKey(key.id, at(1))), db.unitOfWork.run(() => store.revokeApiKey(key.id, at(2)))]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });
});
