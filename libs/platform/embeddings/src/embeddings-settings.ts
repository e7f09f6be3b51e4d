import { AppConfig, ConfigError, flagSetting, integerSetting, isHttpUrl, textSetting } from '@svc/config';
import { DEFAULT_LOCAL_DIMENSIONS, MAX_DIMENSIONS, MIN_DIMENSIONS } from './local-hashing.embedder';

export type EmbeddingsProvider = 'local' | 'openai-compatible';

/** The embeddings variables as the config schema types them once it declares them. */
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

export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 30_000;
export const DEFAULT_EMBEDDINGS_BATCH_SIZE = 64;

/**
 * Reads the EMBEDDINGS_* settings from the validated configuration. Until the config schema declares
 * them, they are absent (the defaults apply) or, in hand-built configs, raw strings: both are accepted
 * and checked here, and a bad value is a ConfigError naming the variable, like any other setting.
 */
export function embeddingsSettings(config: AppConfig & EmbeddingsConfig): EmbeddingsSettings {
  const raw = config as unknown as Record<string, unknown>;
  const problems: string[] = [];
  const provider = textSetting(raw, 'EMBEDDINGS_PROVIDER') ?? 'local';
  if (provider !== 'local' && provider !== 'openai-compatible') {
    throw new ConfigError([`EMBEDDINGS_PROVIDER: must be 'local' or 'openai-compatible'`]);
  }
  const dimensions = integerSetting(raw, 'EMBEDDINGS_DIMENSIONS', MIN_DIMENSIONS, MAX_DIMENSIONS, problems);
  if (provider === 'local') {
    if (problems.length > 0) throw new ConfigError(problems);
    return { provider, dimensions: dimensions ?? DEFAULT_LOCAL_DIMENSIONS };
  }
  const baseUrl = textSetting(raw, 'EMBEDDINGS_BASE_URL');
  const model = textSetting(raw, 'EMBEDDINGS_MODEL');
  const timeoutMs = integerSetting(raw, 'EMBEDDINGS_TIMEOUT_MS', 100, 600_000, problems) ?? DEFAULT_EMBEDDINGS_TIMEOUT_MS;
  const batchSize = integerSetting(raw, 'EMBEDDINGS_BATCH_SIZE', 1, 2048, problems) ?? DEFAULT_EMBEDDINGS_BATCH_SIZE;
  const sendDimensions = flagSetting(raw, 'EMBEDDINGS_SEND_DIMENSIONS', problems) ?? false;
  if (!baseUrl) problems.push('EMBEDDINGS_BASE_URL: required when EMBEDDINGS_PROVIDER=openai-compatible');
  else if (!isHttpUrl(baseUrl)) problems.push('EMBEDDINGS_BASE_URL: must be an http:// or https:// URL');
  if (!model) problems.push('EMBEDDINGS_MODEL: required when EMBEDDINGS_PROVIDER=openai-compatible');
  if (dimensions === undefined && !problems.some((p) => p.startsWith('EMBEDDINGS_DIMENSIONS'))) {
    problems.push("EMBEDDINGS_DIMENSIONS: required when EMBEDDINGS_PROVIDER=openai-compatible (the model's output size)");
  }
  if (problems.length > 0 || !baseUrl || !model || dimensions === undefined) throw new ConfigError(problems);
  return {
    provider,
    baseUrl,
    apiKey: textSetting(raw, 'EMBEDDINGS_API_KEY'),
    model,
    dimensions,
    timeoutMs,
    batchSize,
    sendDimensions,
  };
}
