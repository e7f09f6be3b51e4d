// Runs PGlite (PostgreSQL compiled to WASM, with pgvector) on its own thread and serves it over the
// PostgreSQL wire protocol on a Unix socket, so the event loop that answers HTTP never runs a query.
// Plain CommonJS on purpose: worker threads load it as-is from source (tests) and from dist.
const { parentPort, workerData } = require('node:worker_threads');

async function main() {
  const { PGlite } = require('@electric-sql/pglite');
  const { vector } = require('@electric-sql/pglite-pgvector');
  const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
  const db = await PGlite.create(workerData.pgDataDir, { extensions: { vector } });
  // One connection only: PGlite has a single session, and a second client connection would see
  // (and could commit) the first one's open transaction.
  const server = new PGLiteSocketServer({ db, path: workerData.socketPath, maxConnections: 1 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message === 'stop') {
      try {
        await server.stop();
        await db.close();
      } finally {
        parentPort.postMessage({ type: 'stopped' });
      }
    }
  });
  parentPort.postMessage({ type: 'ready' });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'error', message: error && error.message ? error.message : String(error) });
});
