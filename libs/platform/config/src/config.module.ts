import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock, IdGenerator, SystemClock, UlidIdGenerator } from '@svc/kernel';
import type { AppConfig } from './app-config';

/** DI token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * The validated configuration plus the kernel's system adapters (clock, id generator). Given the
 * config object, so the standalone process validates once and shares it with every app it hosts.
 */
@Global()
@Module({})
export class PlatformCoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlatformCoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useClass: SystemClock },
        { provide: IdGenerator, useClass: UlidIdGenerator },
      ],
      exports: [APP_CONFIG, Clock, IdGenerator],
    };
  }
}
