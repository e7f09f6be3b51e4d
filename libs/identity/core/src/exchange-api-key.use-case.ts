import { Injectable } from '@nestjs/common';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { TokenService } from './identity.ports';
import { IdentitySettings } from './identity-settings';

export interface ExchangedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/** `POST /core/api-key/token`: a valid organisation key buys a 900-second token; no refresh token. */
@Injectable()
export class ExchangeApiKey {
  constructor(
    private readonly authenticate: AuthenticateApiKey,
    private readonly tokens: TokenService,
    private readonly settings: IdentitySettings,
  ) {}

  async execute(rawKey: string): Promise<ExchangedToken> {
    const { principal } = await this.authenticate.execute(rawKey);
    const signed = await this.tokens.signExchangeToken(
      { subject: principal.userId, organizationId: principal.organizationId, roles: principal.roles, credentialId: principal.credential.id },
      this.settings.exchangeTokenLifetimeSeconds,
    );
    return { access_token: signed.token, token_type: 'bearer', expires_in: signed.expiresAt - signed.issuedAt };
  }
}
