import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ADAPTER_SETTINGS, AdapterSettingName, configSchema } from '@svc/config';
import { ADAPTER_REGISTRIES } from './adapter-registries';

/**
 * The docs an adapter author reads, checked against the code: a README's list of port methods, adapters and
 * settings, its contract suite, the files and helpers it names, the guide's table (docs/architecture.md, "Adding an
 * adapter") and the ports the context cores' READMEs name. A change to a port, a registry or the config schema fails
 * here until the docs follow, and so does a new adapter until its docs are written (the guide's step 5).
 */
const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const ticks = (text: string) => [...text.matchAll(/`([^`\n]+)`/gu)].map((m) => m[1]);
const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/u;

/** A README's paragraph that starts with `**<title>`, up to the next paragraph title or the end. */
function paragraph(readme: string, title: string): string {
  const start = readme.indexOf(`**${title}`);
  if (start < 0) throw new Error(`no **${title}** paragraph`);
  const next = readme.slice(start + 2).search(/\n\*\*[A-Z]/u);
  return next < 0 ? readme.slice(start) : readme.slice(start, start + 2 + next);
}

/** The public members (methods and properties) of a class declared in a TypeScript file, as its source says. */
function membersOf(path: string, className: string): string[] {
  const source = ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className);
  if (!found) throw new Error(`${className} is not declared in ${path}`);
  return found.members
    .filter((m) => (ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m)) && m.name && ts.isIdentifier(m.name))
    .filter((m) => !(ts.getCombinedModifierFlags(m as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)))
    .map((m) => (m.name as ts.Identifier).text);
}

/** The TypeScript sources of a folder and its subfolders, specs and test support (`testing/`) left out. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const path = `${dir}/${f}`;
    if (statSync(join(ROOT, path)).isDirectory()) return f === 'testing' ? [] : sourcesUnder(path);
    return f.endsWith('.ts') && !f.includes('spec') ? [path] : [];
  });
}

/** The variables a lib's code reads by name: quoted literals under the setting's prefixes (`textSetting(raw, 'LLM_X')`). */
function variablesReadBy(lib: string, prefixes: readonly string[]): string[] {
  const code = sourcesUnder(`${lib}/src`).map(read).join('\n');
  const literals = [...code.matchAll(/['"]([A-Z][A-Z0-9_]+)['"]/gu)].map((m) => m[1]);
  return [...new Set(literals.filter((name) => VARIABLE.test(name) && prefixes.some((p) => name.startsWith(p))))];
}

/** The files a text names in backticks (`libs/…/x.ts`, `x.ts`): no placeholders, no globs. */
const filesNamed = (text: string) => ticks(text).filter((t) => /^[\w./-]+\.(ts|md|js|json)$/u.test(t));

/**
 * Each adapter setting's port README, its port's class and file, and its contract suite. `knownBrokenPaths`: paths
 * a README names that do not exist, left for a change that may edit that README; the test fails once they are
 * fixed, so the entry goes with them.
 */
const PORT_READMES: { setting: AdapterSettingName; readme: string; port: string; source: string; contract: [string, string]; knownBrokenPaths?: string[] }[] = [
  { setting: 'LLM_PROVIDER', readme: 'libs/platform/llm/README.md', port: 'LanguageModel', source: 'libs/shared/kernel/src/language-model.ts', contract: ['@svc/llm/testing', 'languageModelContract'] },
  {
    setting: 'EMBEDDINGS_PROVIDER',
    readme: 'libs/platform/embeddings/README.md',
    port: 'Embedder',
    source: 'libs/shared/kernel/src/embedder.ts',
    contract: ['@svc/embeddings/testing', 'embedderContract'],
  },
  { setting: 'VECTOR_STORE', readme: 'libs/platform/vector-index/README.md', port: 'VectorIndex', source: 'libs/shared/kernel/src/vector-index.ts', contract: ['@svc/vector-index/testing', 'vectorIndexContract'] },
];

describe.each(PORT_READMES)('$readme matches the code', ({ setting, readme, port, source, contract, knownBrokenPaths }) => {
  const text = read(readme);
  const lib = readme.slice(0, readme.lastIndexOf('/'));

  it(`lists every member of ${port}, and no method it does not have`, () => {
    const said = ticks(paragraph(text, 'Port.'));
    expect(said).toEqual(expect.arrayContaining([port, source]));
    const members = membersOf(source, port);
    expect(members.filter((m) => !said.some((t) => t === m || t.startsWith(`${m}(`)))).toEqual([]);
    const calls = said.map((t) => /^([a-z][A-Za-z]*)\(/u.exec(t)?.[1]).filter((m): m is string => Boolean(m));
    expect(calls.filter((m) => !members.includes(m))).toEqual([]);
  });

  it(`lists ${setting}'s adapters, one bullet each, as its registry has them`, () => {
    const adapters = paragraph(text, 'Adapters');
    const bullets = [...adapters.matchAll(/^- `([^`]+)`/gmu)].map((m) => m[1]);
    expect(bullets).toEqual([...ADAPTER_SETTINGS[setting].names]);
    expect(ticks(adapters)).toEqual(expect.arrayContaining([setting]));
  });

  it(`lists exactly the variables ${setting}'s adapters read: the ones the configuration types and the ones the lib reads by name`, () => {
    const prefixes: readonly string[] = ADAPTER_SETTINGS[setting].prefixes;
    const typed = Object.keys(configSchema.shape).filter((name) => prefixes.some((p) => name.startsWith(p)));
    const read = variablesReadBy(lib, prefixes);
    const said = [...new Set(ticks(paragraph(text, 'Settings.')).filter((t) => VARIABLE.test(t)))];
    expect(said.sort()).toEqual([...new Set([...typed, ...read])].sort());
  });

  it(`names its contract suite, importable from ${contract[0]}, and the suite's file`, async () => {
    const said = ticks(paragraph(text, 'Contract.'));
    expect(contract.filter((name) => !said.some((t) => t === name || t.startsWith(`${name}(`)))).toEqual([]);
    const suite = (await import(contract[0])) as Record<string, unknown>;
    expect(typeof suite[contract[1]]).toBe('function');
    expect(said.filter((t) => t.endsWith('.contract.ts'))).toHaveLength(1);
  });

  it('names only files that exist: a path from the repository root, or a bare file name in the lib’s src/', () => {
    const missing = filesNamed(text).filter((f) => !existsSync(join(ROOT, f.includes('/') ? f : `${lib}/src/${f}`)));
    expect([...new Set(missing)]).toEqual(knownBrokenPaths ?? []);
  });

  it('names in its Helpers bullets only what the lib exports, each with the file that declares it', async () => {
    if (!text.includes('**Helpers')) return;
    const exported = (await import(contract[0].replace(/\/testing$/u, ''))) as Record<string, unknown>;
    const bullets = [...paragraph(text, 'Helpers').matchAll(/^- `([A-Za-z_][A-Za-z0-9_]*)` \(`([\w.-]+\.ts)`\)/gmu)].map((m) => [m[1], m[2]]);
    expect(bullets.length).toBeGreaterThan(2);
    for (const [name, file] of bullets) {
      expect([name, name in exported]).toEqual([name, true]);
      expect([name, new RegExp(`export (abstract )?(class|function|const) ${name}\\b`, 'u').test(read(`${lib}/src/${file}`))]).toEqual([name, true]);
    }
  });
});

