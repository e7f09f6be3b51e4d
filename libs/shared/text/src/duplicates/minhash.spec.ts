import { canonicalText } from './canonical';
import { DUPLICATES } from './constants';
import { duplicateFingerprint } from './fingerprint';
import { BandIndex, bandKeys, candidateProbability, lshParameters, writeBandKeys } from './lsh';
import { estimatedJaccard, MinHasher, minHashSignature } from './minhash';
import { intersectionSize, jaccard, jaccardAtLeast, wordShingles } from './shingles';

/** A sorted, distinct set of `size` values drawn from [0, range) by a seeded LCG. */
function randomSet(size: number, range: number, seed: number): Uint32Array {
  const values = new Set<number>();
  let state = seed;
  while (values.size < size) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values.add(state % range);
  }
  return Uint32Array.from([...values].sort((a, b) => a - b));
}

describe('word shingles', () => {
  it('are sorted, distinct 32-bit hashes of consecutive words, blind to punctuation', () => {
    const shingles = wordShingles('the cat sat on the mat, the cat sat on the mat.');
    expect(shingles).toBeInstanceOf(Uint32Array);
    expect(shingles.length).toBe(6); // "the cat sat", "cat sat on", "sat on the", "on the mat", "the mat the", "mat the cat"
    expect([...shingles]).toEqual([...shingles].sort((a, b) => a - b));
    expect(wordShingles('the cat sat on the mat')).toEqual(wordShingles('the cat: sat on (the) mat!'));
  });

  it('give a text shorter than a shingle one shingle, and a text without words none', () => {
    expect(wordShingles('urgent').length).toBe(1);
    expect(wordShingles('urgent notice').length).toBe(1);
    expect(wordShingles('urgent notice')).not.toEqual(wordShingles('notice urgent'));
    expect(wordShingles('— · —').length).toBe(0);
    expect(wordShingles('').length).toBe(0);
    expect(wordShingles('a b c d', 1).length).toBe(4);
    expect(() => wordShingles('a b', 0)).toThrow(RangeError);
  });

  it('read letters of every script, accents and digits as words', () => {
    expect(wordShingles('délai 30 jours', 1).length).toBe(3);
    expect(wordShingles('délai', 1)).not.toEqual(wordShingles('delai', 1));
  });
});

describe('Jaccard', () => {
  it('is exact on sorted sets: |A ∩ B| / |A ∪ B|', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const a = randomSet(50 + seed, 400, seed);
      const b = randomSet(80, 400, seed * 7919);
      const setB = new Set(b);
      const shared = [...a].filter((x) => setB.has(x)).length;
      expect(intersectionSize(a, b)).toBe(shared);
      expect(jaccard(a, b)).toBeCloseTo(shared / new Set([...a, ...b]).size, 12);
    }
    const a = Uint32Array.from([1, 2, 3, 0xffffffff]);
    expect(jaccard(a, a)).toBe(1);
    expect(jaccard(a, Uint32Array.from([4, 5]))).toBe(0);
    expect(jaccard(new Uint32Array(0), new Uint32Array(0))).toBe(0);
  });

  it('stops early below a threshold, and is exact at or above it', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const a = randomSet(40 + (seed % 30), 120, seed);
      const b = randomSet(40 + (seed % 17), 120, seed * 31);
      const exact = jaccard(a, b);
      for (const threshold of [0.2, 0.3, 0.4, exact, 0.7]) {
        const bounded = jaccardAtLeast(a, b, threshold);
        if (exact >= threshold) expect(bounded).toBe(exact);
        else expect(bounded).toBeLessThan(threshold);
      }
    }
    const a = randomSet(100, 1000, 9);
    expect(jaccardAtLeast(a, a, 0.99)).toBe(1);
  });
});

