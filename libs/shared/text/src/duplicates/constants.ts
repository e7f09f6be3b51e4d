/**
 * The duplicate detection's parameters, measured in tools/eval (README "Duplicates"). Canonical hashes,
 * signatures and band keys are stored: a change to `shingleSize`, `permutations`, `seed`, `bands`, `rows`, to
 * the hashing itself or to the canonical text (canonical.ts) must bump `version`, and the stored fingerprints
 * be recomputed.
 */
export const DUPLICATES = {
  /**
   * Version of the stored fingerprint format (canonical hash, shingles, signatures, band keys). 2: the canonical
   * text of one document is the same in HTML and in Markdown (page chrome, every HTML 4 entity, images, escaped
   * marks, typographic quotes and dashes).
   */
  version: 2,
  /**
   * Word 3-shingles. Measured over k = 2..5: on the demo corpus the planted near pairs keep Jaccard ≥ 0.757
   * at k = 3 (0.793 at 2, 0.722 at 4) while generated look-alikes (one template, other facts) stay ≤ 0.55
   * (0.66 at 2); larger k spreads pairs with the same edit rate more widely.
   */
  shingleSize: 3,
  /** MinHash permutations: 128 slots, 512 bytes a document; the estimate's standard error is ≤ 0.045. */
  permutations: 128,
  /** Seed of the MinHash permutations. */
  seed: 0x5eedd00d,
  /**
   * Default Jaccard threshold of a near-duplicate: below the demo's planted pairs (≥ 0.757), above generated
   * look-alikes (≤ 0.55) and copies with 16 % of their words edited (≤ 0.67).
   */
  threshold: 0.7,
  /** `lshParameters(0.7, 128)`: 20 bands of 6 rows; a pair at 0.7 is a candidate with probability 0.92, at 0.75 with 0.98. */
  bands: 20,
  rows: 6,
} as const;
