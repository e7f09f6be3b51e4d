import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OnModuleDestroy } from '@nestjs/common';
import { ClaimReader, ContradictionFinder, InlineClaimReader, InlineContradictionFinder, ScannedDocument } from '@svc/full-audit-core';
import type { Claim, ClaimContradiction, FindContradictionsOptions } from '@svc/text';
import type { ClaimsRequest, ClaimsWork } from './claims.worker';

export interface ClaimsThreadOptions {
  /** The worker's script: by default the compiled `claims.worker.js` beside this file. */
  script?: string;
  /** Node options of the worker thread (a test's TypeScript loader). */
  execArgv?: string[];
  /** The thread ends after this long without a request, and its memory with it. */
  idleMs?: number;
}

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

/** Claims per message to the thread. */
const HANDOFF_SLICE = 1000;

/**
 * Long enough for the documents of an ingestion and the chunks of a scan to share one thread (and its value
 * models, built on a language's first read), short enough to give its memory back soon after.
 */
const IDLE_MS = 15_000;

/**
 * The full scan's CPU work (claims read from documents, contradictions searched among claims) on a worker
 * thread, so the thread that serves requests (all of them in the embedded mode's single process) stays free
 * while it runs: a full judgement of 1,000 documents held it for 9 s, every API call and readiness probe
 * waiting meanwhile, and one document's claims for up to half a second. One thread, started by the first
 * request, takes them one after the other and ends once idle (its heap, the copies it was sent included,
 * goes back to the system). A thread that fails fails the requests it held (their jobs retry); the next
 * request starts another.
 *
 * Run from its TypeScript sources (tests without a build) there is no compiled worker to start
 * (`available` is false) and the adapters below work inline, unless `script` and `execArgv` name one.
 */
export class ClaimsThread implements OnModuleDestroy {
  readonly available: boolean;
  private readonly script: string;
  private readonly execArgv: string[];
  private readonly idleMs: number;
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer?: NodeJS.Timeout;

  constructor(options: ClaimsThreadOptions = {}) {
    this.script = options.script ?? join(__dirname, 'claims.worker.js');
    this.available = existsSync(this.script);
    this.execArgv = options.execArgv ?? [];
    this.idleMs = options.idleMs ?? IDLE_MS;
  }

  /** Whether the worker thread runs now (it ends once idle). */
  running(): boolean {
    return this.worker !== undefined;
  }

  async run<T>(work: ClaimsWork): Promise<T> {
    clearTimeout(this.idleTimer);
    const worker = this.thread();
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject }));
    try {
      // Copying claims to the thread is work of this thread (some 15 ms per 1,000): a large search's go over in slices, the event loop running between two.
      let last: ClaimsWork = work;
      if (work.kind === 'contradictions' && work.claims.length > HANDOFF_SLICE) {
        const claims = work.claims;
        for (let from = 0; from + HANDOFF_SLICE < claims.length; from += HANDOFF_SLICE) {
          worker.postMessage({ id, kind: 'part', claims: claims.slice(from, from + HANDOFF_SLICE) } satisfies ClaimsRequest);
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (!this.pending.has(id)) return answer; // the thread stopped meanwhile: `answer` says why
        }
        last = { ...work, claims: claims.slice(Math.floor((claims.length - 1) / HANDOFF_SLICE) * HANDOFF_SLICE) };
      }
      worker.postMessage({ ...last, id } satisfies ClaimsRequest);
    } catch (error) {
      this.settle({ id, error: `its input could not be handed to the worker thread: ${error instanceof Error ? error.message : String(error)}` });
    }
    return answer;
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('The process is shutting down'));
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { execArgv: this.execArgv });
    // An idle thread must not keep the process alive (its idle timer ends it anyway).
    worker.unref();
    worker.on('message', (message: { id: number; result?: unknown; error?: string }) => this.settle(message));
    const stopped = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(`The full audit's worker thread stopped: ${why}`));
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private settle(message: { id: number; result?: unknown; error?: string }): void {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.error !== undefined) waiting.reject(new Error(`The full audit's worker thread failed: ${message.error}`));
    else waiting.resolve(message.result);
    if (this.pending.size === 0) this.endWhenIdle();
  }

  private endWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (!worker || this.pending.size > 0) return;
      this.worker = undefined;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
  }
}

/** Below this many claims the search takes tens of milliseconds (about 1 s per 1,000 claims above): less than handing them over. */
const INLINE_BELOW_CLAIMS = 200;

/** The rule-based judge's search on the ClaimsThread; small searches inline. */
export class ThreadedContradictionFinder extends ContradictionFinder {
  private readonly inline = new InlineContradictionFinder();

  constructor(
    private readonly thread: ClaimsThread,
    private readonly inlineBelow = INLINE_BELOW_CLAIMS,
  ) {
    super();
  }

  find(claims: readonly Claim[], options: FindContradictionsOptions): Promise<ClaimContradiction[]> {
    if (!this.thread.available || claims.length < this.inlineBelow) return this.inline.find(claims, options);
    return this.thread.run({ kind: 'contradictions', claims, options });
  }
}

/** Claims read on the ClaimsThread. */
export class ThreadedClaimReader extends ClaimReader {
  private readonly inline = new InlineClaimReader();

  constructor(private readonly thread: ClaimsThread) {
    super();
  }

  read(documents: readonly ScannedDocument[]): Promise<Claim[][]> {
    if (!this.thread.available || documents.length === 0) return this.inline.read(documents);
    return this.thread.run({ kind: 'claims', documents });
  }
}
