import { newId, Principal, Role } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { AuthenticateInstanceKey } from './authenticate-instance-key.use-case';
import { CreateRepositoryInstance } from './create-repository-instance.use-case';
import { CreateInstanceApiKey, ListInstanceApiKeys, RevokeInstanceApiKey } from './instance-api-keys.use-cases';
import { generateInstanceKey } from './instance-key-format';
import { FixedClock, ImmediateUnitOfWork, InMemoryRepositoryInstanceStore, PlainInstanceKeyHasher, RecordingActivityLog, TestIds } from './testing/in-memory-repository-instances';

const ORG = 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const OTHER_ORG = 'org_01BX5ZZKBKACTAV9WEVGEMMVRZ';

const caller = (roles: Role[], organizationId = ORG): Principal => ({ organizationId, userId: newId('usr_'), roles, credential: { kind: 'org_api_key', id: newId('key_') } });
const admin = caller(['ADMIN']);

async function setup() {
  const store = new InMemoryRepositoryInstanceStore();
  const hasher = new PlainInstanceKeyHasher();
  const clock = new FixedClock();
  const activity = new RecordingActivityLog();
  const uow = new ImmediateUnitOfWork();
  const ids = new TestIds();
  const createInstance = new CreateRepositoryInstance(store, hasher, ids, clock, uow);
  const { instanceId, apiKey: linkKey } = await createInstance.execute({ organizationId: ORG, name: 'Handbook' });
  const { instanceId: otherInstanceId } = await createInstance.execute({ organizationId: ORG, name: 'Other' });
  const { instanceId: foreignInstanceId } = await createInstance.execute({ organizationId: OTHER_ORG, name: 'Foreign' });
  return {
    store,
    clock,
    activity,
    instanceId,
    linkKey,
    otherInstanceId,
    foreignInstanceId,
    create: new CreateInstanceApiKey(store, hasher, ids, clock, uow, activity),
    list: new ListInstanceApiKeys(store),
    revoke: new RevokeInstanceApiKey(store, clock, uow, activity),
    authenticate: new AuthenticateInstanceKey(store, hasher),
  };
}


describe('CreateInstanceApiKey', () => {
  it('returns the raw key once with the key view, and the key opens the instance API of that instance only', async () => {
    const { create, authenticate, instanceId, otherInstanceId } = await setup();
    const created = await create.execute(admin, { instanceId, name: 'ingestion bot' });
    expect(created).toEqual({ id: expect.stringMatching(/^key_/), instance_id: instanceId, name: 'ingestion bot', created_at: '2026-11-21T10:00:00.000Z', revoked_at: null, api_key: expect.stringMatching(/^svc_ins_/) });
    const principal = await authenticate.execute(instanceId, created.api_key);
    expect(principal).toEqual({ organizationId: ORG, userId: `instance:${instanceId}`, roles: [], credential: { kind: 'instance_api_key', id: created.id }, instanceId });
    expect((await domainErrorOf(authenticate.execute(otherInstanceId, created.api_key))).code).toBe('AUTH.INVALID_INSTANCE_KEY');
  });

  it('records the creation in the activity log, without the raw key', async () => {
    const { create, activity, instanceId } = await setup();
    const principal = caller(['ACTIVATION_MANAGER']);
    const created = await create.execute(principal, { instanceId, name: 'ci' });
    expect(activity.entries).toEqual([
      { organizationId: ORG, instanceId, action: 'repository.instance_api_key.create', subjectId: created.id, actor: principal, before: null, after: { id: created.id, instance_id: instanceId, name: 'ci', created_at: created.created_at, revoked_at: null } },
    ]);
    expect(JSON.stringify(activity.entries)).not.toContain(created.api_key);
  });

  it('allows ADMIN and ACTIVATION_MANAGER, and refuses every other role and instance keys (403, nothing stored)', async () => {
    const { create, store, instanceId } = await setup();
    for (const role of ['ADMIN', 'ACTIVATION_MANAGER'] as const) {
      await expect(create.execute(caller([role]), { instanceId, name: role })).resolves.toMatchObject({ name: role });
    }
    const before = store.keys.size;
    for (const role of ['AUTHORITY_MANAGER', 'STEWARD', 'KNOWLEDGE_EXPERT', 'BILLING', 'CONSUMER'] as const) {
      const error = await domainErrorOf(create.execute(caller([role]), { instanceId, name: 'x' }));
      expect({ kind: error.kind, code: error.code }).toEqual({ kind: 'forbidden', code: 'AUTH.ROLE_NOT_ALLOWED' });
    }
    const instanceKeyPrincipal: Principal = { organizationId: ORG, userId: `instance:${instanceId}`, roles: [], credential: { kind: 'instance_api_key', id: newId('key_') }, instanceId };
    expect((await domainErrorOf(create.execute(instanceKeyPrincipal, { instanceId, name: 'x' }))).kind).toBe('forbidden');
    expect(store.keys.size).toBe(before);
  });

  it("answers 404 for another organisation's instance exactly as for a missing one", async () => {
    const { create, store, foreignInstanceId } = await setup();
    const before = store.keys.size;
    const foreign = await domainErrorOf(create.execute(admin, { instanceId: foreignInstanceId, name: 'x' }));
    const missing = await domainErrorOf(create.execute(admin, { instanceId: newId('ki_'), name: 'x' }));
    expect({ kind: foreign.kind, code: foreign.code }).toEqual({ kind: 'not_found', code: 'REPOSITORY.INSTANCE_NOT_FOUND' });
    expect({ kind: missing.kind, code: missing.code }).toEqual({ kind: foreign.kind, code: foreign.code });
    expect(store.keys.size).toBe(before);
  });

  it('takes a name of 1 to 100 characters, trimmed', async () => {
    const { create, instanceId } = await setup();
    expect((await create.execute(admin, { instanceId, name: '  crawler  ' })).name).toBe('crawler');
    expect((await create.execute(admin, { instanceId, name: 'n'.repeat(100) })).name).toHaveLength(100);
    for (const name of ['', '   ', 'n'.repeat(101)]) {
      const error = await domainErrorOf(create.execute(admin, { instanceId, name }));
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.INVALID_KEY_NAME', errors: [{ field: 'name', message: expect.any(String) }] });
    }
  });

  it('mints a different key every time', async () => {
    const { create, instanceId } = await setup();
    const keys = await Promise.all([1, 2, 3].map((n) => create.execute(admin, { instanceId, name: `k${n}` })));
    expect(new Set(keys.map((k) => k.api_key)).size).toBe(3);
    expect(new Set(keys.map((k) => k.id)).size).toBe(3);
  });
});

