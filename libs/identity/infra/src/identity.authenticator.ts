import { Injectable, Optional } from '@nestjs/common';
import { Authenticator, PresentedCredential, ResourceServerOptions, Surface } from '@svc/http';
import { AuthenticateApiKey, AuthenticateOAuthToken, ReadSession, TokenService } from '@svc/identity-core';
import { DomainError, Principal, Role } from '@svc/kernel';
import { decodeProtectedHeader } from 'jose';
import { ACCESS_TOKEN_TYPE, EXCHANGE_TOKEN_TYPE } from './jose-token.service';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const INVALID = () => DomainError.unauthenticated('AUTH.INVALID_TOKEN', 'The access token is invalid or expired.');

/**
 * Every credential of the REST and MCP surfaces except the instance API's: a raw organisation key
 * (resource APIs only), a key-exchange token, an OAuth access token (only on the resource it was
 * issued for), or the browser session cookie. Each kind is accepted only where SECURITY.md says;
 * anything else is a 401.
 */
@Injectable()
export class IdentityAuthenticator extends Authenticator {
  constructor(
    private readonly apiKeys: AuthenticateApiKey,
    private readonly tokens: TokenService,
    private readonly oauthTokens: AuthenticateOAuthToken,
    private readonly sessions: ReadSession,
    @Optional() private readonly resourceServer?: ResourceServerOptions,
  ) {
    super();
  }

  async authenticate(credential: PresentedCredential, surface: Surface): Promise<Principal> {
    if (credential.cookie !== undefined) {
      if (!JWT_SHAPE.test(credential.cookie)) throw DomainError.unauthenticated('AUTH.INVALID_SESSION', 'The session cookie is invalid.');
      return (await this.sessions.execute(credential.cookie)).principal;
    }
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
    let typ: string | undefined;
    try {
      typ = decodeProtectedHeader(bearer).typ;
    } catch {
      throw INVALID();
    }
    if (typ === ACCESS_TOKEN_TYPE) {
      if (surface === 'platform' || !this.resourceServer) {
        throw DomainError.unauthenticated('AUTH.WRONG_TOKEN_KIND', 'OAuth access tokens are accepted by the audit and retrieval APIs only.');
      }
      const principal = await this.oauthTokens.execute(bearer, this.resourceServer.audiences);
      return { organizationId: principal.organizationId, userId: principal.userId, roles: principal.roles, credential: principal.credential, scopes: principal.scopes };
    }
    if (typ !== EXCHANGE_TOKEN_TYPE) throw INVALID();
    const claims = await this.tokens.verifyExchangeToken(bearer);
    return {
      organizationId: claims.organizationId,
      userId: claims.subject,
      roles: claims.roles as Role[],
      credential: { kind: 'key_exchange_token', id: claims.credentialId },
    };
  }
}
