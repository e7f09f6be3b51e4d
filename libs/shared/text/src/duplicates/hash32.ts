/**
 * 32-bit integer hashing shared by shingles, MinHash and band keys. Every function here is part of the
 * stored format: signatures and band keys are kept in the database, so changing one of them means
 * bumping `DUPLICATES.version` and recomputing what is stored.
 */

/**
 * `Math.imul`, bound once: under Jest the globals sit behind a proxy, and looking `Math` up in a hot loop costs
 * about a hundred times the multiplication (plain Node.js runs both forms at the same speed).
 */
const imul = Math.imul;

/** MurmurHash3's finaliser: every input bit moves every output bit (avalanche). */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** One 32-bit block into a running MurmurHash3 state. */
export function murmurStep(state: number, block: number): number {
  let k = imul(block, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = imul(k, 0x1b873593);
  const h = state ^ k;
  return (imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

/**
 * A deterministic stream of 32-bit values from a seed (SplitMix32): the MinHash permutations are drawn
 * from it, so the same seed gives the same permutations in every process and every release.
 */
export function splitMix32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = imul(z ^ (z >>> 16), 0x85ebca6b);
    z = imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}