describe('ListInstanceApiKeys', () => {
  it('lists the keys of the instance newest first, revoked ones included, with no secret', async () => {
    const { create, list, revoke, clock, instanceId, otherInstanceId, linkKey } = await setup();
    clock.advance(1000);
    const first = await create.execute(admin, { instanceId, name: 'first' });
    clock.advance(1000);
    const second = await create.execute(admin, { instanceId, name: 'second' });
    await create.execute(admin, { instanceId: otherInstanceId, name: 'elsewhere' });
    await revoke.execute(admin, instanceId, first.id);

    const page = await list.execute(caller(['ACTIVATION_MANAGER']), instanceId, { offset: 0, limit: 50 });
    expect(page).toMatchObject({ total: 3, offset: 0, limit: 50 });
    expect(page.items.map((k) => k.name)).toEqual(['second', 'first', 'audit link']);
    expect(page.items[1]).toEqual({ id: first.id, instance_id: instanceId, name: 'first', created_at: '2026-11-21T10:00:01.000Z', revoked_at: '2026-11-21T10:00:02.000Z' });
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(['created_at', 'id', 'instance_id', 'name', 'revoked_at']);
    const text = JSON.stringify(page);
    for (const raw of [first.api_key, second.api_key, linkKey]) {
      expect(text).not.toContain(raw);
      expect(text).not.toContain(raw.slice(8, 24)); // not even the lookup id
    }
  });

  it('paginates with offset and limit', async () => {
    const { create, list, clock, instanceId } = await setup();
    for (const name of ['a', 'b', 'c']) {
      clock.advance(1000);
      await create.execute(admin, { instanceId, name });
    }
    const page = await list.execute(admin, instanceId, { offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 4, offset: 1, limit: 2 });
    expect(page.items.map((k) => k.name)).toEqual(['b', 'a']);
  });

  it('refuses other roles (403) and hides other organisations (404)', async () => {
    const { list, instanceId, foreignInstanceId } = await setup();
    expect((await domainErrorOf(list.execute(caller(['STEWARD']), instanceId, { offset: 0, limit: 50 }))).kind).toBe('forbidden');
    expect((await domainErrorOf(list.execute(caller(['CONSUMER']), instanceId, { offset: 0, limit: 50 }))).kind).toBe('forbidden');
    expect((await domainErrorOf(list.execute(admin, foreignInstanceId, { offset: 0, limit: 50 }))).code).toBe('REPOSITORY.INSTANCE_NOT_FOUND');
    expect((await domainErrorOf(list.execute(caller(['ADMIN'], OTHER_ORG), instanceId, { offset: 0, limit: 50 }))).code).toBe('REPOSITORY.INSTANCE_NOT_FOUND');
  });
});

