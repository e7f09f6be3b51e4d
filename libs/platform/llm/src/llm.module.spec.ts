import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, loadConfig, PlatformCoreModule } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { AnthropicLanguageModel } from './anthropic.language-model';
import { LlmConfig, llmSettings } from './llm-settings';
import { LlmModule } from './llm.module';
import { LocalExtractiveLanguageModel } from './local-extractive.language-model';

describe('LlmModule and its settings', () => {
  let dataDir: string;
  let base: AppConfig;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'docaudit-llm-'));
    base = loadConfig({ DATA_DIR: dataDir });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const config = (extra: Record<string, unknown>) => ({ ...base, ...extra }) as AppConfig & LlmConfig;
  const problemsOf = (extra: Record<string, unknown>): string[] => {
    try {
      llmSettings(config(extra));
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('defaults to the local extractive model', () => {
    expect(llmSettings(base)).toEqual({ provider: 'local' });
  });

  it('reads the anthropic settings with their defaults, typed or as raw strings', () => {
    expect(llmSettings(config({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test' }))).toEqual({
      provider: 'anthropic',
      apiKey: 'sk-ant-test',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-4-6',
      timeoutMs: 10000,
      maxRetries: 3,
    });
    expect(
      llmSettings(
        config({
          LLM_PROVIDER: 'anthropic',
          ANTHROPIC_API_KEY: 'sk-ant-test',
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080',
          ANTHROPIC_MODEL: 'claude-haiku-4-5',
          LLM_TIMEOUT_MS: '2500',
          LLM_MAX_RETRIES: 0,
        }),
      ),
    ).toEqual({ provider: 'anthropic', apiKey: 'sk-ant-test', baseUrl: 'http://127.0.0.1:8080', model: 'claude-haiku-4-5', timeoutMs: 2500, maxRetries: 0 });
  });

  it('names every wrong or missing variable, never echoing the key', () => {
    expect(problemsOf({ LLM_PROVIDER: 'openai' })).toEqual([`LLM_PROVIDER: must be 'local' or 'anthropic'`]);
    expect(problemsOf({ LLM_TIMEOUT_MS: 'soon' })).toEqual(['LLM_TIMEOUT_MS: must be a whole number between 100 and 600000']);
    const problems = problemsOf({
      LLM_PROVIDER: 'anthropic',
      ANTHROPIC_BASE_URL: 'https://user:sk-ant-secret@api.example.com',
      LLM_MAX_RETRIES: '11',
    });
    expect(problems).toEqual([
      'LLM_MAX_RETRIES: must be a whole number between 0 and 10',
      'ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic',
      'ANTHROPIC_BASE_URL: must be an http:// or https:// URL without credentials',
    ]);
    expect(problems.join(' ')).not.toContain('sk-ant-secret');
  });

  it('provides the LanguageModel chosen from the configuration', async () => {
    const resolve = async (extra: Record<string, unknown>) => {
      @Module({ imports: [PlatformCoreModule.forRoot(config(extra)), LlmModule.forRoot()] })
      class Root {}
      const app = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
      try {
        return app.get(LanguageModel);
      } finally {
        await app.close();
      }
    };
    const local = await resolve({});
    expect(local).toBeInstanceOf(LocalExtractiveLanguageModel);
    expect(local.name).toBe('local-extractive-v1');
    const remote = await resolve({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_MODEL: 'claude-haiku-4-5' });
    expect(remote).toBeInstanceOf(AnthropicLanguageModel);
    expect(remote.name).toBe('anthropic:claude-haiku-4-5');
    await expect(resolve({ LLM_PROVIDER: 'anthropic' })).rejects.toBeInstanceOf(ConfigError);
  });
});
