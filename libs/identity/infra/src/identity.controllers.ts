import { Body, Controller, Get, Header, Req } from '@nestjs/common';
import { API_KEY_VIEW, CREATED_API_KEY, EXCHANGED_TOKEN, OK, USER_VIEW, pageOf } from '@svc/contracts';
import { clientIpKey, CurrentPrincipal, DeclareOperation, enforceRateLimits, Public, RateLimiter, RawResponse } from '@svc/http';
import { CreateApiKey, CreateMember, ExchangeApiKey, ListApiKeys, ListMembers, parseApiKey, RevokeApiKey, SetMemberPassword, TokenService } from '@svc/identity-core';
import type { Request } from 'express';
import { pageRequest, Principal } from '@svc/kernel';
import { CreateApiKeyRequest, CreateMemberInput, ExchangeApiKeyInput, ListInput, RevokeApiKeyInput, SetMemberPasswordInput } from './identity.dto';

/** Rate limit of the key exchange: per key id, and ten times that per IP. */
export class KeyExchangeLimit {
  constructor(readonly perMinute: number) {}
}

/** Public endpoints of the signing service: key exchange and the JWKS. */
@Controller()
export class TokenController {
  constructor(
    private readonly exchange: ExchangeApiKey,
    private readonly tokens: TokenService,
    private readonly limiter: RateLimiter,
    private readonly limit: KeyExchangeLimit,
  ) {}

  @Public()
  @DeclareOperation({
    name: 'platform_api_key_token', output: EXCHANGED_TOKEN,
    path: '/core/api-key/token',
    description: 'Exchange an organisation API key for a 900-second access token (no refresh token).',
    input: ExchangeApiKeyInput,
    permission: 'read',
    mcp: false,
    surface: 'platform',
    public: true,
  })
  @Header('Cache-Control', 'no-store')
  async token(@Body() body: ExchangeApiKeyInput, @Req() req: Request) {
    await enforceRateLimits(this.limiter, [
      { bucket: 'key-exchange.ip', key: clientIpKey(req), rule: { limit: this.limit.perMinute * 10, windowSeconds: 60 } },
      { bucket: 'key-exchange.key', key: parseApiKey(body.api_key)?.lookupId, rule: { limit: this.limit.perMinute, windowSeconds: 60 } },
    ]);
    return this.exchange.execute(body.api_key);
  }

  @Public()
  @RawResponse()
  @Get('.well-known/jwks.json')
  jwks() {
    return this.tokens.jwks();
  }
}

const admin = { permission: 'organization', mcp: false, surface: 'platform' } as const;

/** Organisation administration: members and API keys (ADMIN only, exchanged token required). */
@Controller()
export class OrganizationAdminController {
  constructor(
    private readonly listMembers: ListMembers,
    private readonly createMember: CreateMember,
    private readonly listKeys: ListApiKeys,
    private readonly createKey: CreateApiKey,
    private readonly revokeKey: RevokeApiKey,
    private readonly setPassword: SetMemberPassword,
  ) {}

  @DeclareOperation({ ...admin, name: 'platform_members_list', output: pageOf(USER_VIEW), path: '/core/organization/members/list', description: 'List the members (people and service accounts) of your organisation.', input: ListInput })
  members(@Body() body: ListInput, @CurrentPrincipal() principal: Principal) {
    return this.listMembers.execute(principal, pageRequest(body.offset, body.limit));
  }

  @DeclareOperation({ ...admin, name: 'platform_members_create', output: USER_VIEW, path: '/core/organization/members/create', description: 'Add a person to your organisation with organisation roles.', input: CreateMemberInput })
  async addMember(@Body() body: CreateMemberInput, @CurrentPrincipal() principal: Principal) {
    const { password, ...member } = body;
    const created = await this.createMember.execute(principal.organizationId, member, principal);
    if (password !== undefined && password !== null) await this.setPassword.execute(principal, principal.organizationId, created.id, password);
    return created;
  }

  @DeclareOperation({ ...admin, name: 'platform_members_set_password', output: OK, path: '/core/organization/members/set-password', description: 'Set the login-page password of a person of your organisation (at least 12 characters).', input: SetMemberPasswordInput })
  async setMemberPassword(@Body() body: SetMemberPasswordInput, @CurrentPrincipal() principal: Principal) {
    await this.setPassword.execute(principal, principal.organizationId, body.user_id, body.password);
    return true;
  }

  @DeclareOperation({ ...admin, name: 'platform_api_keys_list', output: pageOf(API_KEY_VIEW), path: '/core/organization/api-keys/list', description: 'List organisation API keys (never their secrets).', input: ListInput })
  keys(@Body() body: ListInput, @CurrentPrincipal() principal: Principal) {
    return this.listKeys.execute(principal, pageRequest(body.offset, body.limit));
  }

  @DeclareOperation({ ...admin, name: 'platform_api_keys_create', output: CREATED_API_KEY, path: '/core/organization/api-keys/create', description: 'Create an organisation API key; the raw key is in the response once and never again.', input: CreateApiKeyRequest })
  createApiKey(@Body() body: CreateApiKeyRequest, @CurrentPrincipal() principal: Principal) {
    return this.createKey.execute(principal.organizationId, { name: body.name, roles: body.roles, expiresAt: body.expires_at ? new Date(body.expires_at) : null, userId: body.user_id }, principal);
  }

  @DeclareOperation({ ...admin, name: 'platform_api_keys_revoke', output: OK, path: '/core/organization/api-keys/revoke', description: 'Revoke an organisation API key; it stops authenticating within the documented cache delay.', input: RevokeApiKeyInput })
  revoke(@Body() body: RevokeApiKeyInput, @CurrentPrincipal() principal: Principal) {
    return this.revokeKey.execute(principal, body.key_id);
  }
}
