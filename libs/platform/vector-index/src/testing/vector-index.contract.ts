import { randomBytes } from 'node:crypto';
import { isDomainError, UnitOfWork, VectorIndex, VectorMatch } from '@svc/kernel';
import { contractTest } from '@svc/kernel/testing';

/** One adapter, built the way the service builds it (its registry entry's `create`, or the same constructor call). */
export interface VectorIndexFixture {
  index: VectorIndex;
  /** The unit of work the adapter's writes join; required unless the options say why it joins none. */
  uow?: UnitOfWork;
}

/** What the suite must know about the adapter when it is declared (a test that does not apply is reported skipped, with the reason). */
export interface VectorIndexContractOptions {
  /** True when the adapter is exact; approximate ones (HNSW) are held to a recall bound instead. */
  exact: boolean;
  /**
   * Why the adapter's writes cannot join the caller's unit of work: a store outside the service's PostgreSQL (its
   * writes must then be idempotent, and a vector whose node was rolled back must do no harm: docs/architecture.md,
   * "Adding an adapter"), or a test fake. Unset: its writes must join it (a store in the service's database must).
   */
  noTransactions?: string;
  /** Why two adapters built apart need not share their vectors (a test fake); unset: they must. */
  noSharedStore?: string;
}

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((s, x, i) => s + x * b[i], 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};

/** A deterministic pseudo-random generator, so a failing case can be replayed. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function invalidCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error) && error.kind === 'invalid') return error.code;
    throw error;
  }
  return 'no error';
}

/**
 * The rule that broke the running service once: two adapters built apart (one per app of the standalone process)
 * see each other's writes and removals. Throws (a failed expectation) when they do not.
 */
export async function expectOneStore(first: VectorIndex, second: VectorIndex, instanceId: string): Promise<void> {
  expect(second).not.toBe(first);
  const idsOf = (matches: VectorMatch[]) => matches.map((m) => m.id);
  await first.upsert(instanceId, 'm1', [{ id: 'kn_written', documentId: 'doc_1', vector: [1, 0] }]);
  expect(idsOf(await second.search(instanceId, 'm1', [1, 0], 10))).toEqual(['kn_written']);
  expect((await second.vectorsOf(instanceId, 'm1', ['doc_1'])).map((v) => v.id)).toEqual(['kn_written']);
  await second.upsert(instanceId, 'm1', [{ id: 'kn_other', documentId: 'doc_2', vector: [0, 1] }]);
  await second.removeDocument(instanceId, 'doc_1');
  expect(idsOf(await first.search(instanceId, 'm1', [1, 0], 10))).toEqual(['kn_other']);
}

/**
 * What every VectorIndex adapter promises (kernel/vector-index.ts), with the rules the running service depends on:
 * - **one store across adapters**: `setup` is called again for a second adapter, as the standalone process builds
 *   one VectorIndex per app (the workers app writes the vectors, the retrieval app searches them, the audit app
 *   reads them back); an adapter that keeps its vectors in the object (a Map per instance) passes every other test
 *   while search silently falls back to full text on the running service;
 * - **transactions**: a store in the service's PostgreSQL joins the caller's unit of work (indexation writes nodes
 *   and vectors in one); a store outside it cannot, and says so (`noTransactions`);
 * - **order**: search best first, equal scores by node id in byte order (`kn_C` before `kn_a`, as `COLLATE "C"` and
 *   JavaScript's `<`, not `localeCompare`); `vectorsOf` by node id in the same order;
 * - **concurrency**: writes of several documents of one instance at once, the first writes of a new vector space
 *   among them (worker replicas index documents in parallel);
 * - **errors**: malformed input (kernel/vector-index.ts lists it) is `invalid` `VECTOR_INDEX.INVALID_INPUT`, a
 *   limit above 1,000 `invalid` `VECTOR_INDEX.LIMIT_TOO_LARGE`; a limit of 0 or less and the zero query find nothing.
 * Not checked (no test can): that the vectors outlive a restart of the process, and that the distributed mode's
 * processes share the store.
 * Each test works in instances of its own, so the suite needs no cleanup between tests and can share one database.
 * Run it from the adapter's spec: `vectorIndexContract(name, options, setup)` (`@svc/vector-index/testing`).
 */
