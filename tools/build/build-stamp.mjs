// What a build compiles, and whether dist/ was built from it: a content hash of every input (its path and its
// bytes) is written into dist/ after a successful build; a start compares it with the sources' hash now.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The folders SWC compiles into dist/. */
export const SOURCE_DIRS = ['apps', 'libs', 'tools'];

/** Files at the root whose change changes what SWC writes (its options, path aliases, the compiler's version). */
export const ROOT_INPUTS = ['.swcrc', 'tsconfig.json', 'tsconfig.base.json', 'package-lock.json'];

/** What the build leaves out of dist/ (SWC's `--ignore` globs); the stamp leaves out the same files. */
export const BUILD_IGNORE = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**', '**/test-fixtures/**', '**/project.json', '**/*.md'];

/** Folders no build reads: installed packages, and the results the benchmarks and evaluations write. */
const SKIPPED_DIRS = new Set(['node_modules', 'tools/bench/results', 'tools/eval/results']);

/** The stamp's file, in dist/. */
export const STAMP_FILE = '.build-stamp.json';

/** `**` any folders, `*` any characters within one name; nothing else is special. */
function globToRegExp(glob) {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  const pattern = escaped.replace(/\*\*\/|\/\*\*|\*/g, (token) => (token === '**/' ? '(?:.*/)?' : token === '/**' ? '(?:/.*)?' : '[^/]*'));
  return new RegExp(`^${pattern}$`);
}
const IGNORED = BUILD_IGNORE.map(globToRegExp);

/** The build's inputs under `root`, as sorted paths relative to it (with `/`). */
export function buildInputs(root) {
  const files = ROOT_INPUTS.filter((file) => existsSync(join(root, file)));
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      // A link counts as what it points to (SWC follows it too).
      const kind = entry.isSymbolicLink() ? statSync(join(root, path), { throwIfNoEntry: false }) : entry;
      if (!kind) continue;
      if (kind.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_DIRS.has(path)) walk(path);
      } else if (kind.isFile() && !IGNORED.some((re) => re.test(path))) {
        files.push(path);
      }
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(dir);
  return files.sort();
}

/** The content hash of the build's inputs: each path and its bytes (a renamed, added or deleted file changes it). */
export function inputsStamp(root) {
  const hash = createHash('sha256');
  const files = buildInputs(root);
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, ...file.split('/'))));
    hash.update('\0');
  }
  return { inputs: hash.digest('hex'), files: files.length };
}

/** The stamp written by the last successful build into `distDir`, or null. */
export function readStamp(distDir) {
  try {
    return JSON.parse(readFileSync(join(distDir, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/** Records what `distDir` was built from (written through a rename: a crash leaves the old stamp or none, never half of one). */
export function writeStamp(distDir, stamp) {
  const file = join(distDir, STAMP_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ ...stamp, built_at: new Date().toISOString() }, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * Why `distDir` must be built again from `root`, or null when it is up to date: no stamp (never built, deleted,
 * or a build that failed), a missing entry point, or inputs that changed since. `stamp` is the inputs' stamp now.
 */
export function staleness(root, distDir, stamp, entryPoints = []) {
  const built = readStamp(distDir);
  if (!built) return 'dist/ has no build stamp';
  const missing = entryPoints.find((file) => !existsSync(join(distDir, file)));
  if (missing) return `${relative(root, join(distDir, missing)).split(sep).join('/')} is missing`;
  if (built.inputs !== stamp.inputs) return 'sources changed since the last build';
  return null;
}
