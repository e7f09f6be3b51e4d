// Compiles the whole workspace with SWC (decorator metadata on, path aliases rewritten to relative
// imports) into dist/, mirroring the source tree. Test files are left out.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const swc = join(root, 'node_modules', '.bin', 'swc');
execFileSync(
  swc,
  ['apps', 'libs', 'tools', '-d', 'dist', '--copy-files', '--config-file', '.swcrc', '--quiet',
   '--ignore', '**/*.spec.ts,**/*.int-spec.ts,**/*.e2e-spec.ts,**/test/**,**/test-fixtures/**,**/project.json,**/*.md'],
  { cwd: root, stdio: 'inherit' },
);
