import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/** The hexagon is enforced by the build: a forbidden import fails lint with the boundary rule. */
describe('module boundaries', () => {
  const cases = [
    { file: 'libs/shared/kernel/src/boundary-probe.ts', source: "import { Database } from '@svc/database';\nexport const probe = Database;\n", why: 'shared kernel importing a platform adapter' },
    { file: 'libs/workspace/core/src/boundary-probe.ts', source: "import { TypeOrmUnitOfWork } from '@svc/database';\nexport const probe = TypeOrmUnitOfWork;\n", why: 'a core importing infrastructure' },
    { file: 'libs/identity/core/src/boundary-probe.ts', source: "import { GetInstance } from '@svc/workspace-core';\nexport const probe = GetInstance;\n", why: 'identity reaching into another context' },
  ];

  /** Lints `source` as if it were `file`, through stdin: nothing is written into the tree. */
  const lintAs = (file: string, source: string) =>
    new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(join(ROOT, 'node_modules', '.bin', 'eslint'), ['--max-warnings=0', '--stdin', '--stdin-filename', file], { cwd: ROOT });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout }));
      child.stdin.end(source);
    });

  it.each(cases)('fails lint for $why', async ({ file, source }) => {
    await run(join(ROOT, 'node_modules', '.bin', 'nx'), ['show', 'projects'], { cwd: ROOT, env: { ...process.env, NX_DAEMON: 'false' } });
    const outcome = await lintAs(file, source);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain('@nx/enforce-module-boundaries');
  }, 60000);

  it('passes the same file when its import is allowed', async () => {
    const outcome = await lintAs('libs/workspace/core/src/boundary-probe.ts', "import { newId } from '@svc/kernel';\nexport const probe = newId;\n");
    expect(outcome).toEqual({ code: 0, stdout: '' });
  }, 60000);

  it('passes for the tree as committed', async () => {
    await expect(run(join(ROOT, 'node_modules', '.bin', 'eslint'), ['--max-warnings=0', 'libs/workspace', 'libs/identity', 'libs/shared'], { cwd: ROOT })).resolves.toBeDefined();
  }, 60000);
});
