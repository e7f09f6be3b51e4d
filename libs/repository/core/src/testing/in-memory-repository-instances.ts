import { Page, PageRequest } from '@svc/kernel';
export { FixedClock, ImmediateUnitOfWork, RecordingActivityLog, TestIds } from '@svc/kernel/testing';
import type { InstanceApiKey, RepositoryInstance } from '../repository-instance';
import { InstanceKeyHasher, RepositoryInstanceStore } from '../repository.ports';

/** In-memory RepositoryInstanceStore for use-case unit tests; held to the same contract as the TypeORM store. */
export class InMemoryRepositoryInstanceStore extends RepositoryInstanceStore {
  readonly instances = new Map<string, RepositoryInstance>();
  readonly keys = new Map<string, InstanceApiKey>();
  /** Reads by lookup id, to prove malformed keys never reach the store. */
  lookups = 0;
  /** Set to make key lookups fail like an unreachable database. */
  failWith?: Error;

  async insert(instance: RepositoryInstance) {
    this.instances.set(instance.id, { ...instance });
  }
  async get(id: string) {
    const instance = this.instances.get(id);
    return instance ? { ...instance } : null;
  }
  async insertApiKey(key: InstanceApiKey) {
    if ([...this.keys.values()].some((k) => k.lookupId === key.lookupId)) throw new Error('duplicate lookup_id');
    this.keys.set(key.id, { ...key });
  }
  async findApiKey(lookupId: string) {
    this.lookups += 1;
    if (this.failWith) throw this.failWith;
    const key = [...this.keys.values()].find((k) => k.lookupId === lookupId && k.revokedAt === null);
    const instance = key && this.instances.get(key.instanceId);
    return key && instance ? { ...key, organizationId: instance.organizationId } : null;
  }
  async getApiKey(instanceId: string, id: string) {
    const key = this.keys.get(id);
    return key && key.instanceId === instanceId ? { ...key } : null;
  }
  async listApiKeys(instanceId: string, page: PageRequest): Promise<Page<InstanceApiKey>> {
    const all = [...this.keys.values()]
      .filter((k) => k.instanceId === instanceId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { items: all.slice(page.offset, page.offset + page.limit).map((k) => ({ ...k })), total: all.length, ...page };
  }
  async revokeApiKey(id: string, at: Date) {
    const key = this.keys.get(id);
    if (!key || key.revokedAt) return false;
    key.revokedAt = at;
    return true;
  }
  async countPendingDocuments() {
    return 0;
  }
}

/** Not a hash: enough to tell secrets apart in unit tests. */
export class PlainInstanceKeyHasher extends InstanceKeyHasher {
  hash(secret: string) {
    return `h:${secret}`;
  }
  matches(secret: string, hash: string) {
    return hash === `h:${secret}`;
  }
}
