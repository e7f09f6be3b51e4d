import { TransferListItem, Worker } from 'node:worker_threads';
import { errorSummary, parsingFailed } from './parsing-failure';

/** What a worker source posts when its library throws: only the error's name and message cross the thread. */
export interface WorkerFailure {
  ok: false;
  name: string;
  message: string;
}

export interface ParseInWorkerOptions {
  /** Plain CommonJS evaluated in the worker (`eval: true`, not compiled); it posts exactly one message. */
  source: string;
  workerData: unknown;
  /** Buffers moved to the worker instead of copied (they become unusable in the caller). */
  transferList?: TransferListItem[];
  /** The worker is terminated after this long. */
  timeoutMs: number;
  /** Heap (V8 old generation) of the worker, in MiB. */
  maxMemoryMb: number;
  /** How the messages name the file: "The PDF", "The DOCX file". */
  subject: string;
}

/**
 * Runs a format's reader in its own worker thread, so a hostile or huge file cannot block the event
 * loop, exhaust the process's heap (the worker has its own limit) or run forever (it is terminated
 * after `timeoutMs`). Resolves with the worker's one message; rejects only with `REPOSITORY.PARSING_FAILED`:
 * "<subject> took longer than N seconds to read.", "<subject> needs more than N MiB of memory to read.",
 * "<subject> could not be read: <reason>" or "<subject> could not be read (the reader stopped with code N)."
 * The worker is terminated once the outcome is known, whichever comes first.
 */
export function parseInWorker<T>(options: ParseInWorkerOptions): Promise<T> {
  const { subject, timeoutMs, maxMemoryMb } = options;
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(options.source, {
      eval: true,
      workerData: options.workerData,
      transferList: options.transferList,
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
      stdout: true,
      stderr: true,
    });
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} seconds` : `${timeoutMs} ms`;
    const timer = setTimeout(() => finish(() => reject(parsingFailed(`${subject} took longer than ${limit} to read.`))), timeoutMs);
    worker.once('message', (message: T) => finish(() => resolve(message)));
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? parsingFailed(`${subject} needs more than ${maxMemoryMb} MiB of memory to read.`, error)
            : parsingFailed(`${subject} could not be read: ${errorSummary(error)}`, error),
        ),
      ),
    );
    worker.once('exit', (code) => finish(() => reject(parsingFailed(`${subject} could not be read (the reader stopped with code ${code}).`))));
  });
}
