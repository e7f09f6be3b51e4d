import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { PlatformAuthGuard } from './auth.guard';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { PlatformExceptionFilter } from './exception.filter';
import { HealthController, READINESS_CHECKS, ReadinessCheck, ReadinessChecks } from './health.controller';
import { APP_TITLE, OpenApiController } from './openapi.controller';
import { OperationAuthorizer } from './operation-authorizer';
import { OperationRegistry } from './operation-registry';
import { OriginPolicy, ProtectedResourceMetadataController, ResourceServerOptions } from './resource-server';
import { StrictBodyPipe } from './validation';

export interface HttpPlatformOptions {
  title: string;
  /** Browser origins allowed to call this app; any other `Origin` header gets 403. */
  allowedOrigins: readonly string[];
  /** Set when the app is an OAuth protected resource: RFC 9728 metadata, challenges, token audiences. */
  resourceServer?: ResourceServerOptions;
  /**
   * The app's context modules that provide what the guard needs: `Authenticator` (identity),
   * `InstanceAuthenticator` (repository), `InstanceAccessReader` (workspace). Context modules are not
   * global; the composition hands them over.
   */
  access?: DynamicModule[];
}

/**
 * The HTTP conventions every app shares: authentication guard, envelope, error filter, strict
 * validation, health and OpenAPI. The app provides `Authenticator`, `InstanceAccessReader` and
 * `READINESS_CHECKS` (an array of ReadinessCheck).
 */
@Module({})
export class HttpPlatformModule {
  static forRoot(options: HttpPlatformOptions): DynamicModule {
    return {
      module: HttpPlatformModule,
      global: true,
      imports: [DiscoveryModule, ...(options.access ?? [])],
      controllers: [HealthController, OpenApiController, ...(options.resourceServer ? [ProtectedResourceMetadataController] : [])],
      providers: [
        { provide: APP_TITLE, useValue: options.title },
        { provide: OriginPolicy, useValue: new OriginPolicy(options.allowedOrigins) },
        ...(options.resourceServer ? [{ provide: ResourceServerOptions, useValue: options.resourceServer }] : []),
        { provide: ReadinessChecks, inject: [READINESS_CHECKS], useFactory: (checks: ReadinessCheck[]) => new ReadinessChecks(checks) },
        OperationAuthorizer,
        OperationRegistry,
        { provide: APP_GUARD, useClass: PlatformAuthGuard },
        { provide: APP_FILTER, useClass: PlatformExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useClass: StrictBodyPipe },
      ],
      exports: [OperationAuthorizer, OperationRegistry, OriginPolicy, ...(options.resourceServer ? [ResourceServerOptions] : [])],
    };
  }
}
