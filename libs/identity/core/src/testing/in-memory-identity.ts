import { Page, PageRequest } from '@svc/kernel';
export { FixedClock, ImmediateUnitOfWork, RecordingActivityLog, TestIds } from '@svc/kernel/testing';
import type { ApiKey, Organization, User } from '../identity.model';
import { ApiKeyRepository, OrganizationRepository, SecretHasher, UserRepository } from '../identity.ports';

/** In-memory fakes of the identity ports, for use-case unit tests. */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly keys = new Map<string, ApiKey>();
  lookups = 0;
  /** Set to make every read fail like an unreachable database. */
  failWith?: Error;

  async insert(key: ApiKey) {
    this.keys.set(key.id, { ...key });
  }
  async findByLookupId(lookupId: string) {
    this.lookups += 1;
    if (this.failWith) throw this.failWith;
    const key = [...this.keys.values()].find((k) => k.lookupId === lookupId);
    return key ? { ...key } : null;
  }
  async get(organizationId: string, id: string) {
    const key = this.keys.get(id);
    return key && key.organizationId === organizationId ? { ...key } : null;
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<ApiKey>> {
    const all = [...this.keys.values()].filter((k) => k.organizationId === organizationId);
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length, ...page };
  }
  async markRevoked(id: string, at: Date) {
    const key = this.keys.get(id);
    if (key) key.revokedAt = at;
  }
  async touchLastUsed(id: string, at: Date) {
    const key = this.keys.get(id);
    if (key) key.lastUsedAt = at;
  }
}

export class InMemoryUserRepository extends UserRepository {
  readonly users = new Map<string, User>();
  async insert(user: User) {
    this.users.set(user.id, { ...user });
  }
  async get(organizationId: string, id: string) {
    const user = this.users.get(id);
    return user && user.organizationId === organizationId ? user : null;
  }
  async findByEmail(organizationId: string, email: string) {
    return [...this.users.values()].find((u) => u.organizationId === organizationId && u.email?.toLowerCase() === email.toLowerCase()) ?? null;
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<User>> {
    const all = [...this.users.values()].filter((u) => u.organizationId === organizationId);
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length, ...page };
  }
}

export class InMemoryOrganizationRepository extends OrganizationRepository {
  readonly organizations: Organization[] = [];
  private installed = false;
  async insert(o: Organization) {
    this.organizations.push(o);
  }
  async get(id: string) {
    return this.organizations.find((o) => o.id === id) ?? null;
  }
  async first() {
    return this.organizations[0] ?? null;
  }
  async claimInstallation() {
    if (this.installed) return false;
    this.installed = true;
    return true;
  }
}

/** Not a hash: enough to tell secrets apart in unit tests. */
export class PlainSecretHasher extends SecretHasher {
  hash(secret: string) {
    return `h:${secret}`;
  }
  matches(secret: string, hash: string) {
    return hash === `h:${secret}`;
  }
}
