import { Injectable } from '@nestjs/common';
import { DomainError, isDomainError, isId, Principal } from '@svc/kernel';
import { instanceKeyLookupId } from './instance-key-format';
import { InstanceKeyHasher, RepositoryInstanceStore } from './repository.ports';

const INVALID = () => DomainError.unauthenticated('AUTH.INVALID_INSTANCE_KEY', 'The instance-id and api-key headers do not match a valid instance API key.');

/**
 * The instance API's credential: `instance-id` + `api-key` headers, valid for that one instance only.
 * Like organisation keys: 401 for anything wrong (malformed keys never reach the store), 503 with
 * Retry-After when the store cannot be read.
 */
@Injectable()
export class AuthenticateInstanceKey {
  constructor(
    private readonly store: RepositoryInstanceStore,
    private readonly hasher: InstanceKeyHasher,
  ) {}

  async execute(instanceId: string | undefined, apiKey: string | undefined): Promise<Principal> {
    const lookupId = typeof apiKey === 'string' ? instanceKeyLookupId(apiKey) : null;
    if (!isId('ki_', instanceId) || !apiKey || lookupId === null) throw INVALID();
    let key;
    try {
      // Read on every request (no cache): a revocation applies at once, in every process.
      key = await this.store.findApiKey(lookupId);
    } catch (error) {
      if (isDomainError(error)) throw error;
      throw DomainError.unavailable('AUTH.KEY_STORE_UNAVAILABLE', 'Authentication is momentarily unavailable; retry shortly.', { cause: error });
    }
    if (!key || key.instanceId !== instanceId || !this.hasher.matches(apiKey, key.secretHash)) throw INVALID();
    return { organizationId: key.organizationId, userId: `instance:${instanceId}`, roles: [], credential: { kind: 'instance_api_key', id: key.id }, instanceId };
  }
}