export function vectorIndexContract(name: string, options: VectorIndexContractOptions, setup: () => Promise<VectorIndexFixture>): void {
  describe(`VectorIndex contract: ${name}`, () => {
    let index: VectorIndex;
    let fixture: VectorIndexFixture;
    const run = randomBytes(4).toString('hex');
    let counter = 0;
    const newInstance = () => `ins_${run}_${++counter}`;
    const ids = (matches: VectorMatch[]) => matches.map((m) => m.id);

    beforeAll(async () => {
      fixture = await setup();
      index = fixture.index;
    });

    it('returns the nearest vectors by cosine similarity, best first, with their scores', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'm1', [
        { id: 'kn_a', documentId: 'doc_1', vector: [3, 0, 0, 0] },
        { id: 'kn_b', documentId: 'doc_1', vector: [1, 1, 0, 0] },
        { id: 'kn_c', documentId: 'doc_2', vector: [0, 2, 0, 0] },
        { id: 'kn_d', documentId: 'doc_2', vector: [-1, 0, 0, 0] },
        { id: 'kn_e', documentId: 'doc_3', vector: [1, 0, 1, 1] },
      ]);
      const matches = await index.search(ins, 'm1', [1, 0, 0, 0], 10);
      expect(ids(matches)).toEqual(['kn_a', 'kn_b', 'kn_e', 'kn_c', 'kn_d']);
      expect(matches.map((m) => m.documentId)).toEqual(['doc_1', 'doc_1', 'doc_3', 'doc_2', 'doc_2']);
      const expected = [1, Math.SQRT1_2, 1 / Math.sqrt(3), 0, -1];
      matches.forEach((m, i) => expect(m.score).toBeCloseTo(expected[i], 5));
      // The query need not be normalised either.
      expect((await index.search(ins, 'm1', [0, 5, 0, 0], 1)).map((m) => [m.id, Number(m.score.toFixed(5))])).toEqual([['kn_c', 1]]);
    });

    it('replaces the vector of a node upserted again, and keeps the last of duplicates in one call', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'm1', [{ id: 'kn_1', documentId: 'doc_old', vector: [1, 0, 0] }]);
      await index.upsert(ins, 'm1', [
        { id: 'kn_1', documentId: 'doc_new', vector: [1, 1, 0] },
        { id: 'kn_2', documentId: 'doc_new', vector: [1, 0, 0] },
        { id: 'kn_2', documentId: 'doc_new', vector: [0, 0, 1] },
      ]);
      const matches = await index.search(ins, 'm1', [0, 1, 0], 10);
      expect(matches.map((m) => [m.id, m.documentId])).toEqual([
        ['kn_1', 'doc_new'],
        ['kn_2', 'doc_new'],
      ]);
      expect(matches[0].score).toBeCloseTo(Math.SQRT1_2, 5);
      expect(matches[1].score).toBeCloseTo(0, 5);
    });

    it("reads back the stored vectors of a document's nodes, per instance and model", async () => {
      const [ins, other] = [newInstance(), newInstance()];
      await index.upsert(ins, 'm1', [
        { id: 'kn_2', documentId: 'doc_1', vector: [0.6, 0.8, 0] },
        { id: 'kn_a', documentId: 'doc_2', vector: [0, 1, 1] },
        { id: 'kn_1', documentId: 'doc_1', vector: [1, 0, 0] },
        { id: 'kn_3', documentId: 'doc_2', vector: [0, 0, 1] },
        { id: 'kn_B', documentId: 'doc_1', vector: [1, 1, 0] },
        { id: 'kn_4', documentId: 'doc_3', vector: [0, 1, 0] },
      ]);
      await index.upsert(ins, 'm2', [{ id: 'kn_5', documentId: 'doc_1', vector: [0, 1] }]);
      await index.upsert(other, 'm1', [{ id: 'kn_6', documentId: 'doc_1', vector: [1, 0, 0] }]);
      const read = await index.vectorsOf(ins, 'm1', ['doc_2', 'doc_1', 'doc_unknown']);
      // By node id in byte order, whatever the order of the documents asked for or of the writes.
      expect(read.map((v) => [v.id, v.documentId])).toEqual([
        ['kn_1', 'doc_1'],
        ['kn_2', 'doc_1'],
        ['kn_3', 'doc_2'],
        ['kn_B', 'doc_1'],
        ['kn_a', 'doc_2'],
      ]);
      const direction = (v: number[]) => v.map((x) => x / Math.hypot(...v));
      direction(read[1].vector).forEach((x, i) => expect(x).toBeCloseTo([0.6, 0.8, 0][i], 5));
      expect((await index.vectorsOf(ins, 'm2', ['doc_1'])).map((v) => v.id)).toEqual(['kn_5']);
      expect(await index.vectorsOf(ins, 'm1', [])).toEqual([]);
    });

    it('keeps instances apart', async () => {
      const [a, b] = [newInstance(), newInstance()];
      await index.upsert(a, 'm1', [{ id: 'kn_in_a', documentId: 'doc_a', vector: [1, 0] }]);
      await index.upsert(b, 'm1', [{ id: 'kn_in_b', documentId: 'doc_b', vector: [1, 0] }]);
      expect(ids(await index.search(a, 'm1', [1, 0], 10))).toEqual(['kn_in_a']);
      expect(ids(await index.search(b, 'm1', [1, 0], 10))).toEqual(['kn_in_b']);
      expect(await index.search(newInstance(), 'm1', [1, 0], 10)).toEqual([]);
    });

    it('keeps models apart, also models of the same size, and never compares vectors of different sizes', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'model-a', [{ id: 'kn_a', documentId: 'doc_1', vector: [1, 0, 0] }]);
      await index.upsert(ins, "model-b's", [{ id: 'kn_b', documentId: 'doc_1', vector: [1, 0, 0] }]);
      await index.upsert(ins, 'model-c', [{ id: 'kn_c', documentId: 'doc_1', vector: [1, 0, 0, 0, 0] }]);
      expect(ids(await index.search(ins, 'model-a', [1, 0, 0], 10))).toEqual(['kn_a']);
      expect(ids(await index.search(ins, "model-b's", [1, 0, 0], 10))).toEqual(['kn_b']);
      expect(ids(await index.search(ins, 'model-c', [1, 0, 0, 0, 0], 10))).toEqual(['kn_c']);
      expect(await index.search(ins, 'model-a', [1, 0, 0, 0, 0], 10)).toEqual([]);
    });

    it("removes a document's vectors, and only those", async () => {
      const [ins, other] = [newInstance(), newInstance()];
      await index.upsert(ins, 'm1', [
        { id: 'kn_1', documentId: 'doc_gone', vector: [1, 0] },
        { id: 'kn_2', documentId: 'doc_gone', vector: [1, 1] },
        { id: 'kn_3', documentId: 'doc_kept', vector: [0, 1] },
      ]);
      await index.upsert(ins, 'm2', [{ id: 'kn_4', documentId: 'doc_gone', vector: [1, 0] }]);
      await index.upsert(other, 'm1', [{ id: 'kn_5', documentId: 'doc_gone', vector: [1, 0] }]);
      await index.removeDocument(ins, 'doc_gone');
      expect(ids(await index.search(ins, 'm1', [1, 0], 10))).toEqual(['kn_3']);
      expect(await index.search(ins, 'm2', [1, 0], 10)).toEqual([]);
      expect(ids(await index.search(other, 'm1', [1, 0], 10))).toEqual(['kn_5']);
      await index.removeDocument(ins, 'doc_never_indexed');
    });

    it("removes the vectors of the nodes named, of the instance named, under every model", async () => {
      const [ins, other] = [newInstance(), newInstance()];
      await index.upsert(ins, 'm1', [
        { id: 'kn_old1', documentId: 'doc_1', vector: [1, 0] },
        { id: 'kn_old2', documentId: 'doc_1', vector: [1, 1] },
        { id: 'kn_new1', documentId: 'doc_1', vector: [1, 0.5] },
        { id: 'kn_other', documentId: 'doc_2', vector: [1, 0] },
      ]);
      await index.upsert(ins, 'm2', [{ id: 'kn_old3', documentId: 'doc_1', vector: [1, 0] }]);
      await index.upsert(other, 'm1', [{ id: 'kn_elsewhere', documentId: 'doc_1', vector: [1, 0] }]);
      // Unknown ids (and those of another instance) are skipped; an empty list does nothing.
      await index.removeNodes(ins, ['kn_old2', 'kn_old1', 'kn_old3', 'kn_unknown', 'kn_elsewhere']);
      await index.removeNodes(ins, []);
      expect((await index.vectorsOf(ins, 'm1', ['doc_1', 'doc_2'])).map((v) => v.id)).toEqual(['kn_new1', 'kn_other']);
      expect(await index.vectorsOf(ins, 'm2', ['doc_1'])).toEqual([]);
      expect((await index.vectorsOf(other, 'm1', ['doc_1'])).map((v) => v.id)).toEqual(['kn_elsewhere']);
      await expect(index.removeNodes(ins, ['kn_new1', ''])).rejects.toMatchObject({ code: 'VECTOR_INDEX.INVALID_INPUT' });
      expect((await index.vectorsOf(ins, 'm1', ['doc_1'])).map((v) => v.id)).toEqual(['kn_new1']);
    });

    it('orders equal scores by node id in byte order, also across the limit', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'm1', [
        { id: 'kn_b', documentId: 'doc_1', vector: [1, 1] },
        { id: 'kn_C', documentId: 'doc_1', vector: [1, 1] },
        { id: 'kn_a', documentId: 'doc_2', vector: [1, 1] },
        { id: 'kn_best', documentId: 'doc_2', vector: [1, 0.9] },
      ]);
      expect(ids(await index.search(ins, 'm1', [1, 1], 10))).toEqual(['kn_C', 'kn_a', 'kn_b', 'kn_best']);
      expect(ids(await index.search(ins, 'm1', [1, 1], 2))).toEqual(['kn_C', 'kn_a']);
    });

    it('returns at most `limit` matches (rounded down), none for a limit of 0 or less, and refuses absurd limits', async () => {
      const ins = newInstance();
      await index.upsert(
        ins,
        'm1',
        Array.from({ length: 12 }, (_, i) => ({ id: `kn_${String(i).padStart(2, '0')}`, documentId: 'doc_1', vector: [1, i / 10] })),
      );
      expect(await index.search(ins, 'm1', [1, 0], 5)).toHaveLength(5);
      expect(ids(await index.search(ins, 'm1', [1, 0], 3))).toEqual(['kn_00', 'kn_01', 'kn_02']);
      expect(await index.search(ins, 'm1', [1, 0], 0)).toEqual([]);
      expect(await index.search(ins, 'm1', [1, 0], -3)).toEqual([]);
      expect(ids(await index.search(ins, 'm1', [1, 0], 2.7))).toEqual(['kn_00', 'kn_01']);
      expect(await index.search(ins, 'm1', [1, 0], 100)).toHaveLength(12);
      expect(await invalidCode(index.search(ins, 'm1', [1, 0], 1001))).toBe('VECTOR_INDEX.LIMIT_TOO_LARGE');
    });

    it('never matches the zero vector, stored or searched', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'm1', [
        { id: 'kn_zero', documentId: 'doc_1', vector: [0, 0, 0] },
        { id: 'kn_one', documentId: 'doc_1', vector: [0, 0, 1] },
      ]);
      expect(ids(await index.search(ins, 'm1', [1, 0, 0], 10))).toEqual(['kn_one']);
      expect(await index.search(ins, 'm1', [0, 0, 0], 10)).toEqual([]);
    });

    it('accepts vectors of any finite scale, huge or tiny components included', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'm1', [
        { id: 'kn_huge', documentId: 'doc_1', vector: [1e300, 1e300, 0] },
        { id: 'kn_tiny', documentId: 'doc_1', vector: [1e-300, 0, 1e-310] },
        { id: 'kn_mixed', documentId: 'doc_1', vector: [1e-50, 1, 0] },
      ]);
      const matches = await index.search(ins, 'm1', [1e-200, 1e-200, 0], 10);
      expect(matches.map((m) => [m.id, Number(m.score.toFixed(5))])).toEqual([
        ['kn_huge', 1],
        ['kn_mixed', Number(Math.SQRT1_2.toFixed(5))],
        ['kn_tiny', Number(Math.SQRT1_2.toFixed(5))],
      ]);
    });

    it('refuses malformed input, and accepts an empty upsert', async () => {
      const ins = newInstance();
      await index.upsert(ins, 'm1', []);
      const mixed = index.upsert(ins, 'm1', [
        { id: 'kn_1', documentId: 'doc_1', vector: [1, 0] },
        { id: 'kn_2', documentId: 'doc_1', vector: [1, 0, 0] },
      ]);
      expect(await invalidCode(mixed)).toBe('VECTOR_INDEX.INVALID_INPUT');
      expect(await invalidCode(index.upsert(ins, 'm1', [{ id: 'kn_1', documentId: 'doc_1', vector: [1, Number.NaN] }]))).toBe(
        'VECTOR_INDEX.INVALID_INPUT',
      );
      const malformedUpserts: [string, string, { id: string; documentId: string; vector: number[] }][] = [
        [ins, 'm1', { id: 'kn_1', documentId: 'doc_1', vector: [1, Number.POSITIVE_INFINITY] }],
        [ins, 'm1', { id: 'kn_1', documentId: 'doc_1', vector: [] }],
        [ins, 'm1', { id: '', documentId: 'doc_1', vector: [1] }],
        [ins, 'm1', { id: 'kn_1', documentId: '', vector: [1] }],
        [ins, '', { id: 'kn_1', documentId: 'doc_1', vector: [1] }],
        ['', 'm1', { id: 'kn_1', documentId: 'doc_1', vector: [1] }],
      ];
      for (const [instance, model, vector] of malformedUpserts) {
        expect([vector, await invalidCode(index.upsert(instance, model, [vector]))]).toEqual([vector, 'VECTOR_INDEX.INVALID_INPUT']);
      }
      expect(await invalidCode(index.search(ins, 'm1', [], 3))).toBe('VECTOR_INDEX.INVALID_INPUT');
      expect(await invalidCode(index.search(ins, 'm1', [1, Number.NaN], 3))).toBe('VECTOR_INDEX.INVALID_INPUT');
      expect(await invalidCode(index.search(ins, 'm1', [1, 0], Number.NaN))).toBe('VECTOR_INDEX.INVALID_INPUT');
      expect(await invalidCode(index.search(ins, '', [1], 3))).toBe('VECTOR_INDEX.INVALID_INPUT');
      expect(await invalidCode(index.search('', 'm1', [1], 3))).toBe('VECTOR_INDEX.INVALID_INPUT');
      expect(await index.search(ins, 'm1', [1, 0], 10)).toEqual([]);
    });

    it('finds the true nearest neighbours among a few hundred vectors', async () => {
      const ins = newInstance();
      const random = seeded(7);
      const vectors = Array.from({ length: 400 }, (_, i) => ({
        id: `kn_${String(i).padStart(4, '0')}`,
        documentId: `doc_${i % 20}`,
        vector: Array.from({ length: 24 }, () => random() * 2 - 1),
      }));
      await index.upsert(ins, 'm-large', vectors);
      const query = Array.from({ length: 24 }, () => random() * 2 - 1);
      const truth = vectors
        .map((v) => ({ id: v.id, score: cosine(v.vector, query) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      const found = await index.search(ins, 'm-large', query, 10);
      expect(found).toHaveLength(10);
      for (let i = 1; i < found.length; i++) expect(found[i - 1].score).toBeGreaterThanOrEqual(found[i].score);
      if (options.exact) {
        expect(ids(found)).toEqual(truth.map((t) => t.id));
        found.forEach((m, i) => expect(m.score).toBeCloseTo(truth[i].score, 5));
      } else {
        const recall = found.filter((m) => truth.some((t) => t.id === m.id)).length / truth.length;
        expect(recall).toBeGreaterThanOrEqual(0.9);
      }
    });

    contractTest(options.noTransactions, "joins the caller's transaction: a rolled-back upsert or removal leaves no trace", async () => {
      const uow = fixture.uow;
      if (!uow) throw new Error('the fixture gives no unit of work: give the one its writes join, or say in the options why it joins none');
      const ins = newInstance();
      await index.upsert(ins, 'm1', [{ id: 'kn_kept', documentId: 'doc_1', vector: [1, 0] }]);
      const rolledBack = uow.run(async () => {
        await index.upsert(ins, 'm1', [
          { id: 'kn_new', documentId: 'doc_2', vector: [1, 0] },
          { id: 'kn_kept', documentId: 'doc_1', vector: [0, 1] },
        ]);
        await index.removeDocument(ins, 'doc_1');
        expect(ids(await index.search(ins, 'm1', [1, 0], 10))).toEqual(['kn_new']);
        throw new Error('roll back');
      });
      await expect(rolledBack).rejects.toThrow('roll back');
      const after = await index.search(ins, 'm1', [1, 0], 10);
      expect(ids(after)).toEqual(['kn_kept']);
      expect(after[0].score).toBeCloseTo(1, 5);
    });

    contractTest(options.noSharedStore, "shares one store with every adapter built the same way: one app's writes are another app's searches", async () => {
      await expectOneStore(index, (await setup()).index, newInstance());
    });

    it('takes concurrent writes of one instance, first writes of a new vector space among them, with searches meanwhile', async () => {
      const ins = newInstance();
      const model = `m-concurrent-${run}`;
      const writes = Array.from({ length: 8 }, (_, i) => index.upsert(ins, model, [{ id: `kn_c${i}`, documentId: `doc_c${i}`, vector: [1, i / 10, 0] }]));
      const searches = Array.from({ length: 3 }, () => index.search(ins, model, [1, 0, 0], 5));
      await Promise.all([...writes, ...searches]);
      expect(ids(await index.search(ins, model, [1, 0, 0], 10))).toEqual(Array.from({ length: 8 }, (_, i) => `kn_c${i}`));
    });
  });
}
