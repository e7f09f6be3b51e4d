// The expert web app's bundle: written to dist/apps/web by `npm run build` (tools/build/build.mjs runs
// apps/web/build.mjs), served by the audit app under /app. Every URL in the output is relative (base
// './'): the service injects a relative <base href> into index.html, so the app works under /app on
// the audit port and behind a gateway that mounts it under any path of one host.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  resolve: { alias: { '@': join(here, 'src') } },
  build: {
    outDir: join(here, '..', '..', 'dist', 'apps', 'web'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // One chunk of about 700 kB minified; what counts is the first view's JavaScript gzipped (at most
    // 250 KB, measured by the browser tests: about 206 KB).
    chunkSizeWarningLimit: 900,
  },
  logLevel: 'warn',
});
