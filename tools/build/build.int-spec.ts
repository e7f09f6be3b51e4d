import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/**
 * `npm start` builds only when dist/ was not built from the sources as they are (issue 28 item 12). The real
 * build script runs on a small workspace of the same layout (its node_modules linked to this one's), so what is
 * checked is what `npm start` does: untouched -> skipped, a changed input -> built, dist/ deleted -> built.
 */
describe('build --if-stale', () => {
  let workspace: string;
  const file = (path: string) => join(workspace, ...path.split('/'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(file(path)), { recursive: true });
    writeFileSync(file(path), text);
  };
  /** Runs the build; `built` when it compiled (a marker left in dist/ by the test is gone: the build starts from an empty dist/). */
  const build = async (...args: string[]) => {
    const marker = file('dist/marker');
    if (existsSync(file('dist'))) writeFileSync(marker, '');
    const { stderr } = await run(process.execPath, [file('tools/build/build.mjs'), ...args], { cwd: workspace });
    return { built: !existsSync(marker), stderr };
  };
  const compiled = () => readFileSync(file('dist/libs/lib/src/index.js'), 'utf8');

  beforeEach(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'build-stamp-'));
    for (const script of ['build.mjs', 'build-stamp.mjs']) write(`tools/build/${script}`, readFileSync(join(ROOT, 'tools', 'build', script), 'utf8'));
    copyFileSync(join(ROOT, '.swcrc'), file('.swcrc'));
    write('tsconfig.json', '{}\n');
    write('package-lock.json', '{"lockfileVersion": 3}\n');
    symlinkSync(join(ROOT, 'node_modules'), file('node_modules'), 'dir');
    write('apps/standalone/src/main.ts', "import { answer } from '../../../libs/lib/src';\nconsole.log(answer);\n");
    write('libs/lib/src/index.ts', 'export const answer: number = 41;\n');
    write('libs/lib/src/index.spec.ts', "it('answers', () => undefined);\n");
    write('libs/lib/README.md', '# lib\n');
    expect((await build('--if-stale')).built).toBe(true);
  }, 60000);

  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('starts without building when nothing changed, even files merely touched or tests and notes edited', async () => {
    expect(await build('--if-stale')).toEqual({ built: false, stderr: expect.stringContaining('dist/ is up to date') });
    write('libs/lib/src/index.ts', readFileSync(file('libs/lib/src/index.ts'), 'utf8'));
    write('libs/lib/src/index.spec.ts', "it('answers again', () => undefined);\n");
    write('libs/lib/README.md', '# lib, described\n');
    expect((await build('--if-stale')).built).toBe(false);
  }, 60000);

  it('builds again when a compiled source changes, and only once', async () => {
    write('libs/lib/src/index.ts', 'export const answer: number = 42;\n');
    expect(await build('--if-stale')).toEqual({ built: true, stderr: expect.stringContaining('sources changed since the last build') });
    expect(compiled()).toContain('42');
    expect((await build('--if-stale')).built).toBe(false);
  }, 60000);

  it.each([
    ['a source added', () => write('libs/lib/src/extra.ts', 'export const extra = 1;\n')],
    ['a source deleted', () => rmSync(file('apps/standalone/src/main.ts'))],
    ['the compiler options', () => write('.swcrc', readFileSync(file('.swcrc'), 'utf8').replace('"es2022"', '"es2021"'))],
    ['the lock file (another compiler version)', () => write('package-lock.json', '{"lockfileVersion": 3, "packages": {}}\n')],
    ['the TypeScript configuration', () => write('tsconfig.json', '{"compilerOptions": {}}\n')],
    ['a build script', () => write('tools/build/build.mjs', `${readFileSync(file('tools/build/build.mjs'), 'utf8')}\n`)],
  ])('builds again after %s', async (_what, change) => {
    change();
    expect((await build('--if-stale')).built).toBe(true);
  }, 60000);

  it('builds again when dist/ or its entry point was deleted, or a build failed half-way', async () => {
    rmSync(file('dist'), { recursive: true });
    expect(await build('--if-stale')).toEqual({ built: true, stderr: expect.stringContaining('dist/ has no build stamp') });
    rmSync(file('dist/apps/standalone/src/main.js'));
    expect(await build('--if-stale')).toEqual({ built: true, stderr: expect.stringContaining('dist/apps/standalone/src/main.js is missing') });
    // A failed build leaves no stamp (dist/ is emptied first, the stamp written last).
    write('libs/lib/src/index.ts', 'export const answer: number = ;\n');
    await expect(build('--if-stale')).rejects.toThrow();
    write('libs/lib/src/index.ts', 'export const answer: number = 41;\n');
    expect(await build('--if-stale')).toEqual({ built: true, stderr: expect.stringContaining('dist/ has no build stamp') });
  }, 60000);

  it('always builds without --if-stale (npm run build)', async () => {
    expect((await build()).built).toBe(true);
  }, 60000);
});
