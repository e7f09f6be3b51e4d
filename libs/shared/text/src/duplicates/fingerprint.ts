import { canonicalHash, canonicalText } from './canonical';
import { DUPLICATES } from './constants';
import { bandKeys } from './lsh';
import { minHashSignature } from './minhash';
import { wordShingles } from './shingles';

/** What the service stores of a document to find its duplicates (computed with `DUPLICATES`, version `DUPLICATES.version`). */
export interface DuplicateFingerprint {
  canonicalHash: string;
  shingles: Uint32Array;
  signature: Uint32Array;
  /** One per band, for an `int4[]` column with a GIN index. */
  bandKeys: number[];
}

/** Canonical hash, shingles, MinHash signature and band keys of a document's text, canonicalising it once. */
export function duplicateFingerprint(text: string): DuplicateFingerprint {
  const canonical = canonicalText(text);
  const shingles = wordShingles(canonical, DUPLICATES.shingleSize);
  const signature = minHashSignature(shingles);
  return {
    canonicalHash: canonicalHash(canonical, { canonical: true }),
    shingles,
    signature,
    bandKeys: bandKeys(signature, { bands: DUPLICATES.bands, rows: DUPLICATES.rows }),
  };
}
