import { adapter, AdapterRegistry, flagSetting, integerSetting, isHttpUrl, textSetting } from '@svc/config';
import { Embedder } from '@svc/kernel';
import { DEFAULT_LOCAL_DIMENSIONS, LocalHashingEmbedder, MAX_DIMENSIONS, MIN_DIMENSIONS } from './local-hashing.embedder';
import { OpenAiCompatibleEmbedder } from './openai-compatible.embedder';

export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 30_000;
export const DEFAULT_EMBEDDINGS_BATCH_SIZE = 64;

/**
 * The Embedder adapters, one per EMBEDDINGS_PROVIDER value (`ADAPTER_SETTINGS` in @svc/config): each reads its own
 * EMBEDDINGS_* variables (a bad one is a ConfigError naming it, at start) and builds the embedder. A new provider adds
 * its adapter file and one entry here (docs/architecture.md, "Adding an adapter").
 */
export const EMBEDDERS: AdapterRegistry<'EMBEDDINGS_PROVIDER', Embedder> = {
  setting: 'EMBEDDINGS_PROVIDER',
  adapters: {
    local: adapter({
      summary: 'feature hashing of words and character n-grams, on this process, no network',
      settings: (raw, problems) => ({ dimensions: integerSetting(raw, 'EMBEDDINGS_DIMENSIONS', MIN_DIMENSIONS, MAX_DIMENSIONS, problems) ?? DEFAULT_LOCAL_DIMENSIONS }),
      create: (settings) => new LocalHashingEmbedder(settings.dimensions),
    }),
    'openai-compatible': adapter({
      summary: 'an OpenAI-compatible /embeddings endpoint (vLLM, Ollama, llama.cpp server, OpenAI)',
      settings: (raw, problems) => {
        const dimensions = integerSetting(raw, 'EMBEDDINGS_DIMENSIONS', MIN_DIMENSIONS, MAX_DIMENSIONS, problems);
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
        return { baseUrl: baseUrl ?? '', apiKey: textSetting(raw, 'EMBEDDINGS_API_KEY'), model: model ?? '', dimensions: dimensions ?? 0, timeoutMs, batchSize, sendDimensions };
      },
      create: (settings) => new OpenAiCompatibleEmbedder(settings),
    }),
  },
};
