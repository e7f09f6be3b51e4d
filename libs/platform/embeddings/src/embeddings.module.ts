import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, createAdapter } from '@svc/config';
import { Embedder } from '@svc/kernel';
import { EMBEDDERS } from './embedder.registry';

/**
 * Provides the kernel's Embedder, chosen from EMBEDDINGS_PROVIDER by its registry (`EMBEDDERS`): `local` (default, feature hashing,
 * no network) or `openai-compatible` (EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL, EMBEDDINGS_DIMENSIONS,
 * optional EMBEDDINGS_API_KEY). Needs the global PlatformCoreModule (APP_CONFIG). A bad setting fails
 * the boot with a ConfigError naming the variable.
 */
@Global()
@Module({})
export class EmbeddingsModule {
  static forRoot(): DynamicModule {
    return {
      module: EmbeddingsModule,
      global: true,
      providers: [
        {
          provide: Embedder,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => createAdapter(EMBEDDERS, config, undefined),
        },
      ],
      exports: [Embedder],
    };
  }
}
