import { DynamicModule, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, deriveKey, SecretBox } from '@svc/config';
import { TypeOrmUnitOfWork } from '@svc/database';
import { Authenticator, MemoryRateLimiter, RateLimiter, RedisRateLimiter, ResourceServerOptions } from '@svc/http';
import {
  ApiKeyRepository,
  AuthenticateApiKey,
  AuthenticateOAuthClient,
  AuthenticateOAuthToken,
  AuthorizeOAuthClient,
  AuthSettings,
  BootstrapInstallation,
  CreateApiKey,
  CreateMember,
  DecideOAuthConsent,
  ExchangeApiKey,
  GetMember,
  IdentitySettings,
  IssueOAuthTokens,
  ListApiKeys,
  ListMembers,
  LoginAccountRepository,
  LoginWithPassword,
  Logout,
  ManageOAuthConsents,
  OAuthStore,
  OrganizationRepository,
  PasswordHasher,
  ReadSession,
  RefreshSession,
  RegisterOAuthClient,
  RevokeApiKey,
  RevokeOAuthToken,
  SecretHasher,
  SessionRepository,
  SessionTokens,
  SetMemberPassword,
  TokenService,
  UnknownLoginFailures,
  UserRepository,
} from '@svc/identity-core';
import { Clock } from '@svc/kernel';
import { Redis } from 'ioredis';
import { HmacSecretHasher } from './hmac-secret-hasher';
import { IdentityAuthenticator } from './identity.authenticator';
import { KeyExchangeLimit, OrganizationAdminController, TokenController } from './identity.controllers';
import { TypeOrmApiKeyRepository, TypeOrmOrganizationRepository, TypeOrmUserRepository } from './identity.repositories';
import { SqlLoginAccountRepository, SqlOAuthStore, SqlSessionRepository } from './interactive-auth.repositories';
import { JoseTokenService } from './jose-token.service';
import { ScryptPasswordHasher } from './scrypt-password-hasher';
import { AuthWebController, AuthWebSettings, ConsentsController } from './web/auth-web.controllers';
import { CsrfTokens, SessionCookies, SignedPayloads } from './web/browser-security';
import { IdentityOAuthProvider, OAuthIssuer, OAuthServerMount } from './web/oauth-server';
import { RateLimitedUnknownLoginFailures } from './web/rate-limited-unknown-login-failures';

const USE_CASES = [
  AuthenticateApiKey,
  BootstrapInstallation,
  CreateApiKey,
  CreateMember,
  ExchangeApiKey,
  GetMember,
  ListApiKeys,
  ListMembers,
  RevokeApiKey,
  SessionTokens,
  ReadSession,
  RefreshSession,
  Logout,
  SetMemberPassword,
  RegisterOAuthClient,
  AuthenticateOAuthClient,
  AuthorizeOAuthClient,
  DecideOAuthConsent,
  IssueOAuthTokens,
  RevokeOAuthToken,
  AuthenticateOAuthToken,
  ManageOAuthConsents,
];

/** Closes the Redis connection of the rate limiter with the app. */
class RateLimiterRedis implements OnApplicationShutdown {
  constructor(readonly client: Redis | null) {}
  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => undefined);
  }
}

function authSettings(c: AppConfig): AuthSettings {
  const resources = (['audit', 'retrieval'] as const).flatMap((api) => ResourceServerOptions.forApi(api, c).audiences.map((url) => ({ url, api })));
  return new AuthSettings(Math.round(c.SESSION_MAX_HOURS * 3600), c.OAUTH_ACCESS_TOKEN_SECONDS, c.OAUTH_REFRESH_TOKEN_DAYS * 86400, c.LOGIN_MAX_FAILURES, resources);
}

/**
 * The identity context wired to PostgreSQL and the signing keys. Every app imports it for
 * authentication; `platform-auth` also serves its controllers, the login and consent pages and the
 * OAuth 2.1 authorization server (`withControllers`).
 */
@Module({})
export class IdentityModule {
  static forRoot(options: { withControllers: boolean }): DynamicModule {
    const web = options.withControllers
      ? [
          { provide: RateLimiterRedis, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new RateLimiterRedis(c.REDIS_URL ? new Redis(c.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }).on('error', () => undefined) : null) },
          {
            provide: RateLimiter,
            inject: [RateLimiterRedis, APP_CONFIG],
            // One count per deployment when Redis is configured; per process otherwise (the embedded mode is one process).
            useFactory: (redis: RateLimiterRedis, c: AppConfig) => (redis.client ? new RedisRateLimiter(redis.client, { prefix: `${c.JOBS_QUEUE_PREFIX}:rate-limit`, logger: new Logger('RateLimiter') }) : new MemoryRateLimiter()),
          },
          { provide: KeyExchangeLimit, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new KeyExchangeLimit(c.RATE_LIMIT_KEY_EXCHANGE_PER_MINUTE) },
          {
            provide: AuthWebSettings,
            inject: [APP_CONFIG],
            useFactory: (c: AppConfig) => new AuthWebSettings(c.allowedOrigins, c.RATE_LIMIT_LOGIN_PER_MINUTE, c.RATE_LIMIT_TOKEN_PER_MINUTE, c.RATE_LIMIT_REGISTRATION_PER_HOUR),
          },
          { provide: CsrfTokens, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new CsrfTokens(deriveKey(c.authSecret, 'csrf'), new URL(c.PUBLIC_AUTH_URL).protocol === 'https:') },
          { provide: SignedPayloads, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SignedPayloads(deriveKey(c.authSecret, 'oauth-pending-authorization')) },
          { provide: OAuthIssuer, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new OAuthIssuer(new URL(c.PUBLIC_AUTH_URL).origin) },
          IdentityOAuthProvider,
          OAuthServerMount,
          // The login page's use case, with its count of unknown e-mails on the rate limiter above.
          { provide: UnknownLoginFailures, useClass: RateLimitedUnknownLoginFailures },
          LoginWithPassword,
        ]
      : [];
    return {
      module: IdentityModule,
      controllers: options.withControllers ? [TokenController, OrganizationAdminController, AuthWebController, ConsentsController] : [],
      providers: [
        { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
        { provide: UserRepository, useClass: TypeOrmUserRepository },
        { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
        { provide: LoginAccountRepository, useClass: SqlLoginAccountRepository },
        { provide: SessionRepository, useClass: SqlSessionRepository },
        { provide: OAuthStore, useClass: SqlOAuthStore },
        { provide: PasswordHasher, useClass: ScryptPasswordHasher },
        { provide: SecretHasher, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new HmacSecretHasher(deriveKey(c.authSecret, 'api-key-pepper')) },
        { provide: SecretBox, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SecretBox(deriveKey(c.authSecret, 'signing-keys')) },
        { provide: IdentitySettings, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new IdentitySettings(c.API_KEY_CACHE_SECONDS) },
        { provide: AuthSettings, inject: [APP_CONFIG], useFactory: authSettings },
        { provide: SessionCookies, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SessionCookies(c.COOKIE_DOMAIN) },
        {
          provide: TokenService,
          inject: [TypeOrmUnitOfWork, SecretBox, Clock, APP_CONFIG],
          useFactory: (uow: TypeOrmUnitOfWork, box: SecretBox, clock: Clock, c: AppConfig) => new JoseTokenService(uow, box, clock, new URL(c.PUBLIC_AUTH_URL).origin),
        },
        { provide: Authenticator, useClass: IdentityAuthenticator },
        ...USE_CASES,
        ...web,
      ],
      exports: [Authenticator, TokenService, SecretHasher, ...USE_CASES],
    };
  }
}
