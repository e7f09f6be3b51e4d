import type { Embedder } from '@svc/kernel';

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((s, x, i) => s + x * b[i], 0) / (norm(a) * norm(b));
}

/**
 * What every Embedder adapter promises (kernel/embedder.ts): one L2-normalised vector of
 * `dimensions` numbers per text, in order, the same for the same text, with related texts closer
 * than unrelated ones. The rule the running service depends on: two adapters built from the same settings
 * (the standalone builds one per app: the workers embed the documents, the retrieval app the queries) name the
 * same `model` and give the same vectors, else search compares vectors of two spaces and silently finds nothing.
 * Run it from an adapter's spec with a factory that builds a fresh adapter (`@svc/embeddings/testing`).
 */
export function embedderContract(name: string, factory: () => Embedder | Promise<Embedder>): void {
  describe(`Embedder contract: ${name}`, () => {
    let embedder: Embedder;

    beforeAll(async () => {
      embedder = await factory();
    });

    it('names its vector space and its size', () => {
      expect(typeof embedder.model).toBe('string');
      expect(embedder.model.length).toBeGreaterThan(0);
      expect(Number.isInteger(embedder.dimensions)).toBe(true);
      expect(embedder.dimensions).toBeGreaterThan(0);
    });

    it('returns nothing for no text', async () => {
      expect(await embedder.embed([])).toEqual([]);
    });

    it('returns one unit vector of `dimensions` finite numbers per text, in order', async () => {
      const texts = ['Refunds are processed within 30 days.', 'La cafétéria ouvre à midi.', 'Passwords expire every 90 days'];
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(texts.length);
      for (const vector of vectors) {
        expect(vector).toHaveLength(embedder.dimensions);
        expect(vector.every(Number.isFinite)).toBe(true);
        expect(norm(vector)).toBeCloseTo(1, 6);
      }
      const one = await Promise.all(texts.map(async (t) => (await embedder.embed([t]))[0]));
      one.forEach((vector, i) => vector.forEach((x, k) => expect(x).toBeCloseTo(vectors[i][k], 9)));
    });

    it('is deterministic: the same text gives the same vector, within a call and across calls', async () => {
      const text = 'Expense reports are due on the fifth working day of each month.';
      const [a, b] = await embedder.embed([text, text]);
      const [c] = await embedder.embed([text]);
      expect(a).toEqual(b);
      expect(a).toEqual(c);
    });

    it('gives the same model name and the same vectors from another adapter built the same way (one per app)', async () => {
      const other = await factory();
      expect(other).not.toBe(embedder);
      expect([other.model, other.dimensions]).toEqual([embedder.model, embedder.dimensions]);
      const texts = ['Refunds are processed within 30 days.', 'La cafétéria ouvre à midi.'];
      const [mine, theirs] = [await embedder.embed(texts), await other.embed(texts)];
      theirs.forEach((vector, i) => vector.forEach((x, k) => expect(x).toBeCloseTo(mine[i][k], 9)));
    });

    it('puts related texts closer than unrelated ones', async () => {
      const [refunds, paraphrase, cafeteria] = await embedder.embed([
        'refunds are processed within 30 days',
        'refund processing takes 30 days',
        'the cafeteria opens at noon',
      ]);
      expect(cosine(refunds, paraphrase)).toBeGreaterThan(cosine(refunds, cafeteria) + 0.1);
      expect(cosine(refunds, paraphrase)).toBeGreaterThan(cosine(paraphrase, cafeteria) + 0.1);
    });

    it('gives a blank text a well-defined vector: the right size, no NaN, zero or unit length', async () => {
      for (const text of ['', '   ', '?!…']) {
        const [vector] = await embedder.embed([text]);
        expect(vector).toHaveLength(embedder.dimensions);
        expect(vector.every(Number.isFinite)).toBe(true);
        const length = norm(vector);
        expect(length === 0 || Math.abs(length - 1) < 1e-6).toBe(true);
      }
    });

    it('keeps the order of many texts (more than one request batch)', async () => {
      const texts = Array.from({ length: 150 }, (_, i) => `policy number ${i} about topic ${i % 7}`);
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(150);
      const [again] = await embedder.embed([texts[137]]);
      again.forEach((x, k) => expect(x).toBeCloseTo(vectors[137][k], 9));
    });
  });
}
