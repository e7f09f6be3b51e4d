// Compiles the whole workspace with SWC (decorator metadata on, path aliases rewritten to relative
// imports) into dist/, mirroring the source tree. Test files are left out. The expert web app (apps/web)
// is bundled by Vite into dist/apps/web instead (apps/web/build.mjs).
//
//   node tools/build/build.mjs             always builds (npm run build)
//   node tools/build/build.mjs --if-stale  builds only when dist/ was not built from the sources as they are now (npm start)
//
// A successful build writes the content hash of its inputs (build-stamp.mjs) into dist/; --if-stale compares it
// with the sources' hash, so a restart with nothing changed starts at once and any changed source (apps, libs,
// tools, .swcrc, tsconfig, package-lock.json) rebuilds.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILD_IGNORE, inputsStamp, SOURCE_DIRS, staleness, writeStamp } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
/** What `npm start` runs: without it dist/ is no build to start from, whatever its stamp says. */
/** The expert web app's build step (its API types, then its Vite bundle), in a workspace that has it. */
const WEB_APP_BUILD = join(root, 'apps', 'web', 'build.mjs');
const hasWebApp = existsSync(WEB_APP_BUILD);
const ENTRY_POINTS = ['apps/standalone/src/main.js', ...(hasWebApp ? ['apps/web/index.html'] : [])];
/** Sources of the web app, bundled by Vite instead of compiled by SWC. */
const WEB_APP_SOURCES = 'apps/web/**';

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
  // The web app is bundled by Vite below, not compiled file by file (its sources still count in the stamp).
  [...SOURCE_DIRS, '-d', 'dist', '--copy-files', '--config-file', '.swcrc', '--quiet', '--ignore', [...BUILD_IGNORE, WEB_APP_SOURCES].join(',')],
  { cwd: root, stdio: 'inherit' },
);
// The web app's API types come from the compiled operation catalogue, so it is built after SWC.
if (hasWebApp) await (await import(pathToFileURL(WEB_APP_BUILD).href)).buildWebApp();
writeStamp(dist, stamp);
if (ifStale) console.error(`build: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
