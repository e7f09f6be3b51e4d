import { AppConfig, ConfigError } from '@svc/config';
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
  const provider = text(raw, 'LLM_PROVIDER') ?? 'local';
  if (provider !== 'local' && provider !== 'anthropic') {
    throw new ConfigError([`LLM_PROVIDER: must be 'local' or 'anthropic'`]);
  }
  const timeoutMs = integer(raw, 'LLM_TIMEOUT_MS', 100, 600_000, problems) ?? DEFAULT_LLM_TIMEOUT_MS;
  const maxRetries = integer(raw, 'LLM_MAX_RETRIES', 0, 10, problems) ?? DEFAULT_LLM_MAX_RETRIES;
  if (provider === 'local') {
    if (problems.length > 0) throw new ConfigError(problems);
    return { provider };
  }
  const apiKey = text(raw, 'ANTHROPIC_API_KEY');
  const baseUrl = text(raw, 'ANTHROPIC_BASE_URL') ?? DEFAULT_ANTHROPIC_BASE_URL;
  const model = text(raw, 'ANTHROPIC_MODEL') ?? DEFAULT_ANTHROPIC_MODEL;
  if (!apiKey) problems.push('ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic');
  if (!isHttpUrl(baseUrl)) problems.push('ANTHROPIC_BASE_URL: must be an http:// or https:// URL without credentials');
  if (model.length > 200) problems.push('ANTHROPIC_MODEL: must be at most 200 characters');
  if (problems.length > 0 || !apiKey) throw new ConfigError(problems);
  return { provider, apiKey, baseUrl, model, timeoutMs, maxRetries };
}

function text(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function integer(raw: Record<string, unknown>, name: string, min: number, max: number, problems: string[]): number | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name}: must be a whole number between ${min} and ${max}`);
    return undefined;
  }
  return n;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}
