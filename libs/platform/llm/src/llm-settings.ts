import { AppConfig, ConfigError, integerSetting, isHttpUrl, textSetting } from '@svc/config';
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL, DEFAULT_LLM_MAX_RETRIES, DEFAULT_LLM_TIMEOUT_MS } from './anthropic.language-model';

export type LlmProvider = 'local' | 'anthropic';

/** The LLM variables as the config schema types them once it declares them. */
export interface LlmConfig {
  LLM_PROVIDER?: LlmProvider;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  ANTHROPIC_MODEL?: string;
  LLM_TIMEOUT_MS?: number;
  LLM_MAX_RETRIES?: number;
}

export type LlmSettings =
  | { provider: 'local' }
  | { provider: 'anthropic'; apiKey: string; baseUrl: string; model: string; timeoutMs: number; maxRetries: number };

/**
 * Reads the LLM_* and ANTHROPIC_* settings from the validated configuration. Until the config schema
 * declares them, they are absent (the defaults apply) or, in hand-built configs, raw strings: both are
 * accepted and checked here, and a bad value is a ConfigError naming the variable, like any other
 * setting. The key is never repeated in a message.
 */
export function llmSettings(config: AppConfig & LlmConfig): LlmSettings {
  const raw = config as unknown as Record<string, unknown>;
  const problems: string[] = [];
  const provider = textSetting(raw, 'LLM_PROVIDER') ?? 'local';
  if (provider !== 'local' && provider !== 'anthropic') {
    throw new ConfigError([`LLM_PROVIDER: must be 'local' or 'anthropic'`]);
  }
  const timeoutMs = integerSetting(raw, 'LLM_TIMEOUT_MS', 100, 600_000, problems) ?? DEFAULT_LLM_TIMEOUT_MS;
  const maxRetries = integerSetting(raw, 'LLM_MAX_RETRIES', 0, 10, problems) ?? DEFAULT_LLM_MAX_RETRIES;
  if (provider === 'local') {
    if (problems.length > 0) throw new ConfigError(problems);
    return { provider };
  }
  const apiKey = textSetting(raw, 'ANTHROPIC_API_KEY');
  const baseUrl = textSetting(raw, 'ANTHROPIC_BASE_URL') ?? DEFAULT_ANTHROPIC_BASE_URL;
  const model = textSetting(raw, 'ANTHROPIC_MODEL') ?? DEFAULT_ANTHROPIC_MODEL;
  if (!apiKey) problems.push('ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic');
  if (!isHttpUrl(baseUrl, false)) problems.push('ANTHROPIC_BASE_URL: must be an http:// or https:// URL without credentials');
  if (model.length > 200) problems.push('ANTHROPIC_MODEL: must be at most 200 characters');
  if (problems.length > 0 || !apiKey) throw new ConfigError(problems);
  return { provider, apiKey, baseUrl, model, timeoutMs, maxRetries };
}
