import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InlineClaimReader, InlineContradictionFinder, ScannedDocument } from '@svc/full-audit-core';
import type { Claim, ClaimContradiction } from '@svc/text';
import { ClaimsThread, ThreadedClaimReader, ThreadedContradictionFinder } from './claims-thread';

/** The worker from its TypeScript source, compiled as it loads (the build compiles it to claims.worker.js). */
const FROM_SOURCE = { script: join(__dirname, 'claims.worker.ts'), execArgv: ['--require', join(__dirname, '..', '..', '..', 'platform', 'jobs', 'test-fixtures', 'swc-register.cjs')] };

/**
 * `n` duration claims, ten per document, over subjects whose stems each about 55 claims share: blocks just
 * under the judge's size cap, so many pairs are compared (some 1 s of CPU for 6,000 claims) and hundreds contradict.
 */
function claims(n: number): Claim[] {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const stems = Array.from({ length: Math.ceil((6 * n) / 55) }, (_, i) => `stem${i}`);
  return Array.from({ length: n }, (_, i) => {
    const subject = Array.from({ length: 6 }, () => stems[Math.floor(random() * stems.length)]);
    const days = 5 + Math.floor(random() * 4);
    return { passageId: `kn_${i}`, documentId: `kd_${Math.floor(i / 10)}`, text: `The ${subject.join(' ')} is done within ${days} days.`, start: 0, end: 40, subject, attribute: 'duration', value: { key: `P${days}D`, text: `${days} days` }, scope: [] };
  });
}

const fingerprints = (found: ClaimContradiction[]) => found.map((c) => c.fingerprint).sort();

/** The longest time the event loop went without running a 5 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
    longest = Math.max(longest, performance.now() - last);
  } finally {
    clearInterval(ticker);
  }
  return longest;
}

describe('ClaimsThread (issue 28 item 5: a full judgement held every request of the embedded mode for seconds)', () => {
  const many = claims(6000);
  let thread: ClaimsThread;
  let finder: ThreadedContradictionFinder;

  beforeEach(() => {
    thread = new ClaimsThread({ ...FROM_SOURCE, idleMs: 60_000 });
    finder = new ThreadedContradictionFinder(thread);
  });
  afterEach(() => thread.onModuleDestroy());

  it('finds what the search finds on the caller thread, off that thread', async () => {
    const inline = await new InlineContradictionFinder().find(many, {});
    expect(inline.length).toBeGreaterThan(100);
    const threaded = await finder.find(many, {});
    expect(thread.running()).toBe(true);
    expect(fingerprints(threaded)).toEqual(fingerprints(inline));
    // Options cross too (a Set, Maps): an incremental judgement of two documents.
    const touching = new Set(['kd_3', 'kd_40']);
    expect(fingerprints(await finder.find(many, { touching }))).toEqual(fingerprints(await new InlineContradictionFinder().find(many, { touching })));
  }, 120000);

  it('leaves the event loop free while it searches, where the search on the caller thread stops it for its whole length', async () => {
    await finder.find(claims(300), {}); // the thread started and loaded
    const blocked = await longestStall(() => new InlineContradictionFinder().find(many, {}));
    const threaded = await longestStall(() => finder.find(many, {}));
    expect(blocked).toBeGreaterThan(300);
    expect(threaded).toBeLessThan(Math.min(150, blocked / 3));
  }, 120000);

  it('reads the claims of documents as the caller thread reads them, vectors included', async () => {
    const documents: ScannedDocument[] = [
      { id: 'kd_a', name: 'Refunds.md', url: null, contentHash: 'h1', passages: [{ id: 'kn_1', text: 'Refunds of an order are processed within 30 days.', headingPath: ['Refunds'], vector: [0.5, -0.25, 0.75, 0.1] }] },
      { id: 'kd_b', name: 'Delivery.md', url: null, contentHash: 'h2', passages: [{ id: 'kn_2', text: 'Standard delivery of parcels takes 3 working days. Express delivery costs 9 EUR.', headingPath: [] }] },
    ];
    const threaded = await new ThreadedClaimReader(thread).read(documents);
    expect(thread.running()).toBe(true);
    expect(threaded).toEqual(await new InlineClaimReader().read(documents));
    expect(threaded.map((c) => c.length)).toEqual([1, 2]);
  }, 120000);

  (process.platform === 'linux' ? it : it.skip)('runs below the priority of the threads that answer requests', async () => {
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const before = niceOfThreads();
    await finder.find(claims(300), {});
    expect(niceOfThreads().filter((nice) => nice === 10)).toHaveLength(before.filter((nice) => nice === 10).length + 1);
    expect(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]).toBe(String(before[0]));
  }, 120000);

    it('searches small inputs inline, and ends its thread once idle', async () => {
    const quick = new ClaimsThread({ ...FROM_SOURCE, idleMs: 200 });
    const small = new ThreadedContradictionFinder(quick);
    try {
      await small.find(claims(50), {});
      expect(quick.running()).toBe(false);
      await small.find(claims(300), {});
      expect(quick.running()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(quick.running()).toBe(false);
    } finally {
      await quick.onModuleDestroy();
    }
  }, 120000);

  it('fails the work of a thread that stops, and starts another for the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claims-thread-'));
    const script = join(dir, 'dies.cjs');
    writeFileSync(script, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const dying = new ClaimsThread({ script });
    try {
      await expect(new ThreadedContradictionFinder(dying).find(claims(300), {})).rejects.toThrow('worker thread stopped: exit code 3');
      expect(dying.running()).toBe(false);
      await expect(new ThreadedClaimReader(dying).read([{ id: 'kd_a', name: 'a.md', url: null, contentHash: 'h', passages: [] }])).rejects.toThrow('worker thread stopped');
      // A large search goes over in slices: the thread stops at the first.
      await expect(new ThreadedContradictionFinder(dying).find(claims(2500), {})).rejects.toThrow('worker thread stopped');
    } finally {
      await dying.onModuleDestroy();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);

  it('works inline when no compiled worker exists (its TypeScript sources under a test runner)', async () => {
    const sources = new ClaimsThread();
    expect(sources.available).toBe(false);
    const some = claims(1000);
    expect(fingerprints(await new ThreadedContradictionFinder(sources).find(some, {}))).toEqual(fingerprints(await new InlineContradictionFinder().find(some, {})));
    expect(sources.running()).toBe(false);
  });
});
