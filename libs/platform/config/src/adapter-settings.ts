import { z } from 'zod';
import { ConfigError } from './config-error';

/**
 * A port with more than one adapter is chosen by one setting. Its declaration: the adapters' names (the values the
 * setting allows), the default, former names still read, and the prefixes of the variables its adapters read.
 */
export interface AdapterSettingDeclaration {
  /** The port the setting chooses an adapter for (`LanguageModel`, `VectorIndex`...). */
  port: string;
  /** The adapters' names: the setting's values. Each has one entry in the port's registry (`AdapterRegistry`). */
  names: readonly [string, ...string[]];
  /** The adapter when the setting is unset. */
  default: string;
  /** Former names still read, each as the adapter it names now. */
  aliases?: Readonly<Record<string, string>>;
  /**
   * Prefixes of the variables the port's adapters read. `loadConfig` keeps every such variable, as text when the
   * schema does not type it, so a new adapter's own variables (`LLM_MISTRAL_API_KEY`) reach its settings reader
   * without a schema change; the port's README lists the typed ones (a unit test compares).
   */
  prefixes: readonly string[];
}

/**
 * The one list of adapter settings: the config schema builds each setting's allowed values from it, and each port's
 * registry must have exactly one entry per name (the compiler checks both ways). Adding an adapter: its file, its
 * entry in the port's registry, its name here (docs/architecture.md, "Adding an adapter").
 */
export const ADAPTER_SETTINGS = {
  LLM_PROVIDER: { port: 'LanguageModel', names: ['none', 'anthropic', 'openai-compatible'], default: 'none', aliases: { local: 'none' }, prefixes: ['LLM_', 'ANTHROPIC_', 'OPENAI_COMPATIBLE_'] },
  EMBEDDINGS_PROVIDER: { port: 'Embedder', names: ['local', 'openai-compatible'], default: 'local', prefixes: ['EMBEDDINGS_'] },
  VECTOR_STORE: { port: 'VectorIndex', names: ['auto', 'pgvector', 'exact-scan'], default: 'auto', prefixes: ['VECTOR_'] },
  REPOSITORY_CLIENT: { port: 'RepositoryInstanceClient', names: ['local', 'http'], default: 'local', prefixes: ['REPOSITORY_'] },
} as const satisfies Record<string, AdapterSettingDeclaration>;

export type AdapterSettingName = keyof typeof ADAPTER_SETTINGS;
/** The adapters' names of a setting. */
export type AdapterName<S extends AdapterSettingName> = (typeof ADAPTER_SETTINGS)[S]['names'][number];
type AliasOf<S extends AdapterSettingName> = (typeof ADAPTER_SETTINGS)[S] extends { aliases: infer A } ? keyof A & string : never;

const declaration = (setting: AdapterSettingName): AdapterSettingDeclaration => ADAPTER_SETTINGS[setting];

/** "must be 'a' or 'b'", "must be one of 'a', 'b', 'c'". */
export function allowedValuesMessage(names: readonly string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  return quoted.length === 2 ? `must be ${quoted[0]} or ${quoted[1]}` : `must be one of ${quoted.join(', ')}`;
}

/** The config schema's entry of an adapter setting: one of its names (or a former one), its default when unset. */
export function adapterSettingSchema<S extends AdapterSettingName>(setting: S): z.ZodType<AdapterName<S> | AliasOf<S>, AdapterName<S> | AliasOf<S> | undefined> {
  const d = declaration(setting);
  const values = [...d.names, ...Object.keys(d.aliases ?? {})] as [string, ...string[]];
  return z.enum(values, { error: allowedValuesMessage(d.names) }).default(d.default) as unknown as z.ZodType<AdapterName<S> | AliasOf<S>, AdapterName<S> | AliasOf<S> | undefined>;
}

/** Whether `loadConfig` keeps a variable the schema does not type: it names a setting of an adapter. */
export function isAdapterVariable(name: string): boolean {
  return Object.values(ADAPTER_SETTINGS).some((d) => d.prefixes.some((prefix) => name.startsWith(prefix) && name.length > prefix.length));
}

/**
 * The adapter a setting names in this configuration (typed, or raw text in a hand-built one): the default when
 * unset, a former name read as the current one. An unknown name is a ConfigError naming the setting and its values.
 */
export function chosenAdapter<S extends AdapterSettingName>(setting: S, raw: Record<string, unknown>): AdapterName<S> {
  const d = declaration(setting);
  const value = raw[setting];
  const named = typeof value === 'string' && value.trim() !== '' ? value.trim() : d.default;
  const name = d.aliases?.[named] ?? named;
  if (!d.names.includes(name)) throw new ConfigError([`${setting}: ${allowedValuesMessage(d.names)}`]);
  return name as AdapterName<S>;
}

/**
 * One adapter of a port: its own settings, read and checked at start (from the validated configuration, or raw
 * text in a hand-built one), and how it is built from them and what the port's module hands it (`Deps`).
 */
export interface AdapterEntry<Port, Deps = void, Settings = unknown> {
  /** What the adapter is, in one line (errors, the guide). */
  summary: string;
  /** Reads and checks the adapter's own variables; pushes one "NAME: reason" line per problem, never a secret's value. */
  settings(raw: Record<string, unknown>, problems: string[]): Settings;
  create(settings: Settings, deps: Deps): Port | Promise<Port>;
}

/** Declares one registry entry, typed by its own settings (the registry holds entries of different settings). */
export function adapter<Port, Deps, Settings>(entry: AdapterEntry<Port, Deps, Settings>): AdapterEntry<Port, Deps> {
  return entry as unknown as AdapterEntry<Port, Deps>;
}

/** A port's registry: its setting, and exactly one entry per adapter name the setting allows. */
export interface AdapterRegistry<S extends AdapterSettingName, Port, Deps = void> {
  setting: S;
  adapters: { readonly [N in AdapterName<S>]: AdapterEntry<Port, Deps> };
}

/** The chosen adapter's name and its checked settings; a ConfigError naming every problem otherwise. */
export function adapterSettings<S extends AdapterSettingName, Port, Deps>(registry: AdapterRegistry<S, Port, Deps>, config: object): { name: AdapterName<S>; settings: unknown } {
  const raw = config as Record<string, unknown>;
  const name = chosenAdapter(registry.setting, raw);
  const problems: string[] = [];
  const settings = registry.adapters[name].settings(raw, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { name, settings };
}

/** Builds the adapter the configuration chooses: the one place a port's adapter is chosen (its module's factory calls it). */
export function createAdapter<S extends AdapterSettingName, Port, Deps>(registry: AdapterRegistry<S, Port, Deps>, config: object, deps: Deps): Port | Promise<Port> {
  const { name, settings } = adapterSettings(registry, config);
  return registry.adapters[name].create(settings, deps);
}
