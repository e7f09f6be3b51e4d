import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork } from '@svc/kernel';
import { InstanceKeyHasher, RepositoryInstanceStore } from './repository.ports';

export const INSTANCE_KEY_PREFIX = 'svc_ins_';

/**
 * Creates a repository instance and its first instance API key. Returns the raw key once: the
 * audit side keeps it (sealed) to reach the instance API, as `get-svc-instances` shows.
 */
@Injectable()
export class CreateRepositoryInstance {
  constructor(
    private readonly store: RepositoryInstanceStore,
    private readonly hasher: InstanceKeyHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(input: { organizationId: string; name: string; id?: string }): Promise<{ instanceId: string; apiKey: string }> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      const instanceId = input.id ?? this.ids.next('ki_');
      await this.store.insert({ id: instanceId, organizationId: input.organizationId, name: input.name, createdAt: now });
      const lookupId = randomBytes(12).toString('base64url');
      const apiKey = `${INSTANCE_KEY_PREFIX}${lookupId}${randomBytes(32).toString('base64url')}`;
      await this.store.insertApiKey({ id: this.ids.next('key_'), instanceId, name: 'audit link', lookupId, secretHash: this.hasher.hash(apiKey), createdAt: now, revokedAt: null });
      return { instanceId, apiKey };
    });
  }
}

@Injectable()
export class CountPendingDocuments {
  constructor(private readonly store: RepositoryInstanceStore) {}
  execute(instanceId: string): Promise<number> {
    return this.store.countPendingDocuments(instanceId);
  }
}
