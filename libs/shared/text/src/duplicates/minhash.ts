import { DUPLICATES } from './constants';
import { splitMix32 } from './hash32';

/** Bound once (see hash32.ts: a global lookup per iteration is slow under Jest). */
const imul = Math.imul;

/** The signature slot of an empty set: no value of a permutation is above it. */
const EMPTY_SLOT = 0xffffffff;
const SIGN = 0x80000000;

/**
 * MinHash signatures: for each of `permutations` hash functions, the smallest hash of a shingle set. The
 * share of slots where two signatures agree estimates the sets' Jaccard similarity.
 *
 * Each function is `x ↦ a·x + b mod 2³²` with `a` odd (a bijection of the 32-bit integers, two
 * `Math.imul`-speed operations) applied to shingle hashes that MurmurHash3 already spread evenly. The
 * `a`, `b` pairs are drawn from SplitMix32 with a fixed seed, so a signature is the same in every process
 * and release and can be stored.
 */
export class MinHasher {
  readonly permutations: number;
  private readonly multipliers: Int32Array;
  private readonly offsets: Int32Array;

  constructor(permutations: number = DUPLICATES.permutations, seed: number = DUPLICATES.seed) {
    if (!Number.isInteger(permutations) || permutations < 1) throw new RangeError(`permutations must be a positive integer, got ${permutations}`);
    this.permutations = permutations;
    this.multipliers = new Int32Array(permutations);
    this.offsets = new Int32Array(permutations);
    const next = splitMix32(seed);
    for (let i = 0; i < permutations; i++) {
      this.multipliers[i] = next() | 1;
      this.offsets[i] = next();
    }
  }

  /**
   * The signature of a set of shingle hashes (any order, duplicates harmless). An empty set gets every
   * slot at 0xffffffff.
   */
  signature(shingles: Uint32Array): Uint32Array {
    const out = new Uint32Array(this.permutations);
    if (shingles.length === 0) return out.fill(EMPTY_SLOT);
    const a = this.multipliers;
    const b = this.offsets;
    let p = 0;
    // Four permutations per pass over the shingles: each shingle is read once for four, and the four
    // minimums stay in registers (a third faster than one permutation per pass).
    for (; p + 4 <= this.permutations; p += 4) {
      const a0 = a[p], a1 = a[p + 1], a2 = a[p + 2], a3 = a[p + 3];
      const b0 = b[p], b1 = b[p + 1], b2 = b[p + 2], b3 = b[p + 3];
      // Flipping the sign bit makes signed comparison follow unsigned order, so the loop stays on 32-bit integers.
      let m0 = 0x7fffffff, m1 = 0x7fffffff, m2 = 0x7fffffff, m3 = 0x7fffffff;
      for (let i = 0; i < shingles.length; i++) {
        const x = shingles[i];
        const v0 = ((imul(a0, x) + b0) | 0) ^ SIGN;
        const v1 = ((imul(a1, x) + b1) | 0) ^ SIGN;
        const v2 = ((imul(a2, x) + b2) | 0) ^ SIGN;
        const v3 = ((imul(a3, x) + b3) | 0) ^ SIGN;
        if (v0 < m0) m0 = v0;
        if (v1 < m1) m1 = v1;
        if (v2 < m2) m2 = v2;
        if (v3 < m3) m3 = v3;
      }
      out[p] = (m0 ^ SIGN) >>> 0;
      out[p + 1] = (m1 ^ SIGN) >>> 0;
      out[p + 2] = (m2 ^ SIGN) >>> 0;
      out[p + 3] = (m3 ^ SIGN) >>> 0;
    }
    for (; p < this.permutations; p++) {
      let m = 0x7fffffff;
      for (let i = 0; i < shingles.length; i++) {
        const v = ((imul(a[p], shingles[i]) + b[p]) | 0) ^ SIGN;
        if (v < m) m = v;
      }
      out[p] = (m ^ SIGN) >>> 0;
    }
    return out;
  }
}

let defaultHasher: MinHasher | undefined;

/** The signature with the stored parameters (`DUPLICATES.permutations`, `DUPLICATES.seed`). */
export function minHashSignature(shingles: Uint32Array): Uint32Array {
  defaultHasher ??= new MinHasher();
  return defaultHasher.signature(shingles);
}

/** The share of slots where two signatures of the same length agree: an unbiased estimate of their Jaccard. */
export function estimatedJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) throw new RangeError(`signatures of different lengths (${a.length}, ${b.length})`);
  if (a.length === 0) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}
