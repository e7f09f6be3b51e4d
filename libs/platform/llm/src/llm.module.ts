import { DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, createAdapter } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { LANGUAGE_MODELS } from './language-model.registry';

/**
 * Provides the kernel's LanguageModel transport, chosen from LLM_PROVIDER by its registry (`LANGUAGE_MODELS`): `none` (default: no model,
 * capabilities use their rule-based adapters), `anthropic` (ANTHROPIC_API_KEY, optional
 * ANTHROPIC_BASE_URL, ANTHROPIC_MODEL) or `openai-compatible` (OPENAI_COMPATIBLE_BASE_URL,
 * OPENAI_COMPATIBLE_MODEL, optional OPENAI_COMPATIBLE_API_KEY); LLM_TIMEOUT_MS and LLM_MAX_RETRIES
 * for both. Not global: a context that has capability ports imports it. Needs APP_CONFIG. A bad
 * setting fails the boot with a ConfigError naming the variable.
 */
@Module({})
export class LlmModule {
  static forRoot(): DynamicModule {
    return {
      module: LlmModule,
      providers: [
        {
          provide: LanguageModel,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => createAdapter(LANGUAGE_MODELS, config, undefined),
        },
      ],
      exports: [LanguageModel],
    };
  }
}
