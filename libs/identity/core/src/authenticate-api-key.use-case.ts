import { Injectable } from '@nestjs/common';
import { Clock, DomainError, isDomainError, Principal } from '@svc/kernel';
import { parseApiKey } from './api-key-format';
import type { ApiKey } from './identity.model';
import { ApiKeyRepository, SecretHasher } from './identity.ports';
import { IdentitySettings } from './identity-settings';

const INVALID = () => DomainError.unauthenticated('AUTH.INVALID_API_KEY', 'The API key is invalid, revoked or expired.');

/**
 * Resolves a raw organisation key to its principal. Only two outcomes besides success: 401 for
 * anything wrong with the key (malformed keys never reach the database), 503 with Retry-After when
 * the key store cannot be read. Valid keys are cached for `apiKeyCacheSeconds`, which bounds how
 * long a revocation takes to apply.
 */
@Injectable()
export class AuthenticateApiKey {
  private readonly cache = new Map<string, { key: ApiKey; until: number }>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly settings: IdentitySettings,
  ) {}

  async execute(raw: string): Promise<{ principal: Principal; key: ApiKey }> {
    const parsed = parseApiKey(raw);
    if (!parsed) throw INVALID();
    const now = this.clock.now();
    const key = await this.load(parsed.lookupId, now.getTime());
    if (!key || !this.hasher.matches(raw, key.secretHash)) throw INVALID();
    if (key.revokedAt && key.revokedAt <= now) throw INVALID();
    if (key.expiresAt && key.expiresAt <= now) throw INVALID();
    void this.keys.touchLastUsed(key.id, now).catch(() => undefined);
    return {
      key,
      principal: { organizationId: key.organizationId, userId: key.userId, roles: key.roles, credential: { kind: 'org_api_key', id: key.id } },
    };
  }

  /** Forget a key at once in this process (its own revocation). */
  forget(lookupId: string): void {
    this.cache.delete(lookupId);
  }

  private async load(lookupId: string, nowMs: number): Promise<ApiKey | null> {
    const cached = this.cache.get(lookupId);
    if (cached && cached.until > nowMs) return cached.key;
    let key: ApiKey | null;
    try {
      key = await this.keys.findByLookupId(lookupId);
    } catch (error) {
      if (isDomainError(error) && error.kind !== 'unavailable') throw error;
      throw DomainError.unavailable('AUTH.KEY_STORE_UNAVAILABLE', 'Authentication is momentarily unavailable; retry shortly.', { retryAfterSeconds: 5, cause: error });
    }
    if (key && this.settings.apiKeyCacheSeconds > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(lookupId, { key, until: nowMs + this.settings.apiKeyCacheSeconds * 1000 });
    }
    return key;
  }
}
