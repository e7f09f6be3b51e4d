import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, loadConfig, PlatformCoreModule } from '@svc/config';
import { Embedder } from '@svc/kernel';
import { EmbeddingsConfig, embeddingsSettings } from './embeddings-settings';
import { EmbeddingsModule } from './embeddings.module';
import { LocalHashingEmbedder } from './local-hashing.embedder';
import { OpenAiCompatibleEmbedder } from './openai-compatible.embedder';

describe('EmbeddingsModule and its settings', () => {
  let dataDir: string;
  let base: AppConfig;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'docaudit-embeddings-'));
    base = loadConfig({ DATA_DIR: dataDir });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const config = (extra: Record<string, unknown>) => ({ ...base, ...extra }) as AppConfig & EmbeddingsConfig;
  const problemsOf = (extra: Record<string, unknown>): string[] => {
    try {
      embeddingsSettings(config(extra));
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('defaults to the local embedder with 512 dimensions', () => {
    expect(embeddingsSettings(base)).toEqual({ provider: 'local', dimensions: 512 });
    expect(embeddingsSettings(config({ EMBEDDINGS_DIMENSIONS: '256' }))).toEqual({ provider: 'local', dimensions: 256 });
  });

  it('reads the openai-compatible settings, typed or as raw strings', () => {
    const settings = embeddingsSettings(
      config({
        EMBEDDINGS_PROVIDER: 'openai-compatible',
        EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1',
        EMBEDDINGS_MODEL: 'nomic-embed-text',
        EMBEDDINGS_DIMENSIONS: '768',
        EMBEDDINGS_TIMEOUT_MS: 5000,
        EMBEDDINGS_API_KEY: 'sk-test',
        EMBEDDINGS_SEND_DIMENSIONS: 'true',
      }),
    );
    expect(settings).toEqual({
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-test',
      model: 'nomic-embed-text',
      dimensions: 768,
      timeoutMs: 5000,
      batchSize: 64,
      sendDimensions: true,
    });
  });

  it('names every wrong or missing variable, never echoing the key', () => {
    expect(problemsOf({ EMBEDDINGS_PROVIDER: 'cohere' })).toEqual([`EMBEDDINGS_PROVIDER: must be 'local' or 'openai-compatible'`]);
    expect(problemsOf({ EMBEDDINGS_DIMENSIONS: '4' })).toEqual(['EMBEDDINGS_DIMENSIONS: must be a whole number between 8 and 16000']);
    const problems = problemsOf({ EMBEDDINGS_PROVIDER: 'openai-compatible', EMBEDDINGS_API_KEY: 'sk-secret', EMBEDDINGS_TIMEOUT_MS: 'soon' });
    expect(problems).toEqual([
      'EMBEDDINGS_TIMEOUT_MS: must be a whole number between 100 and 600000',
      'EMBEDDINGS_BASE_URL: required when EMBEDDINGS_PROVIDER=openai-compatible',
      'EMBEDDINGS_MODEL: required when EMBEDDINGS_PROVIDER=openai-compatible',
      "EMBEDDINGS_DIMENSIONS: required when EMBEDDINGS_PROVIDER=openai-compatible (the model's output size)",
    ]);
    expect(problems.join(' ')).not.toContain('sk-secret');
    expect(
      problemsOf({ EMBEDDINGS_PROVIDER: 'openai-compatible', EMBEDDINGS_BASE_URL: 'ftp://x', EMBEDDINGS_MODEL: 'm', EMBEDDINGS_DIMENSIONS: 8 }),
    ).toEqual(['EMBEDDINGS_BASE_URL: must be an http:// or https:// URL']);
  });

  it('provides the Embedder chosen from the configuration', async () => {
    const resolve = async (extra: Record<string, unknown>) => {
      @Module({ imports: [PlatformCoreModule.forRoot(config(extra)), EmbeddingsModule.forRoot()] })
      class Root {}
      const app = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
      try {
        return app.get(Embedder);
      } finally {
        await app.close();
      }
    };
    const local = await resolve({});
    expect(local).toBeInstanceOf(LocalHashingEmbedder);
    expect(local.model).toBe('local-hash-v1-d512');
    const remote = await resolve({
      EMBEDDINGS_PROVIDER: 'openai-compatible',
      EMBEDDINGS_BASE_URL: 'https://api.example.com/v1',
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
      EMBEDDINGS_DIMENSIONS: 1536,
    });
    expect(remote).toBeInstanceOf(OpenAiCompatibleEmbedder);
    expect([remote.model, remote.dimensions]).toEqual(['text-embedding-3-small', 1536]);
    await expect(resolve({ EMBEDDINGS_PROVIDER: 'openai-compatible' })).rejects.toBeInstanceOf(ConfigError);
  });
});
