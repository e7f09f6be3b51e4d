import { fmix32, murmurStep } from './hash32';

/** Bound once (see hash32.ts: a global lookup per iteration is slow under Jest). */
const imul = Math.imul;
const floor = Math.floor;

/** LSH banding: a signature cut into `bands` bands of `rows` slots; two documents are candidates when one band is equal. */
export interface LshParameters {
  bands: number;
  rows: number;
}

/** How much a missed pair and a needless candidate weigh when choosing the banding. */
export interface LshWeights {
  falsePositive: number;
  falseNegative: number;
}

/**
 * Candidates are verified with their exact Jaccard, so a needless candidate costs one merge of two shingle
 * sets, while a missed pair is a duplicate nobody is told about: misses weigh nine times more.
 */
export const LSH_WEIGHTS: LshWeights = { falsePositive: 0.1, falseNegative: 0.9 };

/** Probability that two documents of Jaccard `s` share at least one band: 1 − (1 − sʳ)ᵇ. */
export function candidateProbability(s: number, params: LshParameters): number {
  return 1 - Math.pow(1 - Math.pow(s, params.rows), params.bands);
}

/** ∫ f over [from, to] by composite Simpson's rule (f is smooth: a polynomial of degree b·r). */
function integrate(f: (s: number) => number, from: number, to: number, intervals = 200): number {
  const h = (to - from) / intervals;
  let sum = f(from) + f(to);
  for (let i = 1; i < intervals; i++) sum += f(from + i * h) * (i % 2 === 1 ? 4 : 2);
  return (sum * h) / 3;
}

/**
 * The banding for a Jaccard threshold (datasketch's method): among every `bands × rows ≤ permutations`,
 * the one that minimises the weighted areas of false positives (pairs below the threshold that become
 * candidates, ∫₀ᵗ P(s) ds) and false negatives (pairs at or above it that do not, ∫ₜ¹ 1 − P(s) ds).
 * Ties keep the fewest bands (fewer keys to store).
 */
export function lshParameters(threshold: number, permutations: number, weights: LshWeights = LSH_WEIGHTS): LshParameters {
  if (!(threshold > 0 && threshold < 1)) throw new RangeError(`threshold must be in (0, 1), got ${threshold}`);
  if (!Number.isInteger(permutations) || permutations < 1) throw new RangeError(`permutations must be a positive integer, got ${permutations}`);
  let best: LshParameters = { bands: 1, rows: 1 };
  let bestError = Infinity;
  for (let bands = 1; bands <= permutations; bands++) {
    for (let rows = 1; rows * bands <= permutations; rows++) {
      const params = { bands, rows };
      const falsePositive = integrate((s) => candidateProbability(s, params), 0, threshold);
      const falseNegative = integrate((s) => 1 - candidateProbability(s, params), threshold, 1);
      const error = weights.falsePositive * falsePositive + weights.falseNegative * falseNegative;
      if (error < bestError - 1e-12) {
        bestError = error;
        best = params;
      }
    }
  }
  return best;
}

/** Mixed into each band's hash so that equal slot values in different bands give different keys. */
const BAND_SALT = 0x9e3779b1;

function bandKey(signature: Uint32Array, band: number, rows: number): number {
  let h = fmix32(imul(band + 1, BAND_SALT));
  const start = band * rows;
  for (let r = 0; r < rows; r++) h = murmurStep(h, signature[start + r]);
  return fmix32(h ^ rows) | 0;
}

function checkBanding(signature: Uint32Array, params: LshParameters): void {
  if (params.bands * params.rows > signature.length) {
    throw new RangeError(`${params.bands} bands of ${params.rows} rows need ${params.bands * params.rows} slots, the signature has ${signature.length}`);
  }
}

/**
 * One signed 32-bit key per band (MurmurHash3 of the band's slots, seeded with the band's number), for a
 * PostgreSQL `int4[]` with a GIN index: documents sharing any key (`&&`) are the LSH candidates. Keys of
 * different bands are equal only by a 2⁻³² collision.
 */
export function bandKeys(signature: Uint32Array, params: LshParameters): number[] {
  checkBanding(signature, params);
  const keys: number[] = new Array(params.bands);
  for (let band = 0; band < params.bands; band++) keys[band] = bandKey(signature, band, params.rows);
  return keys;
}

/** {@link bandKeys} written into `out` at `offset` (the in-memory index keeps every document's keys in one array). */
export function writeBandKeys(signature: Uint32Array, params: LshParameters, out: Int32Array, offset: number): void {
  checkBanding(signature, params);
  for (let band = 0; band < params.bands; band++) out[offset + band] = bandKey(signature, band, params.rows);
}

/** Entries at most this many documents can be packed with their key into one exact double (2²¹ × 2³² ≤ 2⁵³). */
const PACKED_DOCUMENTS = 1 << 21;

/**
 * An in-memory band index: every (key, document) entry sorted by key in two typed arrays, so a lookup is a
 * binary search and the index of 100,000 documents weighs a few megabytes (a Map of arrays would weigh
 * hundreds). Documents are numbered 0..n−1; keys are `n × bands` in document order.
 */
export class BandIndex {
  private readonly keys: Int32Array;
  private readonly documents: Int32Array;

  constructor(
    keysByDocument: Int32Array,
    readonly bands: number,
  ) {
    const n = keysByDocument.length / bands;
    if (!Number.isInteger(n)) throw new RangeError(`${keysByDocument.length} keys are not a whole number of documents of ${bands} bands`);
    const total = keysByDocument.length;
    this.keys = new Int32Array(total);
    this.documents = new Int32Array(total);
    if (n <= PACKED_DOCUMENTS) {
      // Typed-array sort is numeric and native: (key + 2³¹) · 2²¹ + document sorts by key, then document.
      const packed = new Float64Array(total);
      for (let e = 0; e < total; e++) packed[e] = (keysByDocument[e] + 0x80000000) * PACKED_DOCUMENTS + floor(e / bands);
      packed.sort();
      for (let e = 0; e < total; e++) {
        const high = floor(packed[e] / PACKED_DOCUMENTS);
        this.keys[e] = high - 0x80000000;
        this.documents[e] = packed[e] - high * PACKED_DOCUMENTS;
      }
    } else {
      const order = Array.from({ length: total }, (_, e) => e).sort((x, y) => keysByDocument[x] - keysByDocument[y] || x - y);
      order.forEach((e, i) => {
        this.keys[i] = keysByDocument[e];
        this.documents[i] = floor(e / bands);
      });
    }
  }

  /** The first entry whose key is not below `key`. */
  private lowerBound(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Calls `visit` for each document filed under `key` (ascending). */
  forEachDocument(key: number, visit: (document: number) => void): void {
    for (let e = this.lowerBound(key); e < this.keys.length && this.keys[e] === key; e++) visit(this.documents[e]);
  }

  /** The documents that share at least one of `keys`, ascending, each once. */
  candidates(keys: ArrayLike<number>): number[] {
    const found = new Set<number>();
    for (let i = 0; i < keys.length; i++) this.forEachDocument(keys[i], (d) => found.add(d));
    return [...found].sort((a, b) => a - b);
  }
}
