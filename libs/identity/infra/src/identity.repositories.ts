import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { ApiKeyRepository, OrganizationRepository, UserRepository, type ApiKey, type Organization, type User } from '@svc/identity-core';
import type { Page, PageRequest, Role } from '@svc/kernel';
import { ApiKeyOrmEntity, OrganizationOrmEntity, UserOrmEntity } from './identity.orm-entities';

@Injectable()
export class TypeOrmOrganizationRepository extends OrganizationRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }
  async insert(organization: Organization): Promise<void> {
    await this.uow.manager().insert(OrganizationOrmEntity, organization);
  }
  async get(id: string): Promise<Organization | null> {
    return this.uow.manager().findOneBy(OrganizationOrmEntity, { id });
  }
  async first(): Promise<Organization | null> {
    return this.uow.manager().findOne(OrganizationOrmEntity, { where: {}, order: { createdAt: 'ASC', id: 'ASC' } });
  }
  async claimInstallation(): Promise<boolean> {
    const rows: unknown[] = await this.uow.manager().query(`INSERT INTO identity.installation (id) VALUES (1) ON CONFLICT DO NOTHING RETURNING id`);
    return rows.length === 1;
  }
}

const toUser = (e: UserOrmEntity): User => ({ ...e, roles: e.roles as Role[] });

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }
  async insert(user: User): Promise<void> {
    await this.uow.manager().insert(UserOrmEntity, { ...user, roles: [...user.roles] });
  }
  async get(organizationId: string, id: string): Promise<User | null> {
    const e = await this.uow.manager().findOneBy(UserOrmEntity, { organizationId, id });
    return e ? toUser(e) : null;
  }
  async findByEmail(organizationId: string, email: string): Promise<User | null> {
    const e = await this.uow
      .manager()
      .createQueryBuilder(UserOrmEntity, 'u')
      .where('u.organization_id = :organizationId AND lower(u.email) = lower(:email)', { organizationId, email })
      .getOne();
    return e ? toUser(e) : null;
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<User>> {
    const [items, total] = await this.uow.manager().findAndCount(UserOrmEntity, {
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return { items: items.map(toUser), total, ...page };
  }
}

const toKey = (e: ApiKeyOrmEntity): ApiKey => ({ ...e, roles: e.roles as Role[] });

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  private readonly lastTouched = new Map<string, number>();

  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }
  async insert(key: ApiKey): Promise<void> {
    await this.uow.manager().insert(ApiKeyOrmEntity, { ...key, roles: [...key.roles] });
  }
  async findByLookupId(lookupId: string): Promise<ApiKey | null> {
    const e = await this.uow.manager().findOneBy(ApiKeyOrmEntity, { lookupId });
    return e ? toKey(e) : null;
  }
  async get(organizationId: string, id: string): Promise<ApiKey | null> {
    const e = await this.uow.manager().findOneBy(ApiKeyOrmEntity, { organizationId, id });
    return e ? toKey(e) : null;
  }
  async list(organizationId: string, page: PageRequest): Promise<Page<ApiKey>> {
    const [items, total] = await this.uow.manager().findAndCount(ApiKeyOrmEntity, {
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return { items: items.map(toKey), total, ...page };
  }
  async markRevoked(id: string, at: Date): Promise<void> {
    await this.uow.manager().update(ApiKeyOrmEntity, { id }, { revokedAt: at });
  }
  /** At most one write per key per minute: authentication must not turn every request into a write. */
  async touchLastUsed(id: string, at: Date): Promise<void> {
    const previous = this.lastTouched.get(id) ?? 0;
    if (at.getTime() - previous < 60_000) return;
    this.lastTouched.set(id, at.getTime());
    await this.uow.manager().update(ApiKeyOrmEntity, { id }, { lastUsedAt: at });
  }
}
