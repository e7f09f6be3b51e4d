import { ChildProcess, Serializable, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { errorSummary, parsingFailed } from './parsing-failure';

/** What a child's reader sends when its library throws: only the error's name and message cross. */
export interface ChildFailure {
  ok: false;
  name: string;
  message: string;
}

export interface ParseInChildOptions {
  /**
   * Plain CommonJS run in the child (`node -e`, not compiled). It must define
   * `async function read(input)`, whose result is sent back; a throw is sent as a `ChildFailure`.
   */
  source: string;
  /** Sent to the child over IPC with structured clone (Buffers and Uint8Arrays cross as bytes). */
  input: Serializable;
  /** The child is killed after this long. */
  timeoutMs: number;
  /** Resident memory of the whole child process (heap, ArrayBuffers, code), in MiB; also its heap limit. */
  maxMemoryMb: number;
  /** How the messages name the file: "The PDF", "The DOCX file". */
  subject: string;
}

/** How often the watchdog reads the child's resident memory. */
const WATCH_INTERVAL_MS = 5;
/** The tail of the child's stderr kept to tell a heap exhaustion from another crash. */
const STDERR_TAIL = 4096;

const PRELUDE = `
'use strict';
process.on('disconnect', () => process.exit(0)); // the service went away: so does its reader
`;
const EPILOGUE = `
process.once('message', (input) => {
  Promise.resolve()
    .then(() => read(input))
    .then(
      (result) => process.send(result),
      (error) => process.send({ ok: false, name: (error && error.name) || 'Error', message: String((error && error.message) || error) }),
    );
});
`;

/**
 * Runs a format's reader in a child process of its own, one per file, so that whatever the file
 * does, this process keeps its memory and its event loop: the child is killed once its resident
 * memory passes `maxMemoryMb` (read from /proc every few milliseconds, so ArrayBuffers, which V8's
 * heap limit does not count, are bounded too), its heap is limited to the same, and it is killed
 * after `timeoutMs`. Every byte it held goes back to the system when it ends, which it does as soon
 * as the outcome is known. Resolves with the reader's one message; rejects only with
 * `REPOSITORY.PARSING_FAILED`: "<subject> took longer than N seconds to read.", "<subject> needs more
 * than N MiB of memory to read.", or "<subject> could not be read (the reader stopped with code N)."
 *
 * Off Linux (no /proc), the heap limit and the timeout still apply, not the resident-memory bound.
 */
export function parseInChild<T>(options: ParseInChildOptions): Promise<T> {
  const { subject, timeoutMs, maxMemoryMb } = options;
  return new Promise((resolve, reject) => {
    let settled = false;
    let stderr = '';
    const child: ChildProcess = spawn(process.execPath, [`--max-old-space-size=${maxMemoryMb}`, '-e', PRELUDE + options.source + EPILOGUE], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watchdog);
      child.kill('SIGKILL');
      outcome();
    };
    const tooMuchMemory = (): void => finish(() => reject(parsingFailed(`${subject} needs more than ${maxMemoryMb} MiB of memory to read.`)));
    const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} seconds` : `${timeoutMs} ms`;
    const timer = setTimeout(() => finish(() => reject(parsingFailed(`${subject} took longer than ${limit} to read.`))), timeoutMs);
    const maxBytes = maxMemoryMb * 1024 * 1024;
    const watchdog = setInterval(() => {
      if (child.pid !== undefined && residentBytes(child.pid) > maxBytes) tooMuchMemory();
    }, WATCH_INTERVAL_MS);

    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
    child.once('message', (message: T) => finish(() => resolve(message)));
    child.once('error', (error) => finish(() => reject(parsingFailed(`${subject} could not be read: ${errorSummary(error)}`, error))));
    // 'close', not 'exit': by then all of stderr has been read, the heap-exhaustion report included.
    child.once('close', (code, signal) => {
      if (/heap out of memory|Reached heap limit/i.test(stderr)) return tooMuchMemory();
      finish(() => reject(parsingFailed(`${subject} could not be read (the reader stopped with ${signal ? `signal ${signal}` : `code ${code}`}).`)));
    });
    child.send(options.input, (error) => {
      if (error) finish(() => reject(parsingFailed(`${subject} could not be read: ${errorSummary(error)}`, error)));
    });
  });
}

/** VmRSS of a process in bytes; 0 when unknown (off Linux, or the process has gone). */
function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
