/**
 * Vector-neighbour blocking of the full audit (ANALYSIS.md §4.2) without a nearest-neighbour query per
 * node: each node vector is reduced to a 128-bit SimHash (the signs of its projections on 128 fixed
 * random hyperplanes). The share of bits two signatures differ in estimates the angle between the two
 * vectors (Charikar 2002), so their cosine is read from the signatures alone; and signatures cut into
 * bands give locality-sensitive blocks: two vectors at a small angle very likely agree on a whole band.
 * Any dimension count; deterministic (the hyperplanes derive from fixed seeds, never from the data).
 */

export const SIGNATURE_BITS = 128;
/**
 * Bands of `BAND_BITS` bits: two vectors at cosine 0.9 share at least one with probability 0.996, at 0.8
 * with 0.94, at 0.7 with 0.80, at 0.5 with 0.47, unrelated ones with 0.06 (the judge's cap on a block's
 * size keeps the crowded bands of a large repository from being compared pair by pair).
 */
export const SIGNATURE_BANDS = 16;
const BAND_BITS = 8;
const WORDS = SIGNATURE_BITS / 32;

const hyperplanes = new Map<number, Float64Array>();

/** A standard normal deviate from two 32-bit hashes (Box-Muller): Gaussian hyperplanes make SimHash's angle estimate unbiased. */
function gaussian(bit: number, dimension: number): number {
  const u = (mix(bit * 0x9e3779b1 + dimension * 0x85ebca77 + 1) + 1) / 4294967297;
  const v = (mix(bit * 0xc2b2ae3d + dimension * 0x27d4eb2f + 7) + 1) / 4294967297;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

function hyperplanesOf(dimensions: number): Float64Array {
  let planes = hyperplanes.get(dimensions);
  if (!planes) {
    planes = new Float64Array(dimensions * SIGNATURE_BITS);
    for (let d = 0; d < dimensions; d++) for (let b = 0; b < SIGNATURE_BITS; b++) planes[d * SIGNATURE_BITS + b] = gaussian(b, d);
    hyperplanes.set(dimensions, planes);
  }
  return planes;
}

/** The 128-bit SimHash of a vector, as 32 hex digits; null for the zero vector (a text with no word, which matches nothing). */
export function vectorSignature(vector: readonly number[]): string | null {
  const planes = hyperplanesOf(vector.length);
  const sums = new Float64Array(SIGNATURE_BITS);
  let nonZero = false;
  for (let d = 0; d < vector.length; d++) {
    const x = vector[d];
    if (x === 0) continue;
    nonZero = true;
    const at = d * SIGNATURE_BITS;
    for (let b = 0; b < SIGNATURE_BITS; b++) sums[b] += x * planes[at + b];
  }
  if (!nonZero) return null;
  let hex = '';
  for (let w = 0; w < WORDS; w++) {
    let word = 0;
    for (let b = 0; b < 32; b++) if (sums[w * 32 + b] > 0) word |= 1 << b;
    hex += (word >>> 0).toString(16).padStart(8, '0');
  }
  return hex;
}

function words(signature: string): number[] {
  const out: number[] = [];
  for (let w = 0; w < WORDS; w++) out.push(parseInt(signature.slice(w * 8, w * 8 + 8), 16));
  return out;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The cosine of two vectors as their signatures estimate it: cos(π · differing bits / 128). */
export function signatureCosine(a: string, b: string): number {
  const [x, y] = [words(a), words(b)];
  let differing = 0;
  for (let w = 0; w < WORDS; w++) differing += popcount((x[w] ^ y[w]) >>> 0);
  return Math.cos((Math.PI * differing) / SIGNATURE_BITS);
}

/** The signature's bands (`≈<band>:<bits>`): the blocks that make vectors at a small angle neighbours. */
export function signatureBands(signature: string): string[] {
  const bits = words(signature)
    .map((w) => w.toString(2).padStart(32, '0'))
    .join('');
  const bands: string[] = [];
  for (let band = 0; band < SIGNATURE_BANDS; band++) bands.push(`≈${band}:${parseInt(bits.slice(band * BAND_BITS, (band + 1) * BAND_BITS), 2).toString(16)}`);
  return bands;
}

/** Whether a block stem is a signature band (not a word). */
export const isSignatureBand = (stem: string): boolean => stem.startsWith('≈');
