import { AdapterName, adapterSettings, AppConfig } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { LANGUAGE_MODELS } from './language-model.registry';

export type LlmProvider = AdapterName<'LLM_PROVIDER'>;

/** The LLM variables as the config schema types them. */
export interface LlmConfig {
  LLM_PROVIDER?: LlmProvider | 'local';
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  ANTHROPIC_MODEL?: string;
  OPENAI_COMPATIBLE_BASE_URL?: string;
  OPENAI_COMPATIBLE_API_KEY?: string;
  OPENAI_COMPATIBLE_MODEL?: string;
  LLM_TIMEOUT_MS?: number;
  LLM_MAX_RETRIES?: number;
}

interface Remote {
  timeoutMs: number;
  maxRetries: number;
}

/** The settings of the built-in providers, as `llmSettings` reads them. */
export type LlmSettings =
  | { provider: 'none' }
  | ({ provider: 'anthropic'; apiKey: string; baseUrl: string; model: string } & Remote)
  | ({ provider: 'openai-compatible'; baseUrl: string; model: string; apiKey?: string } & Remote);

/**
 * Reads the LLM_*, ANTHROPIC_* and OPENAI_COMPATIBLE_* settings from the validated configuration
 * (typed, or raw strings in hand-built configs: both are checked here) through the provider's registry entry
 * (`LANGUAGE_MODELS`). `local`, the former name of `none`, is still accepted. A bad value is a ConfigError
 * naming the variable; a key is never repeated.
 */
export function llmSettings(config: AppConfig & LlmConfig): LlmSettings {
  const { name, settings } = adapterSettings(LANGUAGE_MODELS, config);
  return { provider: name, ...(settings as object) } as LlmSettings;
}

/** The transport for settings `llmSettings` read. */
export function createLanguageModel(settings: LlmSettings): LanguageModel {
  const { provider, ...own } = settings;
  return LANGUAGE_MODELS.adapters[provider].create(own, undefined) as LanguageModel;
}
