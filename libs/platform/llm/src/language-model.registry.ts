import { adapter, AdapterRegistry, integerSetting, isHttpUrl, textSetting } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { AnthropicLanguageModel, DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL, DEFAULT_LLM_MAX_RETRIES, DEFAULT_LLM_TIMEOUT_MS } from './anthropic.language-model';
import { NoLanguageModel } from './no.language-model';
import { OpenAiCompatibleLanguageModel } from './openai-compatible.language-model';

/** What every remote provider reads: LLM_TIMEOUT_MS and LLM_MAX_RETRIES (checked for `none` too, so a typo fails early). */
export function remoteSettings(raw: Record<string, unknown>, problems: string[]): { timeoutMs: number; maxRetries: number } {
  return {
    timeoutMs: integerSetting(raw, 'LLM_TIMEOUT_MS', 100, 600_000, problems) ?? DEFAULT_LLM_TIMEOUT_MS,
    maxRetries: integerSetting(raw, 'LLM_MAX_RETRIES', 0, 10, problems) ?? DEFAULT_LLM_MAX_RETRIES,
  };
}

/** A provider's base URL: http(s), without credentials (they would reach the logs). */
export function baseUrlSetting(raw: Record<string, unknown>, name: string, provider: string, problems: string[], fallback?: string): string {
  const value = textSetting(raw, name) ?? fallback;
  if (value === undefined) problems.push(`${name}: required when LLM_PROVIDER=${provider}`);
  else if (!isHttpUrl(value, false)) problems.push(`${name}: must be an http:// or https:// URL without credentials`);
  return value ?? '';
}

/** A provider's model name, at most 200 characters. */
export function modelSetting(raw: Record<string, unknown>, name: string, provider: string, problems: string[], fallback?: string): string {
  const value = textSetting(raw, name) ?? fallback;
  if (value === undefined) problems.push(`${name}: required when LLM_PROVIDER=${provider}`);
  else if (value.length > 200) problems.push(`${name}: must be at most 200 characters`);
  return value ?? '';
}

/**
 * The LanguageModel adapters, one per LLM_PROVIDER value (`ADAPTER_SETTINGS` in @svc/config): each reads its own
 * variables (a bad one is a ConfigError naming it, at start; a key is never repeated) and builds the transport.
 * A new provider adds its adapter file and one entry here (docs/architecture.md, "Adding an adapter").
 */
export const LANGUAGE_MODELS: AdapterRegistry<'LLM_PROVIDER', LanguageModel> = {
  setting: 'LLM_PROVIDER',
  adapters: {
    none: adapter({
      summary: 'no model: the capabilities use their rule-based adapters (no network)',
      settings: (raw, problems) => {
        remoteSettings(raw, problems);
        return {};
      },
      create: () => new NoLanguageModel(),
    }),
    anthropic: adapter({
      summary: "Anthropic's Messages API: tool use for structured output, prompt caching, Message Batches",
      settings: (raw, problems) => {
        const remote = remoteSettings(raw, problems);
        const apiKey = textSetting(raw, 'ANTHROPIC_API_KEY');
        if (!apiKey) problems.push('ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic');
        const baseUrl = baseUrlSetting(raw, 'ANTHROPIC_BASE_URL', 'anthropic', problems, DEFAULT_ANTHROPIC_BASE_URL);
        const model = modelSetting(raw, 'ANTHROPIC_MODEL', 'anthropic', problems, DEFAULT_ANTHROPIC_MODEL);
        return { apiKey: apiKey ?? '', baseUrl, model, ...remote };
      },
      create: (settings) => new AnthropicLanguageModel(settings),
    }),
    'openai-compatible': adapter({
      summary: 'chat completions with a strict json_schema response format (vLLM, Ollama, llama.cpp server, OpenAI)',
      settings: (raw, problems) => {
        const remote = remoteSettings(raw, problems);
        const baseUrl = baseUrlSetting(raw, 'OPENAI_COMPATIBLE_BASE_URL', 'openai-compatible', problems);
        const model = modelSetting(raw, 'OPENAI_COMPATIBLE_MODEL', 'openai-compatible', problems);
        const apiKey = textSetting(raw, 'OPENAI_COMPATIBLE_API_KEY');
        return { baseUrl, model, ...(apiKey ? { apiKey } : {}), ...remote };
      },
      create: (settings) => new OpenAiCompatibleLanguageModel(settings),
    }),
  },
};