describe('MinHash signatures', () => {
  const shingles = wordShingles(canonicalText('Refunds are processed within 30 days of the request.'));

  it('are stable across processes and releases (stored in the database)', () => {
    expect([...shingles]).toEqual([981037276, 1088248550, 2402140253, 3028400031, 3194471343, 3628048910, 3696787479]);
    const signature = minHashSignature(shingles);
    expect(signature.length).toBe(DUPLICATES.permutations);
    expect([...signature.slice(0, 4)]).toEqual([1749162010, 435206254, 2133082248, 632999081]);
    expect(bandKeys(signature, DUPLICATES).slice(0, 3)).toEqual([-2032627140, 1671376474, 1338738673]);
    expect(duplicateFingerprint('Refunds are *processed* within 30 days of the request.').signature).toEqual(signature);
  });

  it('are deterministic, depend on the seed, and ignore order and repeats', () => {
    const reversed = Uint32Array.from([...shingles].reverse());
    const repeated = Uint32Array.from([...shingles, ...shingles]);
    expect(new MinHasher(64, 7).signature(shingles)).toEqual(new MinHasher(64, 7).signature(reversed));
    expect(new MinHasher(64, 7).signature(repeated)).toEqual(new MinHasher(64, 7).signature(shingles));
    expect(new MinHasher(64, 8).signature(shingles)).not.toEqual(new MinHasher(64, 7).signature(shingles));
    expect([...new MinHasher(4).signature(new Uint32Array(0))]).toEqual([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
    // Permutations are drawn in order from the seed: a shorter signature is a prefix (and the 4-way unrolled loop agrees with the plain one).
    expect(new MinHasher(7, 3).signature(shingles)).toEqual(new MinHasher(12, 3).signature(shingles).slice(0, 7));
  });

  it('estimate Jaccard within four standard errors', () => {
    const hasher = new MinHasher();
    for (const [overlap, seed] of [
      [0.9, 3],
      [0.7, 5],
      [0.3, 11],
    ]) {
      const base = randomSet(400, 1 << 30, seed);
      const a = base.slice(0, 300);
      const shift = Math.round(300 * (1 - overlap));
      const b = Uint32Array.from(base.slice(shift, shift + 300)).sort();
      const exact = jaccard(a, b);
      const error = Math.sqrt((exact * (1 - exact)) / hasher.permutations);
      expect(Math.abs(estimatedJaccard(hasher.signature(a), hasher.signature(b)) - exact)).toBeLessThan(4 * error);
    }
    expect(() => estimatedJaccard(new Uint32Array(2), new Uint32Array(3))).toThrow(RangeError);
  });
});

describe('LSH banding', () => {
  it('minimises the weighted error areas as datasketch does', () => {
    // datasketch's documented examples (optimal_param), and the same figures from scipy's quad.
    expect(lshParameters(0.75, 256, { falsePositive: 0.5, falseNegative: 0.5 })).toEqual({ bands: 21, rows: 12 });
    expect(lshParameters(0.75, 256, { falsePositive: 0.1, falseNegative: 0.9 })).toEqual({ bands: 28, rows: 9 });
    expect(lshParameters(0.8, 128, { falsePositive: 0.5, falseNegative: 0.5 })).toEqual({ bands: 9, rows: 13 });
    expect(() => lshParameters(1, 128)).toThrow(RangeError);
  });

  it('stores the banding chosen for the default threshold, which finds pairs just above it', () => {
    const params = lshParameters(DUPLICATES.threshold, DUPLICATES.permutations);
    expect(params).toEqual({ bands: DUPLICATES.bands, rows: DUPLICATES.rows });
    expect(candidateProbability(DUPLICATES.threshold, params)).toBeGreaterThan(0.9);
    expect(candidateProbability(0.8, params)).toBeGreaterThan(0.99);
    expect(candidateProbability(0.3, params)).toBeLessThan(0.02);
  });

  it('gives one signed 32-bit key per band, band number mixed in', () => {
    const flat = new Uint32Array(DUPLICATES.permutations).fill(42);
    const keys = bandKeys(flat, DUPLICATES);
    expect(keys.length).toBe(DUPLICATES.bands);
    expect(new Set(keys).size).toBe(DUPLICATES.bands);
    for (const key of keys) expect(key).toBe(key | 0);
    expect(() => bandKeys(new Uint32Array(10), DUPLICATES)).toThrow(RangeError);
  });

  it('indexes keys in memory: a document is found through any of its bands', () => {
    const params = { bands: 4, rows: 2 };
    const signatures = [
      Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8]),
      Uint32Array.from([1, 2, 9, 9, 9, 9, 9, 9]), // band 0 as document 0
      Uint32Array.from([9, 9, 9, 9, 9, 9, 7, 8]), // band 3 as document 0
      Uint32Array.from([2, 1, 4, 3, 6, 5, 8, 7]), // the same values in other slots
    ];
    const keys = new Int32Array(signatures.length * params.bands);
    signatures.forEach((s, i) => writeBandKeys(s, params, keys, i * params.bands));
    const index = new BandIndex(keys, params.bands);
    expect(index.candidates(bandKeys(signatures[0], params))).toEqual([0, 1, 2]);
    expect(index.candidates(bandKeys(signatures[3], params))).toEqual([3]);
    expect(index.candidates([])).toEqual([]);
  });
});
