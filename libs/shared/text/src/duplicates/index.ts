/**
 * Exact and near-duplicate detection (ANALYSIS.md §6): canonical text and its hash, word shingles, MinHash
 * signatures, LSH band keys, exact Jaccard verification and clustering. Pure: the service stores the
 * fingerprints and looks candidates up by band key; everything here is deterministic across processes.
 */
export * from './canonical';
export * from './clusters';
export * from './constants';
export * from './fingerprint';
export * from './lsh';
export * from './minhash';
export * from './shingles';
