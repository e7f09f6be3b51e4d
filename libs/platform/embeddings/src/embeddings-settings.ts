import { AppConfig, ConfigError } from '@svc/config';
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
  const provider = text(raw, 'EMBEDDINGS_PROVIDER') ?? 'local';
  if (provider !== 'local' && provider !== 'openai-compatible') {
    throw new ConfigError([`EMBEDDINGS_PROVIDER: must be 'local' or 'openai-compatible'`]);
  }
  const dimensions = integer(raw, 'EMBEDDINGS_DIMENSIONS', MIN_DIMENSIONS, MAX_DIMENSIONS, problems);
  if (provider === 'local') {
    if (problems.length > 0) throw new ConfigError(problems);
    return { provider, dimensions: dimensions ?? DEFAULT_LOCAL_DIMENSIONS };
  }
  const baseUrl = text(raw, 'EMBEDDINGS_BASE_URL');
  const model = text(raw, 'EMBEDDINGS_MODEL');
  const timeoutMs = integer(raw, 'EMBEDDINGS_TIMEOUT_MS', 100, 600_000, problems) ?? DEFAULT_EMBEDDINGS_TIMEOUT_MS;
  const batchSize = integer(raw, 'EMBEDDINGS_BATCH_SIZE', 1, 2048, problems) ?? DEFAULT_EMBEDDINGS_BATCH_SIZE;
  const sendDimensions = flag(raw, 'EMBEDDINGS_SEND_DIMENSIONS', problems) ?? false;
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
    apiKey: text(raw, 'EMBEDDINGS_API_KEY'),
    model,
    dimensions,
    timeoutMs,
    batchSize,
    sendDimensions,
  };
}

function text(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function integer(raw: Record<string, unknown>, name: string, min: number, max: number, problems: string[]): number | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name}: must be a whole number between ${min} and ${max}`);
    return undefined;
  }
  return n;
}

function flag(raw: Record<string, unknown>, name: string, problems: string[]): boolean | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && ['true', '1', 'yes'].includes(value)) return true;
  if (typeof value === 'string' && ['false', '0', 'no'].includes(value)) return false;
  problems.push(`${name}: must be true or false`);
  return undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
