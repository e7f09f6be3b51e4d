import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, IdGenerator, mapPage, Page, PageRequest, Principal, rolesAllow, UnitOfWork } from '@svc/kernel';
import { generateInstanceKey } from './instance-key-format';
import { InstanceApiKey, instanceApiKeyView, InstanceApiKeyView, RepositoryInstance } from './repository-instance';
import { InstanceKeyHasher, RepositoryInstanceStore } from './repository.ports';

export const INSTANCE_KEY_NAME_MAX_LENGTH = 100;

/**
 * The instance a caller may manage the keys of: ADMIN or ACTIVATION_MANAGER (403 otherwise), and an
 * instance of the caller's organisation (another organisation's is 404, like a missing one). The
 * HTTP guard checks the same, plus instance membership; this keeps other callers to the rule.
 */
async function managedInstance(store: RepositoryInstanceStore, principal: Principal, instanceId: string): Promise<RepositoryInstance> {
  if (!rolesAllow(principal.roles, 'exposure')) {
    throw DomainError.forbidden('AUTH.ROLE_NOT_ALLOWED', 'Only ADMIN and ACTIVATION_MANAGER may manage instance API keys.');
  }
  const instance = await store.get(instanceId);
  if (!instance || instance.organizationId !== principal.organizationId) {
    throw DomainError.notFound('REPOSITORY.INSTANCE_NOT_FOUND', `Instance ${instanceId} does not exist.`);
  }
  return instance;
}

/** Creates an instance API key and returns the raw key, the only time it is ever visible. */
@Injectable()
export class CreateInstanceApiKey {
  constructor(
    private readonly store: RepositoryInstanceStore,
    private readonly hasher: InstanceKeyHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(principal: Principal, input: { instanceId: string; name: string }): Promise<InstanceApiKeyView & { api_key: string }> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > INSTANCE_KEY_NAME_MAX_LENGTH) {
      const message = `name must be 1 to ${INSTANCE_KEY_NAME_MAX_LENGTH} characters, not only spaces`;
      throw DomainError.invalid('REPOSITORY.INVALID_KEY_NAME', `The key ${message}.`, { errors: [{ field: 'name', message }] });
    }
    return this.uow.run(async () => {
      const instance = await managedInstance(this.store, principal, input.instanceId);
      const { apiKey, lookupId } = generateInstanceKey();
      const key: InstanceApiKey = { id: this.ids.next('key_'), instanceId: instance.id, name, lookupId, secretHash: this.hasher.hash(apiKey), createdAt: this.clock.now(), revokedAt: null };
      await this.store.insertApiKey(key);
      const view = instanceApiKeyView(key);
      await this.activity.record({ organizationId: instance.organizationId, instanceId: instance.id, action: 'repository.instance_api_key.create', subjectId: key.id, actor: principal, before: null, after: view });
      return { ...view, api_key: apiKey };
    });
  }
}

/** The instance's keys, revoked ones included, newest first; never a secret. */
@Injectable()
export class ListInstanceApiKeys {
  constructor(private readonly store: RepositoryInstanceStore) {}

  async execute(principal: Principal, instanceId: string, page: PageRequest): Promise<Page<InstanceApiKeyView>> {
    await managedInstance(this.store, principal, instanceId);
    return mapPage(await this.store.listApiKeys(instanceId, page), instanceApiKeyView);
  }
}

/**
 * Revokes a key of the instance; the instance API refuses it from the next request on (keys are
 * not cached). Idempotent: revoking a revoked key answers true and changes nothing.
 */
@Injectable()
export class RevokeInstanceApiKey {
  constructor(
    private readonly store: RepositoryInstanceStore,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(principal: Principal, instanceId: string, keyId: string): Promise<true> {
    return this.uow.run(async (): Promise<true> => {
      const instance = await managedInstance(this.store, principal, instanceId);
      const key = await this.store.getApiKey(instance.id, keyId);
      if (!key) throw DomainError.notFound('REPOSITORY.INSTANCE_API_KEY_NOT_FOUND', `Instance API key ${keyId} does not exist.`);
      const now = this.clock.now();
      if (key.revokedAt || !(await this.store.revokeApiKey(key.id, now))) return true;
      await this.activity.record({
        organizationId: instance.organizationId,
        instanceId: instance.id,
        action: 'repository.instance_api_key.revoke',
        subjectId: key.id,
        actor: principal,
        before: instanceApiKeyView(key),
        after: instanceApiKeyView({ ...key, revokedAt: now }),
      });
      return true;
    });
  }
}
