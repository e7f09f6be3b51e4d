import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADAPTER_SETTINGS, adapter, AdapterRegistry, adapterSettings, allowedValuesMessage, chosenAdapter, createAdapter } from './adapter-settings';
import { ConfigError, loadConfig } from './app-config';

const dir = () => mkdtempSync(join(tmpdir(), 'cfg-adapters-'));
const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('adapter settings: one declaration per port', () => {
  it('gives the config schema each setting’s values and default, and names the values of a wrong one', () => {
    const config = loadConfig({ DATA_DIR: dir() });
    expect([config.LLM_PROVIDER, config.EMBEDDINGS_PROVIDER, config.VECTOR_STORE, config.REPOSITORY_CLIENT]).toEqual(['none', 'local', 'auto', 'local']);
    expect(loadConfig({ DATA_DIR: dir(), VECTOR_STORE: 'pgvector' }).VECTOR_STORE).toBe('pgvector');
    expect(problemsOf(() => loadConfig({ DATA_DIR: dir(), VECTOR_STORE: 'qdrant' }))).toEqual([`VECTOR_STORE: must be one of 'auto', 'pgvector', 'exact-scan'`]);
    expect(problemsOf(() => loadConfig({ DATA_DIR: dir(), REPOSITORY_CLIENT: 'grpc' }))).toEqual([`REPOSITORY_CLIENT: must be 'local' or 'http'`]);
    // A former name is still read.
    expect(loadConfig({ DATA_DIR: dir(), LLM_PROVIDER: 'local' }).LLM_PROVIDER).toBe('local');
  });

  it("keeps a new adapter's own variables under its port's prefix, as text, and nothing else the schema does not type", () => {
    const config = loadConfig({ DATA_DIR: dir(), LLM_MISTRAL_API_KEY: 'key', VECTOR_STORE_QDRANT_URL: 'http://127.0.0.1:6333', EMBEDDINGS_COHERE_MODEL: 'embed-v4', HOME_PAGE: 'x', LLM_: 'bare prefix' }) as unknown as Record<string, unknown>;
    expect(config).toMatchObject({ LLM_MISTRAL_API_KEY: 'key', VECTOR_STORE_QDRANT_URL: 'http://127.0.0.1:6333', EMBEDDINGS_COHERE_MODEL: 'embed-v4' });
    expect(config.HOME_PAGE).toBeUndefined();
    expect(config.LLM_).toBeUndefined();
    // Typed variables stay typed.
    expect(loadConfig({ DATA_DIR: dir(), LLM_TIMEOUT_MS: '2500' }).LLM_TIMEOUT_MS).toBe(2500);
  });

  it('reads the chosen adapter from a typed or a hand-built configuration, a former name as the current one', () => {
    expect(chosenAdapter('LLM_PROVIDER', {})).toBe('none');
    expect(chosenAdapter('LLM_PROVIDER', { LLM_PROVIDER: ' local ' })).toBe('none');
    expect(chosenAdapter('VECTOR_STORE', { VECTOR_STORE: 'exact-scan' })).toBe('exact-scan');
    expect(problemsOf(() => chosenAdapter('EMBEDDINGS_PROVIDER', { EMBEDDINGS_PROVIDER: 'cohere' }))).toEqual([`EMBEDDINGS_PROVIDER: must be 'local' or 'openai-compatible'`]);
    expect(allowedValuesMessage(['a', 'b', 'c'])).toBe(`must be one of 'a', 'b', 'c'`);
  });

  it("builds the chosen adapter from its entry's settings, naming every problem of its variables at once", async () => {
    const registry: AdapterRegistry<'REPOSITORY_CLIENT', string, { prefix: string }> = {
      setting: 'REPOSITORY_CLIENT',
      adapters: {
        local: adapter({ summary: 'in-process', settings: () => ({}), create: (_s, deps: { prefix: string }) => `${deps.prefix}local` }),
        http: adapter({
          summary: 'over HTTP',
          settings: (raw, problems) => {
            if (!raw.REPOSITORY_API_URL) problems.push('REPOSITORY_API_URL: required');
            if (!raw.REPOSITORY_TOKEN) problems.push('REPOSITORY_TOKEN: required');
            return { url: String(raw.REPOSITORY_API_URL) };
          },
          create: (s, deps: { prefix: string }) => `${deps.prefix}${s.url}`,
        }),
      },
    };
    expect(await createAdapter(registry, {}, { prefix: '> ' })).toBe('> local');
    expect(await createAdapter(registry, { REPOSITORY_CLIENT: 'http', REPOSITORY_API_URL: 'u', REPOSITORY_TOKEN: 't' }, { prefix: '> ' })).toBe('> u');
    expect(problemsOf(() => adapterSettings(registry, { REPOSITORY_CLIENT: 'http' }))).toEqual(['REPOSITORY_API_URL: required', 'REPOSITORY_TOKEN: required']);
  });

  it('lets the compiler demand exactly one registry entry per declared name', () => {
    const entry = adapter({ summary: 's', settings: () => ({}), create: () => 'x' });
    // @ts-expect-error a registry without an entry for 'http' does not compile
    const missing: AdapterRegistry<'REPOSITORY_CLIENT', string> = { setting: 'REPOSITORY_CLIENT', adapters: { local: entry } };
    // @ts-expect-error an entry whose name is not declared in ADAPTER_SETTINGS does not compile
    const unknown: AdapterRegistry<'REPOSITORY_CLIENT', string> = { setting: 'REPOSITORY_CLIENT', adapters: { local: entry, http: entry, grpc: entry } };
    expect([missing, unknown].length).toBe(2);
    expect(Object.keys(ADAPTER_SETTINGS)).toEqual(['LLM_PROVIDER', 'EMBEDDINGS_PROVIDER', 'VECTOR_STORE', 'REPOSITORY_CLIENT']);
  });
});
