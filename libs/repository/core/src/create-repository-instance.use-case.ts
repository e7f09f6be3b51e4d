import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork } from '@svc/kernel';
import { generateInstanceKey } from './instance-key-format';
import { InstanceKeyHasher, RepositoryInstanceStore } from './repository.ports';

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
      const { apiKey, lookupId } = generateInstanceKey();
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
