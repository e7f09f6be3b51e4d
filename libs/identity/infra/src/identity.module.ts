import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, deriveKey, SecretBox } from '@svc/config';
import { TypeOrmUnitOfWork } from '@svc/database';
import { Authenticator } from '@svc/http';
import {
  ApiKeyRepository,
  AuthenticateApiKey,
  BootstrapInstallation,
  CreateApiKey,
  CreateMember,
  ExchangeApiKey,
  GetMember,
  IdentitySettings,
  ListApiKeys,
  ListMembers,
  OrganizationRepository,
  RevokeApiKey,
  SecretHasher,
  TokenService,
  UserRepository,
} from '@svc/identity-core';
import { Clock } from '@svc/kernel';
import { HmacSecretHasher } from './hmac-secret-hasher';
import { IdentityAuthenticator } from './identity.authenticator';
import { OrganizationAdminController, TokenController } from './identity.controllers';
import { TypeOrmApiKeyRepository, TypeOrmOrganizationRepository, TypeOrmUserRepository } from './identity.repositories';
import { JoseTokenService } from './jose-token.service';


const USE_CASES = [AuthenticateApiKey, BootstrapInstallation, CreateApiKey, CreateMember, ExchangeApiKey, GetMember, ListApiKeys, ListMembers, RevokeApiKey];

/**
 * The identity context wired to PostgreSQL and the signing keys. Every app imports it for
 * authentication; `platform-auth` also serves its controllers (`withControllers`).
 */
@Global()
@Module({})
export class IdentityModule {
  static forRoot(options: { withControllers: boolean }): DynamicModule {
    return {
      module: IdentityModule,
      controllers: options.withControllers ? [TokenController, OrganizationAdminController] : [],
      providers: [
        { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
        { provide: UserRepository, useClass: TypeOrmUserRepository },
        { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
        { provide: SecretHasher, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new HmacSecretHasher(deriveKey(c.authSecret, 'api-key-pepper')) },
        { provide: SecretBox, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SecretBox(deriveKey(c.authSecret, 'signing-keys')) },
        { provide: IdentitySettings, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new IdentitySettings(c.API_KEY_CACHE_SECONDS) },
        {
          provide: TokenService,
          inject: [TypeOrmUnitOfWork, SecretBox, Clock, APP_CONFIG],
          useFactory: (uow: TypeOrmUnitOfWork, box: SecretBox, clock: Clock, c: AppConfig) => new JoseTokenService(uow, box, clock, new URL(c.PUBLIC_AUTH_URL).origin),
        },
        { provide: Authenticator, useClass: IdentityAuthenticator },
        ...USE_CASES,
      ],
      exports: [Authenticator, TokenService, SecretHasher, ...USE_CASES],
    };
  }
}
