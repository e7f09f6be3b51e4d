import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, DomainError, IdGenerator, Page, PageRequest, Principal, Role, UnitOfWork } from '@svc/kernel';
import { generateApiKey, parseApiKey } from './api-key-format';
import { ApiKey, apiKeyView, User } from './identity.model';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { ApiKeyRepository, SecretHasher, UserRepository } from './identity.ports';

export interface CreateApiKeyInput {
  name: string;
  roles: Role[];
  expiresAt?: Date | null;
  /** The user the key acts as; by default a new service account named after the key. */
  userId?: string;
  /** Use this raw key instead of generating one (bootstrap from configuration). */
  rawKey?: string;
}

/** Creates an organisation key and returns the raw key, the only time it is ever visible. */
@Injectable()
export class CreateApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(organizationId: string, input: CreateApiKeyInput, actor: Principal | null) {
    if (input.roles.length === 0) throw DomainError.invalid('IDENTITY.ROLES_REQUIRED', 'A key needs at least one role.', { errors: [{ field: 'roles', message: 'roles must not be empty' }] });
    const now = this.clock.now();
    if (input.expiresAt && input.expiresAt <= now) {
      throw DomainError.invalid('IDENTITY.EXPIRY_IN_PAST', 'expires_at must be in the future.', { errors: [{ field: 'expires_at', message: 'expires_at must be in the future' }] });
    }
    const raw = input.rawKey ?? generateApiKey();
    const parsed = parseApiKey(raw);
    if (!parsed) throw DomainError.invalid('IDENTITY.MALFORMED_KEY', 'The provided key is not a well-formed organisation key.');
    return this.uow.run(async () => {
      let userId = input.userId;
      if (userId) {
        if (!(await this.users.get(organizationId, userId))) throw DomainError.notFound('IDENTITY.USER_NOT_FOUND', `User ${userId} does not exist.`);
      } else {
        const serviceUser: User = { id: this.ids.next('usr_'), organizationId, email: null, name: `API key: ${input.name}`, roles: input.roles, kind: 'service', createdAt: now };
        await this.users.insert(serviceUser);
        userId = serviceUser.id;
      }
      const key: ApiKey = {
        id: this.ids.next('key_'),
        organizationId,
        userId,
        name: input.name,
        roles: input.roles,
        lookupId: parsed.lookupId,
        secretHash: this.hasher.hash(raw),
        expiresAt: input.expiresAt ?? null,
        revokedAt: null,
        lastUsedAt: null,
        createdAt: now,
      };
      await this.keys.insert(key);
      await this.activity.record({ organizationId, instanceId: null, action: 'identity.api_key.create', subjectId: key.id, actor, before: null, after: apiKeyView(key) });
      return { ...apiKeyView(key), api_key: raw };
    });
  }
}

@Injectable()
export class RevokeApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly authenticate: AuthenticateApiKey,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  /** Idempotent: revoking a revoked key changes nothing. */
  async execute(actor: Principal, keyId: string): Promise<true> {
    return this.uow.run(async (): Promise<true> => {
      const key = await this.keys.get(actor.organizationId, keyId);
      if (!key) throw DomainError.notFound('IDENTITY.API_KEY_NOT_FOUND', `API key ${keyId} does not exist.`);
      if (key.revokedAt) return true;
      const now = this.clock.now();
      await this.keys.markRevoked(key.id, now);
      // This process stops trusting it at once; other processes within their cache delay.
      this.authenticate.forget(key.lookupId);
      await this.activity.record({ organizationId: actor.organizationId, instanceId: null, action: 'identity.api_key.revoke', subjectId: key.id, actor, before: apiKeyView(key), after: apiKeyView({ ...key, revokedAt: now }) });
      return true;
    });
  }
}

@Injectable()
export class ListApiKeys {
  constructor(private readonly keys: ApiKeyRepository) {}
  async execute(actor: Principal, page: PageRequest): Promise<Page<ReturnType<typeof apiKeyView>>> {
    const result = await this.keys.list(actor.organizationId, page);
    return { ...result, items: result.items.map(apiKeyView) };
  }
}
