import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADAPTER_SETTINGS, ConfigError, createAdapter, loadConfig } from '@svc/config';
import { EMBEDDERS } from '@svc/embeddings';
import { embedderContract } from '@svc/embeddings/testing';
import { LANGUAGE_MODELS } from '@svc/llm';
import { languageModelContract } from '@svc/llm/testing';
import { ADAPTER_REGISTRIES, checkAdapterSettings } from './adapter-registries';

const base = () => loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'adapters-')) });
const problemsOf = (config: object): string[] => {
  try {
    checkAdapterSettings(config);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('the adapter registries', () => {
  it('have, for every declared setting, exactly one entry per allowed value', () => {
    expect(Object.keys(ADAPTER_REGISTRIES).sort()).toEqual(Object.keys(ADAPTER_SETTINGS).sort());
    for (const [setting, registry] of Object.entries(ADAPTER_REGISTRIES)) {
      expect(registry.setting).toBe(setting);
      expect(Object.keys(registry.adapters)).toEqual([...ADAPTER_SETTINGS[setting as keyof typeof ADAPTER_SETTINGS].names]);
      for (const entry of Object.values(registry.adapters)) expect(entry.summary.length).toBeGreaterThan(10);
    }
  });

  it('accept the defaults, and every adapter whose variables are given', () => {
    expect(problemsOf(base())).toEqual([]);
    expect(
      problemsOf({
        ...base(),
        LLM_PROVIDER: 'openai-compatible',
        OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_COMPATIBLE_MODEL: 'qwen3:8b',
        EMBEDDINGS_PROVIDER: 'openai-compatible',
        EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1',
        EMBEDDINGS_MODEL: 'nomic-embed-text',
        EMBEDDINGS_DIMENSIONS: 768,
        VECTOR_STORE: 'pgvector',
        REPOSITORY_CLIENT: 'http',
      }),
    ).toEqual([]);
  });

  it('name at start every problem of every port at once, never a secret', () => {
    const problems = problemsOf({
      ...base(),
      LLM_PROVIDER: 'anthropic',
      ANTHROPIC_BASE_URL: 'https://user:sk-ant-secret@api.example.com',
      EMBEDDINGS_DIMENSIONS: '3',
      VECTOR_STORE: 'qdrant',
      REPOSITORY_CLIENT: 'http',
      REPOSITORY_API_URL: 'ftp://repository',
    });
    expect(problems).toEqual([
      'ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic',
      'ANTHROPIC_BASE_URL: must be an http:// or https:// URL without credentials',
      'EMBEDDINGS_DIMENSIONS: must be a whole number between 8 and 16000',
      `VECTOR_STORE: must be one of 'auto', 'pgvector', 'exact-scan'`,
      'REPOSITORY_API_URL: must be an http:// or https:// URL',
    ]);
    expect(problems.join(' ')).not.toContain('sk-ant-secret');
  });
});

// The contract suites, run from outside their libs through their package paths, on the adapters the default settings choose.
embedderContract('EMBEDDINGS_PROVIDER=local, built by its registry', async () => createAdapter(EMBEDDERS, base(), undefined));
languageModelContract('LLM_PROVIDER=none, built by its registry', { notConfigured: 'LLM_PROVIDER=none configures no model', noBatches: 'no model, no batches' }, async () => ({
  model: await createAdapter(LANGUAGE_MODELS, base(), undefined),
}));