describe('the guide, docs/architecture.md "Adding an adapter"', () => {
  const guide = read('docs/architecture.md');
  const start = guide.indexOf('### Adding an adapter');
  const section = guide.slice(start, guide.indexOf('\n## ', start));

  it('has a row per adapter setting naming its values, and every file it names exists', () => {
    expect(start).toBeGreaterThan(0);
    for (const [setting, declaration] of Object.entries(ADAPTER_SETTINGS)) {
      const row = section.split('\n').find((line) => line.startsWith('|') && ticks(line).includes(setting));
      expect([setting, row && declaration.names.every((n) => ticks(row).includes(n))]).toEqual([setting, true]);
    }
    const paths = ticks(section).filter((t) => /^(libs|apps|tools|docs)\/\S+\.(ts|md)$/u.test(t));
    expect(paths.length).toBeGreaterThan(8);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('names each registry and the package path of each contract suite', () => {
    const said = ticks(section);
    for (const registry of Object.values(ADAPTER_REGISTRIES)) expect(said.join(' ')).toContain(registry.setting);
    for (const { contract } of PORT_READMES) expect(contract.filter((name) => !said.some((t) => t === name || t.startsWith(`${name}(`)))).toEqual([]);
  });
});

describe('the context cores’ READMEs', () => {
  const cores = readdirSync(join(ROOT, 'libs')).filter((c) => existsSync(join(ROOT, 'libs', c, 'core', 'README.md')));
  const sourcesOf = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((f) => {
      const path = `${dir}/${f}`;
      return statSync(join(ROOT, path)).isDirectory() ? sourcesOf(path) : f.endsWith('.ts') && !f.includes('spec') ? [path] : [];
    });
  const kernel = sourcesOf('libs/shared/kernel/src').map(read).join('\n');

  it.each(cores)('%s: every port and file its Ports line names exists', (core) => {
    const readme = read(`libs/${core}/core/README.md`);
    const start = readme.indexOf('- **Ports**');
    const end = readme.indexOf('\n- **', start + 1);
    const said = ticks(readme.slice(start, end < 0 ? undefined : end));
    const code = sourcesOf(`libs/${core}/core/src`).map(read).join('\n') + kernel;
    const declared = (name: string) => new RegExp(`export (abstract )?(class|interface|type) ${name}\\b`, 'u').test(code);
    expect(said.filter((t) => /^[A-Z][A-Za-z]+$/u.test(t) && !declared(t))).toEqual([]);
    const files = said.filter((t) => /\.ts$/u.test(t) && !t.includes('*'));
    expect(files.filter((f) => !sourcesOf(`libs/${core}/core/src`).some((p) => p.endsWith(`/${f}`)))).toEqual([]);
  });
});
