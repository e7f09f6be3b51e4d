import { Serializable } from 'node:child_process';
import { domainErrorOf } from '@svc/kernel/testing';
import { descendantsOf, sampleMemory } from '@svc/test-kit';
import { ChildFailure, parseInChild } from './parse-in-child';

const run = <T>(source: string, options: { timeoutMs?: number; maxMemoryMb?: number; input?: Serializable } = {}) =>
  parseInChild<T>({ source, input: options.input ?? {}, timeoutMs: options.timeoutMs ?? 20_000, maxMemoryMb: options.maxMemoryMb ?? 256, subject: 'The test file' });

/** The killed child is reaped a moment after the outcome: wait for it, up to two seconds. */
async function childrenLeft(): Promise<number[]> {
  for (let i = 0; i < 40 && descendantsOf(process.pid).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return descendantsOf(process.pid);
}

describe('parseInChild', () => {
  it('resolves with what the reader returns, bytes in and out, and leaves no process behind', async () => {
    const result = await run<{ ok: true; length: number; first: number; isView: boolean }>(
      'async function read(input) { return { ok: true, length: input.data.length, first: input.data[0], isView: ArrayBuffer.isView(input.data) }; }',
      { input: { data: Buffer.from([7, 8, 9]) } },
    );
    expect(result).toEqual({ ok: true, length: 3, first: 7, isView: true });
    expect(await childrenLeft()).toEqual([]);
  });

  it("sends back what the reader throws as the library's error name and message", async () => {
    const failure = await run<ChildFailure>("async function read() { throw Object.assign(new Error('bad xref'), { name: 'InvalidPDFException' }); }");
    expect(failure).toEqual({ ok: false, name: 'InvalidPDFException', message: 'bad xref' });
  });

  it('kills a reader whose ArrayBuffers pass the bound, which no V8 heap limit counts', async () => {
    // 16 MiB at a time, touched, synchronously: the reader's event loop never runs again.
    const hog = 'async function read() { const kept = []; for (;;) kept.push(Buffer.alloc(16 * 1024 * 1024, 1)); }';
    const sampler = sampleMemory([process.pid]);
    const error = await domainErrorOf(run(hog, { maxMemoryMb: 192 }));
    const peaks = sampler.stop();
    expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The test file needs more than 192 MiB of memory to read.' });
    expect(peaks.childrenSeen).toBeGreaterThanOrEqual(1);
    expect(peaks.childMiB).toBeLessThan(192 + 64);
    expect(await childrenLeft()).toEqual([]);
  });

  it('stops a reader whose heap grows past the bound', async () => {
    const hog = "async function read() { const kept = []; for (let i = 0; ; i++) kept.push({ i, text: 'x'.repeat(64) + i }); }";
    const error = await domainErrorOf(run(hog, { maxMemoryMb: 128 }));
    expect(error).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The test file needs more than 128 MiB of memory to read.' });
  });

  it('kills a reader that runs too long', async () => {
    const error = await domainErrorOf(run('async function read() { for (;;); }', { timeoutMs: 300 }));
    expect(error).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The test file took longer than 300 ms to read.' });
    expect(await childrenLeft()).toEqual([]);
  });

  it('reports a reader that stops without answering', async () => {
    expect((await domainErrorOf(run('async function read() { process.exit(3); }'))).message).toBe('The test file could not be read (the reader stopped with code 3).');
    expect((await domainErrorOf(run("async function read() { process.kill(process.pid, 'SIGSEGV'); await new Promise(() => {}); }"))).message).toBe(
      'The test file could not be read (the reader stopped with signal SIGSEGV).',
    );
  });
});
