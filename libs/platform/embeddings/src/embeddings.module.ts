import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { Embedder } from '@svc/kernel';
import { EmbeddingsConfig, embeddingsSettings, EmbeddingsSettings } from './embeddings-settings';
import { LocalHashingEmbedder } from './local-hashing.embedder';
import { OpenAiCompatibleEmbedder } from './openai-compatible.embedder';

/** The one place that turns settings into an adapter. */
export function createEmbedder(settings: EmbeddingsSettings): Embedder {
  switch (settings.provider) {
    case 'local':
      return new LocalHashingEmbedder(settings.dimensions);
    case 'openai-compatible':
      return new OpenAiCompatibleEmbedder({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        model: settings.model,
        dimensions: settings.dimensions,
        timeoutMs: settings.timeoutMs,
        batchSize: settings.batchSize,
        sendDimensions: settings.sendDimensions,
      });
  }
}

/**
 * Provides the kernel's Embedder, chosen from EMBEDDINGS_PROVIDER: `local` (default, feature hashing,
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
          useFactory: (config: AppConfig & EmbeddingsConfig): Embedder => createEmbedder(embeddingsSettings(config)),
        },
      ],
      exports: [Embedder],
    };
  }
}
