import { Injectable } from '@nestjs/common';
import { Authenticator, PresentedCredential, Surface } from '@svc/http';
import { AuthenticateApiKey, TokenService } from '@svc/identity-core';
import { DomainError, Principal, Role } from '@svc/kernel';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Bearer credentials of the REST and MCP surfaces: a raw organisation key (resource APIs only) or
 * a key-exchange token. Anything else is a 401 that says which kind was expected.
 */
@Injectable()
export class IdentityAuthenticator extends Authenticator {
  constructor(
    private readonly apiKeys: AuthenticateApiKey,
    private readonly tokens: TokenService,
  ) {
    super();
  }

  async authenticate(credential: PresentedCredential, surface: Surface): Promise<Principal> {
    const bearer = credential.bearer ?? '';
    if (bearer.startsWith('svc_')) {
      if (surface === 'platform') {
        throw DomainError.unauthenticated('AUTH.EXCHANGE_REQUIRED', 'The platform API does not accept raw API keys.', {
          hint: 'Exchange the key at POST /core/api-key/token and send the access token instead.',
        });
      }
      return (await this.apiKeys.execute(bearer)).principal;
    }
    if (!JWT_SHAPE.test(bearer)) {
      throw DomainError.unauthenticated('AUTH.INVALID_CREDENTIAL', 'The bearer credential is neither an API key nor an access token.');
    }
    const claims = await this.tokens.verifyExchangeToken(bearer);
    return {
      organizationId: claims.organizationId,
      userId: claims.subject,
      roles: claims.roles as Role[],
      credential: { kind: 'key_exchange_token', id: claims.credentialId },
    };
  }
}
