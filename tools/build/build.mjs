// Compiles the whole workspace with SWC (decorator metadata on, path aliases rewritten to relative
// imports) into dist/, mirroring the source tree. Test files are left out.
//
//   node tools/build/build.mjs             always builds (npm run build)
//   node tools/build/build.mjs --if-stale  builds only when dist/ was not built from the sources as they are now (npm start)
//
// A successful build writes the content hash of its inputs (build-stamp.mjs) into dist/; --if-stale compares it
// with the sources' hash, so a restart with nothing changed starts at once and any changed source (apps, libs,
// tools, .swcrc, tsconfig, package-lock.json) rebuilds.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BUILD_IGNORE, inputsStamp, SOURCE_DIRS, staleness, writeStamp } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
/** What `npm start` runs: without it dist/ is no build to start from, whatever its stamp says. */
const ENTRY_POINTS = ['apps/standalone/src/main.js'];

const t0 = performance.now();
const ifStale = process.argv.includes('--if-stale');
// Hashed before the build: a source saved while SWC runs makes the next start build again.
const stamp = inputsStamp(root);
if (ifStale) {
  const reason = staleness(root, dist, stamp, ENTRY_POINTS);
  if (reason === null) {
    console.error(`build: dist/ is up to date (${stamp.files} sources unchanged, checked in ${Math.round(performance.now() - t0)} ms)`);
    process.exit(0);
  }
  console.error(`build: ${reason}; building`);
}
rmSync(dist, { recursive: true, force: true });
const swc = join(root, 'node_modules', '.bin', 'swc');
execFileSync(
  swc,
  [...SOURCE_DIRS, '-d', 'dist', '--copy-files', '--config-file', '.swcrc', '--quiet', '--ignore', BUILD_IGNORE.join(',')],
  { cwd: root, stdio: 'inherit' },
);
writeStamp(dist, stamp);
if (ifStale) console.error(`build: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
