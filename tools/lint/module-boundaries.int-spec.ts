import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
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

  it.each(cases)('fails lint for $why', async ({ file, source }) => {
    const path = join(ROOT, file);
    writeFileSync(path, source);
    try {
      await run(join(ROOT, 'node_modules', '.bin', 'nx'), ['show', 'projects'], { cwd: ROOT, env: { ...process.env, NX_DAEMON: 'false' } });
      const outcome = await run(join(ROOT, 'node_modules', '.bin', 'eslint'), ['--max-warnings=0', file], { cwd: ROOT }).then(
        () => ({ code: 0, stdout: '' }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toContain('@nx/enforce-module-boundaries');
    } finally {
      rmSync(path, { force: true });
    }
  }, 60000);

  it('passes for the tree as committed', async () => {
    await expect(run(join(ROOT, 'node_modules', '.bin', 'eslint'), ['--max-warnings=0', 'libs/workspace', 'libs/identity', 'libs/shared'], { cwd: ROOT })).resolves.toBeDefined();
  }, 60000);
});
