import { AdapterName, adapterSettings, AppConfig } from '@svc/config';
import { Embedder } from '@svc/kernel';
import { EMBEDDERS } from './embedder.registry';

export type EmbeddingsProvider = AdapterName<'EMBEDDINGS_PROVIDER'>;

/** The embeddings variables as the config schema types them. */
export interface EmbeddingsConfig {
  EMBEDDINGS_PROVIDER?: EmbeddingsProvider;
  EMBEDDINGS_BASE_URL?: string;
  EMBEDDINGS_API_KEY?: string;
  EMBEDDINGS_MODEL?: string;
  EMBEDDINGS_DIMENSIONS?: number;
  EMBEDDINGS_TIMEOUT_MS?: number;
  EMBEDDINGS_BATCH_SIZE?: number;
  EMBEDDINGS_SEND_DIMENSIONS?: boolean;
}

/** The settings of the built-in providers, as `embeddingsSettings` reads them. */
export type EmbeddingsSettings =
  | { provider: 'local'; dimensions: number }
  | {
      provider: 'openai-compatible';
      baseUrl: string;
      apiKey?: string;
      model: string;
      dimensions: number;
      timeoutMs: number;
      batchSize: number;
      sendDimensions: boolean;
    };

/**
 * Reads the EMBEDDINGS_* settings from the validated configuration (typed, or raw strings in hand-built configs:
 * both are checked here) through the provider's registry entry (`EMBEDDERS`); a bad value is a ConfigError naming
 * the variable, like any other setting.
 */
export function embeddingsSettings(config: AppConfig & EmbeddingsConfig): EmbeddingsSettings {
  const { name, settings } = adapterSettings(EMBEDDERS, config);
  return { provider: name, ...(settings as object) } as EmbeddingsSettings;
}

/** The embedder for settings `embeddingsSettings` read. */
export function createEmbedder(settings: EmbeddingsSettings): Embedder {
  const { provider, ...own } = settings;
  return EMBEDDERS.adapters[provider].create(own, undefined) as Embedder;
}
