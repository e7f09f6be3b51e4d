import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { AnthropicLanguageModel } from './anthropic.language-model';
import { LlmConfig, llmSettings, LlmSettings } from './llm-settings';
import { LocalExtractiveLanguageModel } from './local-extractive.language-model';

/** The one place that turns settings into an adapter. */
export function createLanguageModel(settings: LlmSettings): LanguageModel {
  switch (settings.provider) {
    case 'local':
      return new LocalExtractiveLanguageModel();
    case 'anthropic':
      return new AnthropicLanguageModel({
        apiKey: settings.apiKey,
        baseUrl: settings.baseUrl,
        model: settings.model,
        timeoutMs: settings.timeoutMs,
        maxRetries: settings.maxRetries,
      });
  }
}

/**
 * Provides the kernel's LanguageModel, chosen from LLM_PROVIDER: `local` (default, deterministic
 * extractive answering, no network) or `anthropic` (ANTHROPIC_API_KEY, optional ANTHROPIC_BASE_URL,
 * ANTHROPIC_MODEL, LLM_TIMEOUT_MS, LLM_MAX_RETRIES). Needs the global PlatformCoreModule (APP_CONFIG).
 * A bad setting fails the boot with a ConfigError naming the variable.
 */
@Global()
@Module({})
export class LlmModule {
  static forRoot(): DynamicModule {
    return {
      module: LlmModule,
      global: true,
      providers: [
        {
          provide: LanguageModel,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig & LlmConfig): LanguageModel => createLanguageModel(llmSettings(config)),
        },
      ],
      exports: [LanguageModel],
    };
  }
}
