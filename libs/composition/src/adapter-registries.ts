import { AdapterRegistry, adapterSettings, AdapterSettingName, ConfigError } from '@svc/config';
import { EMBEDDERS } from '@svc/embeddings';
import { LANGUAGE_MODELS } from '@svc/llm';
import { VECTOR_STORES } from '@svc/vector-index';
import { REPOSITORY_CLIENTS } from '@svc/workspace-infra';

/**
 * The registry of every adapter setting (`ADAPTER_SETTINGS` in @svc/config), by setting: the compiler refuses a
 * setting without its registry here.
 */
export const ADAPTER_REGISTRIES = {
  LLM_PROVIDER: LANGUAGE_MODELS,
  EMBEDDINGS_PROVIDER: EMBEDDERS,
  VECTOR_STORE: VECTOR_STORES,
  REPOSITORY_CLIENT: REPOSITORY_CLIENTS,
} as const satisfies { [S in AdapterSettingName]: AdapterRegistry<S, unknown, never> };

/**
 * Reads the chosen adapter's settings of every port at start, before any app is built: one ConfigError naming
 * every problem (an unknown adapter, a missing key, a bad URL), so the process exits 78 instead of failing
 * later in a module factory. What needs the database (VECTOR_STORE=pgvector and the column) is checked when the
 * store is built.
 */
export function checkAdapterSettings(config: object): void {
  const problems: string[] = [];
  for (const registry of Object.values(ADAPTER_REGISTRIES)) {
    try {
      adapterSettings(registry as AdapterRegistry<AdapterSettingName, unknown, never>, config);
    } catch (error) {
      if (error instanceof ConfigError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
}
