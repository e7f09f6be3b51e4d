import 'reflect-metadata';
import { processIo, runCli } from './cli';

// `npm run cli -- <command> [options]`: see tools/cli/README.md.
runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; should a stray handle (a socket in its closing handshake) keep
    // the event loop alive, do not hang the terminal.
    setTimeout(() => process.exit(code), 5000).unref();
  },
  (error: unknown) => {
    console.error('error:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
