import { DomainError } from '@svc/kernel';
import { generateApiKey } from './api-key-format';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { IdentitySettings } from './identity-settings';
import { CreateApiKey, RevokeApiKey } from './manage-api-keys.use-case';
import { FixedClock, ImmediateUnitOfWork, InMemoryApiKeyRepository, InMemoryUserRepository, PlainSecretHasher, RecordingActivityLog, TestIds } from './testing/in-memory-identity';

function setup(cacheSeconds = 0) {
  const keys = new InMemoryApiKeyRepository();
  const users = new InMemoryUserRepository();
  const clock = new FixedClock();
  const hasher = new PlainSecretHasher();
  const activity = new RecordingActivityLog();
  const uow = new ImmediateUnitOfWork();
  const authenticate = new AuthenticateApiKey(keys, hasher, clock, new IdentitySettings(cacheSeconds));
  const create = new CreateApiKey(keys, users, hasher, new TestIds(), clock, uow, activity);
  const revoke = new RevokeApiKey(keys, authenticate, clock, uow, activity);
  return { keys, users, clock, activity, authenticate, create, revoke };
}

const expectCode = async (promise: Promise<unknown>, kind: string, code: string) => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect(error).toMatchObject({ kind, code });
};

describe('AuthenticateApiKey', () => {
  it('resolves a created key to its service-account principal with the key roles', async () => {
    const { create, authenticate, activity } = setup();
    const created = await create.execute('org_x', { name: 'ci', roles: ['STEWARD'] }, null);
    const { principal } = await authenticate.execute(created.api_key);
    expect(principal).toEqual({ organizationId: 'org_x', userId: created.user_id, roles: ['STEWARD'], credential: { kind: 'org_api_key', id: created.id } });
    expect(activity.entries.map((e) => e.action)).toEqual(['identity.api_key.create']);
    expect(JSON.stringify(activity.entries)).not.toContain(created.api_key);
  });

  it('rejects malformed keys without reading the key store', async () => {
    const { authenticate, keys } = setup();
    const key = generateApiKey();
    for (const bad of [key.slice(0, -1), key.replace('svc_org_', 'svc_xyz_'), `${key.slice(0, 30)}!${key.slice(31)}`, '']) {
      await expectCode(authenticate.execute(bad), 'unauthenticated', 'AUTH.INVALID_API_KEY');
    }
    expect(keys.lookups).toBe(0);
  });

  it('rejects an unknown well-formed key, a revoked key and an expired key with the same 401', async () => {
    const { create, revoke, authenticate, clock } = setup();
    await expectCode(authenticate.execute(generateApiKey()), 'unauthenticated', 'AUTH.INVALID_API_KEY');
    const revoked = await create.execute('org_x', { name: 'a', roles: ['ADMIN'] }, null);
    await revoke.execute({ organizationId: 'org_x', userId: 'usr_x', roles: ['ADMIN'], credential: { kind: 'org_api_key', id: 'key_x' } }, revoked.id);
    await expectCode(authenticate.execute(revoked.api_key), 'unauthenticated', 'AUTH.INVALID_API_KEY');
    const expiring = await create.execute('org_x', { name: 'b', roles: ['ADMIN'], expiresAt: new Date(clock.now().getTime() + 60_000) }, null);
    await expect(authenticate.execute(expiring.api_key)).resolves.toBeDefined();
    clock.advance(60_001);
    await expectCode(authenticate.execute(expiring.api_key), 'unauthenticated', 'AUTH.INVALID_API_KEY');
  });

  it('answers 503-unavailable with a retry delay when the key store is unreachable', async () => {
    const { authenticate, keys } = setup();
    keys.failWith = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const error = await authenticate.execute(generateApiKey()).catch((e: DomainError) => e);
    expect(error).toMatchObject({ kind: 'unavailable', code: 'AUTH.KEY_STORE_UNAVAILABLE', retryAfterSeconds: 5 });
  });

  it('stops a key revoked by this process at once, despite the cache', async () => {
    const { create, revoke, authenticate } = setup(30);
    const key = await create.execute('org_x', { name: 'c', roles: ['ADMIN'] }, null);
    await authenticate.execute(key.api_key);
    await revoke.execute({ organizationId: 'org_x', userId: 'usr_x', roles: ['ADMIN'], credential: { kind: 'org_api_key', id: 'key_x' } }, key.id);
    await expectCode(authenticate.execute(key.api_key), 'unauthenticated', 'AUTH.INVALID_API_KEY');
  });

  it('keeps trusting a cached key revoked elsewhere only for the configured delay', async () => {
    const { create, authenticate, clock, keys } = setup(30);
    const key = await create.execute('org_x', { name: 'c', roles: ['ADMIN'] }, null);
    await authenticate.execute(key.api_key);
    await keys.markRevoked(key.id, clock.now()); // another replica revoked it
    clock.advance(29_000);
    await expect(authenticate.execute(key.api_key)).resolves.toBeDefined();
    clock.advance(2_000);
    await expectCode(authenticate.execute(key.api_key), 'unauthenticated', 'AUTH.INVALID_API_KEY');
  });

  it('refuses to create a key that is already expired or has no role', async () => {
    const { create, clock } = setup();
    await expectCode(create.execute('org_x', { name: 'd', roles: ['ADMIN'], expiresAt: clock.now() }, null), 'invalid', 'IDENTITY.EXPIRY_IN_PAST');
    await expectCode(create.execute('org_x', { name: 'e', roles: [] }, null), 'invalid', 'IDENTITY.ROLES_REQUIRED');
  });
});
