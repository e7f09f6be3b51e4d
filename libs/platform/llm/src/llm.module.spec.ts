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
import { NoLanguageModel } from './no.language-model';
import { OpenAiCompatibleLanguageModel } from './openai-compatible.language-model';

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

  it('defaults to no model, and reads `local` (its former name) as none', () => {
    expect(llmSettings(base)).toEqual({ provider: 'none' });
    expect(llmSettings(config({ LLM_PROVIDER: 'local' }))).toEqual({ provider: 'none' });
  });

  it('reads the openai-compatible settings, the key being optional', () => {
    expect(llmSettings(config({ LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_COMPATIBLE_MODEL: 'qwen3:8b' }))).toEqual({
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen3:8b',
      timeoutMs: 10000,
      maxRetries: 3,
    });
    expect(
      llmSettings(config({ LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'https://api.openai.com/v1', OPENAI_COMPATIBLE_MODEL: 'gpt-5-mini', OPENAI_COMPATIBLE_API_KEY: 'sk-x', LLM_MAX_RETRIES: 1 })),
    ).toMatchObject({ apiKey: 'sk-x', maxRetries: 1 });
    expect(problemsOf({ LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'ftp://x' })).toEqual([
      'OPENAI_COMPATIBLE_BASE_URL: must be an http:// or https:// URL without credentials',
      'OPENAI_COMPATIBLE_MODEL: required when LLM_PROVIDER=openai-compatible',
    ]);
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
    expect(problemsOf({ LLM_PROVIDER: 'openai' })).toEqual([`LLM_PROVIDER: must be one of 'none', 'anthropic', 'openai-compatible'`]);
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
    const none = await resolve({});
    expect(none).toBeInstanceOf(NoLanguageModel);
    expect([none.name, none.configured]).toEqual(['none', false]);
    await expect(none.complete({ system: 's', messages: [{ role: 'user', content: 'q' }], output: { name: 'o', description: 'd', schema: {} } })).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'LLM.NOT_CONFIGURED',
    });
    const chat = await resolve({ LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_COMPATIBLE_MODEL: 'llama' });
    expect(chat).toBeInstanceOf(OpenAiCompatibleLanguageModel);
    expect([chat.name, chat.configured]).toEqual(['openai-compatible:llama', true]);
    const remote = await resolve({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_MODEL: 'claude-haiku-4-5' });
    expect(remote).toBeInstanceOf(AnthropicLanguageModel);
    expect(remote.name).toBe('anthropic:claude-haiku-4-5');
    await expect(resolve({ LLM_PROVIDER: 'anthropic' })).rejects.toBeInstanceOf(ConfigError);
  });
});