describe('RevokeInstanceApiKey', () => {
  it('stops the key on the instance API at once, and leaves the other keys working', async () => {
    const { create, revoke, authenticate, instanceId, linkKey } = await setup();
    const doomed = await create.execute(admin, { instanceId, name: 'doomed' });
    const kept = await create.execute(admin, { instanceId, name: 'kept' });
    await authenticate.execute(instanceId, doomed.api_key);
    expect(await revoke.execute(caller(['ACTIVATION_MANAGER']), instanceId, doomed.id)).toBe(true);
    expect((await domainErrorOf(authenticate.execute(instanceId, doomed.api_key))).code).toBe('AUTH.INVALID_INSTANCE_KEY');
    await expect(authenticate.execute(instanceId, kept.api_key)).resolves.toMatchObject({ instanceId });
    await expect(authenticate.execute(instanceId, linkKey)).resolves.toMatchObject({ instanceId });
  });

  it('is idempotent: a second revocation answers true, keeps the first time and logs nothing more', async () => {
    const { create, revoke, list, activity, clock, instanceId } = await setup();
    const key = await create.execute(admin, { instanceId, name: 'k' });
    clock.advance(5000);
    await revoke.execute(admin, instanceId, key.id);
    clock.advance(5000);
    expect(await revoke.execute(admin, instanceId, key.id)).toBe(true);
    const listed = (await list.execute(admin, instanceId, { offset: 0, limit: 50 })).items.find((k) => k.id === key.id);
    expect(listed?.revoked_at).toBe('2026-11-21T10:00:05.000Z');
    expect(activity.entries.map((e) => e.action)).toEqual(['repository.instance_api_key.create', 'repository.instance_api_key.revoke']);
    expect(activity.entries[1]).toMatchObject({ instanceId, subjectId: key.id, actor: admin, before: { revoked_at: null }, after: { revoked_at: '2026-11-21T10:00:05.000Z' } });
  });

  it("answers 404 for an unknown key and for another instance's key, which stays valid", async () => {
    const { create, revoke, authenticate, instanceId, otherInstanceId } = await setup();
    const elsewhere = await create.execute(admin, { instanceId: otherInstanceId, name: 'elsewhere' });
    for (const keyId of [newId('key_'), elsewhere.id]) {
      const error = await domainErrorOf(revoke.execute(admin, instanceId, keyId));
      expect({ kind: error.kind, code: error.code }).toEqual({ kind: 'not_found', code: 'REPOSITORY.INSTANCE_API_KEY_NOT_FOUND' });
    }
    await expect(authenticate.execute(otherInstanceId, elsewhere.api_key)).resolves.toMatchObject({ instanceId: otherInstanceId });
  });

  it('refuses other roles (403) and other organisations (404) without revoking anything', async () => {
    const { create, revoke, authenticate, instanceId } = await setup();
    const key = await create.execute(admin, { instanceId, name: 'k' });
    expect((await domainErrorOf(revoke.execute(caller(['STEWARD']), instanceId, key.id))).kind).toBe('forbidden');
    expect((await domainErrorOf(revoke.execute(caller(['ADMIN'], OTHER_ORG), instanceId, key.id))).kind).toBe('not_found');
    await expect(authenticate.execute(instanceId, key.api_key)).resolves.toMatchObject({ instanceId });
  });
});

describe('AuthenticateInstanceKey', () => {
  it('refuses malformed keys and instance ids without reading the store', async () => {
    const { authenticate, store, instanceId, linkKey } = await setup();
    for (const [id, key] of [
      [instanceId, undefined],
      [instanceId, ''],
      [instanceId, linkKey.slice(0, -1)],
      [instanceId, linkKey.replace('svc_ins_', 'svc_org_')],
      [instanceId, `${linkKey.slice(0, 30)}!${linkKey.slice(31)}`],
      [undefined, linkKey],
      ['kd_01ARZ3NDEKTSV4RRFFQ69G5FAV', linkKey],
    ] as const) {
      expect((await domainErrorOf(authenticate.execute(id, key))).code).toBe('AUTH.INVALID_INSTANCE_KEY');
    }
    expect(store.lookups).toBe(0);
  });

  it('refuses a well-formed unknown key and a right lookup id with a wrong secret (401)', async () => {
    const { authenticate, instanceId, linkKey } = await setup();
    expect((await domainErrorOf(authenticate.execute(instanceId, generateInstanceKey().apiKey))).kind).toBe('unauthenticated');
    const forged = `${linkKey.slice(0, 24)}${generateInstanceKey().apiKey.slice(24)}`;
    expect((await domainErrorOf(authenticate.execute(instanceId, forged))).kind).toBe('unauthenticated');
  });

  it('answers unavailable with a retry delay when the store cannot be read', async () => {
    const { authenticate, store, instanceId, linkKey } = await setup();
    store.failWith = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    expect(await domainErrorOf(authenticate.execute(instanceId, linkKey))).toMatchObject({ kind: 'unavailable', code: 'AUTH.KEY_STORE_UNAVAILABLE', retryAfterSeconds: 5 });
  });
});
