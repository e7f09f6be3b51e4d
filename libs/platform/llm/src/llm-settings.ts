import { AppConfig, ConfigError, integerSetting, isHttpUrl, textSetting } from '@svc/config';
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL, DEFAULT_LLM_MAX_RETRIES, DEFAULT_LLM_TIMEOUT_MS } from './anthropic.language-model';

export type LlmProvider = 'none' | 'anthropic' | 'openai-compatible';

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

export type LlmSettings =
  | { provider: 'none' }
  | ({ provider: 'anthropic'; apiKey: string; baseUrl: string; model: string } & Remote)
  | ({ provider: 'openai-compatible'; baseUrl: string; model: string; apiKey?: string } & Remote);

const PROVIDERS = ['none', 'anthropic', 'openai-compatible'];

/**
 * Reads the LLM_*, ANTHROPIC_* and OPENAI_COMPATIBLE_* settings from the validated configuration
 * (typed, or raw strings in hand-built configs: both are checked here). `local`, the former name of
 * `none`, is still accepted. A bad value is a ConfigError naming the variable; a key is never repeated.
 */
export function llmSettings(config: AppConfig & LlmConfig): LlmSettings {
  const raw = config as unknown as Record<string, unknown>;
  const problems: string[] = [];
  const named = textSetting(raw, 'LLM_PROVIDER') ?? 'none';
  const provider = named === 'local' ? 'none' : named;
  if (!PROVIDERS.includes(provider)) {
    throw new ConfigError([`LLM_PROVIDER: must be one of ${PROVIDERS.map((p) => `'${p}'`).join(', ')}`]);
  }
  const timeoutMs = integerSetting(raw, 'LLM_TIMEOUT_MS', 100, 600_000, problems) ?? DEFAULT_LLM_TIMEOUT_MS;
  const maxRetries = integerSetting(raw, 'LLM_MAX_RETRIES', 0, 10, problems) ?? DEFAULT_LLM_MAX_RETRIES;
  if (provider === 'none') {
    if (problems.length > 0) throw new ConfigError(problems);
    return { provider };
  }
  const model = (name: string, fallback?: string): string | undefined => {
    const value = textSetting(raw, name) ?? fallback;
    if (value === undefined) problems.push(`${name}: required when LLM_PROVIDER=${provider}`);
    else if (value.length > 200) problems.push(`${name}: must be at most 200 characters`);
    return value;
  };
  const baseUrl = (name: string, fallback?: string): string | undefined => {
    const value = textSetting(raw, name) ?? fallback;
    if (value === undefined) problems.push(`${name}: required when LLM_PROVIDER=${provider}`);
    else if (!isHttpUrl(value, false)) problems.push(`${name}: must be an http:// or https:// URL without credentials`);
    return value;
  };
  if (provider === 'anthropic') {
    const apiKey = textSetting(raw, 'ANTHROPIC_API_KEY');
    if (!apiKey) problems.push('ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic');
    const url = baseUrl('ANTHROPIC_BASE_URL', DEFAULT_ANTHROPIC_BASE_URL);
    const name = model('ANTHROPIC_MODEL', DEFAULT_ANTHROPIC_MODEL);
    if (problems.length > 0 || !apiKey || !url || !name) throw new ConfigError(problems);
    return { provider, apiKey, baseUrl: url, model: name, timeoutMs, maxRetries };
  }
  const url = baseUrl('OPENAI_COMPATIBLE_BASE_URL');
  const name = model('OPENAI_COMPATIBLE_MODEL');
  const apiKey = textSetting(raw, 'OPENAI_COMPATIBLE_API_KEY');
  if (problems.length > 0 || !url || !name) throw new ConfigError(problems);
  return { provider: 'openai-compatible', baseUrl: url, model: name, ...(apiKey ? { apiKey } : {}), timeoutMs, maxRetries };
}
