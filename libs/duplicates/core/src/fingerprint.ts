import { bandKeys, canonicalHash, canonicalText, DUPLICATES, findDuplicateClusters, lshParameters, LshParameters, matchDocument, minHashSignature, wordShingles } from '@svc/text';
import type { FoundCluster } from './duplicate-cluster';
import type { DocumentFingerprint, SourceDocument } from './duplicates.ports';

/** The similarity threshold, the LSH banding chosen for it, and the scheme name stored with each fingerprint. */
export class DuplicatesSettings {
  readonly bands: LshParameters;
  readonly scheme: string;

  /** `pageDocuments`: documents read and fingerprinted per step of a whole-repository run. */
  constructor(
    readonly threshold: number,
    readonly pageDocuments = 200,
  ) {
    this.bands = lshParameters(threshold, DUPLICATES.permutations);
    this.scheme = `v${DUPLICATES.version}:k${DUPLICATES.shingleSize}:b${this.bands.bands}x${this.bands.rows}`;
  }
}

/** A document's fingerprint: canonical hash, shingles, MinHash signature and band keys. */
export function fingerprintOf(document: SourceDocument, settings: DuplicatesSettings): DocumentFingerprint {
  const canonical = canonicalText(document.text);
  const shingles = wordShingles(canonical, DUPLICATES.shingleSize);
  const signature = minHashSignature(shingles);
  return {
    documentId: document.id,
    contentHash: document.contentHash,
    scheme: settings.scheme,
    canonicalHash: canonicalHash(canonical, { canonical: true }),
    shingles,
    signature,
    bandKeys: bandKeys(signature, settings.bands),
  };
}

/** Clusters over these fingerprints: exact copies, and near-duplicates verified on their shingles. */
export function clustersOf(fingerprints: DocumentFingerprint[], settings: DuplicatesSettings): FoundCluster[] {
  return findDuplicateClusters(
    fingerprints.map((f) => ({ id: f.documentId, canonicalHash: f.canonicalHash, shingles: f.shingles, signature: f.signature })),
    { threshold: settings.threshold, params: settings.bands },
  );
}

/** The candidates that really are duplicates of this document (same canonical content, or Jaccard at or above the threshold). */
export function verifiedMatches(fingerprint: DocumentFingerprint, candidates: DocumentFingerprint[], settings: DuplicatesSettings): DocumentFingerprint[] {
  const byId = new Map(candidates.map((c) => [c.documentId, c]));
  const matches = matchDocument(
    { id: fingerprint.documentId, canonicalHash: fingerprint.canonicalHash, shingles: fingerprint.shingles },
    candidates.map((c) => ({ id: c.documentId, canonicalHash: c.canonicalHash, shingles: c.shingles })),
    { threshold: settings.threshold },
  );
  return matches.map((m) => byId.get(m.id)!);
}
