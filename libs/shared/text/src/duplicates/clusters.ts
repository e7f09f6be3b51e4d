import { DUPLICATES } from './constants';
import { BandIndex, LshParameters, writeBandKeys } from './lsh';
import { jaccard, jaccardAtLeast } from './shingles';

/** What the clustering needs of a document: its canonical hash, shingles ({@link wordShingles}) and MinHash signature. */
export interface DuplicateDocument {
  id: string;
  canonicalHash: string;
  shingles: Uint32Array;
  signature: Uint32Array;
}

export interface DuplicateCluster {
  /** Ascending. */
  documentIds: string[];
  /** The canonical hash most of the cluster's documents have; on a tie, the smallest. */
  canonicalHash: string;
  /** The lowest Jaccard between two of its documents (1 for exact duplicates), at or above the threshold. */
  similarity: number;
  /** Every document has the same canonical text. */
  exact: boolean;
}

export interface DuplicateOptions {
  /** Two documents are near-duplicates when the Jaccard of their shingles is at least this. */
  threshold: number;
  /** The banding that finds the candidates (must fit the signatures). */
  params: LshParameters;
}

export const DEFAULT_DUPLICATE_OPTIONS: DuplicateOptions = {
  threshold: DUPLICATES.threshold,
  params: { bands: DUPLICATES.bands, rows: DUPLICATES.rows },
};

/** Documents with one canonical text: compared once, reported together. */
interface Content {
  hash: string;
  ids: string[];
  shingles: Uint32Array;
  signature: Uint32Array;
}

/** A verified near-duplicate pair of contents (indices into the contents, `a < b`). */
interface Edge {
  a: number;
  b: number;
  similarity: number;
}

/** Counts and phase times of one {@link findDuplicateClusters} run, for benchmarks and logs. */
export interface DuplicateRunStats {
  /** Documents with words. */
  documents: number;
  /** Distinct canonical texts among them. */
  contents: number;
  /** Pairs of contents sharing a band, each counted once. */
  candidatePairs: number;
  /** Candidate pairs whose exact Jaccard reaches the threshold. */
  verifiedPairs: number;
  /** Milliseconds: grouping by hash and band keys with their index; candidate pairs; exact Jaccard; complete linkage and output. */
  ms: { index: number; candidates: number; verification: number; clustering: number };
}

/**
 * The duplicate clusters of a repository. Exact duplicates are grouped by canonical hash. Near-duplicates:
 * contents that share an LSH band are candidates, and a candidate pair is kept when the exact Jaccard of
 * its shingles reaches the threshold. Kept pairs are joined by complete linkage, strongest first: two
 * groups merge only when every pair across them reaches the threshold, so a cluster never chains
 * unrelated documents (A ~ B and B ~ C with A ≁ C puts C apart), and its `similarity` — the lowest pair —
 * is a bound every member meets. Each document is in one cluster at most; documents without words in
 * none. The output is sorted (clusters by first id) and independent of the input's order. `stats`, when
 * given, receives counts and phase times.
 */
export function findDuplicateClusters(
  documents: readonly DuplicateDocument[],
  options: DuplicateOptions = DEFAULT_DUPLICATE_OPTIONS,
  stats?: DuplicateRunStats,
): DuplicateCluster[] {
  const clock = stats ? () => performance.now() : () => 0;
  const started = clock();
  const contents = groupContents(documents);
  const { bands } = options.params;
  const keys = new Int32Array(contents.length * bands);
  contents.forEach((c, i) => writeBandKeys(c.signature, options.params, keys, i * bands));
  const index = new BandIndex(keys, bands);
  const indexed = clock();
  const candidates = candidatePairs(index, keys, contents.length);
  const paired = clock();
  const edges = verify(contents, candidates, options.threshold);
  const verified = clock();
  const groups = completeLinkage(contents, edges, options.threshold);
  const clusters: DuplicateCluster[] = [];
  for (const group of groups) {
    const members = group.members.map((c) => contents[c]);
    const documentIds = members.flatMap((c) => c.ids).sort(compareStrings);
    if (documentIds.length < 2) continue;
    clusters.push({ documentIds, canonicalHash: representativeHash(members), similarity: group.similarity, exact: members.length === 1 });
  }
  clusters.sort((x, y) => compareStrings(x.documentIds[0], y.documentIds[0]));
  if (stats) {
    const done = clock();
    Object.assign(stats, {
      documents: contents.reduce((sum, c) => sum + c.ids.length, 0),
      contents: contents.length,
      candidatePairs: candidates.length / 2,
      verifiedPairs: edges.length,
      ms: { index: indexed - started, candidates: paired - indexed, verification: verified - paired, clustering: done - verified },
    });
  }
  return clusters;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Documents with words, grouped by canonical hash, contents ordered by their smallest id (so ties break the same way whatever the input order). */
function groupContents(documents: readonly DuplicateDocument[]): Content[] {
  const byHash = new Map<string, Content>();
  const seen = new Set<string>();
  for (const doc of documents) {
    if (seen.has(doc.id)) throw new Error(`document ${doc.id} is listed twice`);
    seen.add(doc.id);
    if (doc.shingles.length === 0) continue;
    const content = byHash.get(doc.canonicalHash);
    if (content) content.ids.push(doc.id);
    else byHash.set(doc.canonicalHash, { hash: doc.canonicalHash, ids: [doc.id], shingles: doc.shingles, signature: doc.signature });
  }
  const contents = [...byHash.values()];
  for (const c of contents) c.ids.sort(compareStrings);
  return contents.sort((x, y) => compareStrings(x.ids[0], y.ids[0]));
}

/**
 * The pairs of contents that share a band, flattened (`a0, b0, a1, b1, …`, a < b), each once: for each
 * content, the later contents filed under one of its keys, deduplicated with a stamp per content rather
 * than a set of pairs.
 */
function candidatePairs(index: BandIndex, keys: Int32Array, count: number): Int32Array {
  const { bands } = index;
  const stamp = new Int32Array(count).fill(-1);
  let pairs = new Int32Array(1024);
  let length = 0;
  for (let a = 0; a < count; a++) {
    for (let band = 0; band < bands; band++) {
      index.forEachDocument(keys[a * bands + band], (b) => {
        if (b <= a || stamp[b] === a) return;
        stamp[b] = a;
        if (length + 2 > pairs.length) {
          const grown = new Int32Array(pairs.length * 2);
          grown.set(pairs);
          pairs = grown;
        }
        pairs[length++] = a;
        pairs[length++] = b;
      });
    }
  }
  return pairs.subarray(0, length);
}

/** The candidate pairs whose exact Jaccard reaches the threshold (a merge stops once the threshold is out of reach). */
function verify(contents: Content[], candidates: Int32Array, threshold: number): Edge[] {
  const edges: Edge[] = [];
  for (let i = 0; i < candidates.length; i += 2) {
    const a = candidates[i];
    const b = candidates[i + 1];
    const similarity = jaccardAtLeast(contents[a].shingles, contents[b].shingles, threshold);
    if (similarity >= threshold) edges.push({ a, b, similarity });
  }
  return edges;
}

interface Group {
  members: number[];
  similarity: number;
}

/**
 * Greedy complete linkage over the verified pairs, highest Jaccard first (ties by content order): a pair
 * whose contents sit in different groups merges them when every cross pair reaches the threshold. A cross
 * pair that is not a verified edge (LSH missed it, or it is below) is measured exactly.
 */
function completeLinkage(contents: Content[], edges: Edge[], threshold: number): Group[] {
  edges.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
  const known = new Map<number, number>();
  const pairKey = (a: number, b: number) => (a < b ? a * contents.length + b : b * contents.length + a);
  for (const e of edges) known.set(pairKey(e.a, e.b), e.similarity);
  const similarity = (a: number, b: number): number => {
    const key = pairKey(a, b);
    let s = known.get(key);
    if (s === undefined) {
      s = jaccard(contents[a].shingles, contents[b].shingles);
      known.set(key, s);
    }
    return s;
  };

  const groupOf = new Int32Array(contents.length).map((_, i) => i);
  const groups: Group[] = contents.map((_, i) => ({ members: [i], similarity: 1 }));
  for (const edge of edges) {
    const x = groups[groupOf[edge.a]];
    const y = groups[groupOf[edge.b]];
    if (x === y) continue;
    let lowest = Math.min(x.similarity, y.similarity);
    let linked = true;
    for (const a of x.members) {
      for (const b of y.members) {
        const s = similarity(a, b);
        if (s < threshold) {
          linked = false;
          break;
        }
        lowest = Math.min(lowest, s);
      }
      if (!linked) break;
    }
    if (!linked) continue;
    x.members.push(...y.members);
    x.similarity = lowest;
    for (const b of y.members) groupOf[b] = groupOf[edge.a];
    y.members = [];
  }
  return groups.filter((g) => g.members.length > 0);
}

/** The hash most documents of the cluster have (exact duplicates inside a near cluster win), the smallest on a tie: independent of ids and input order. */
function representativeHash(members: Content[]): string {
  let best = members[0];
  for (const c of members) {
    if (c.ids.length > best.ids.length || (c.ids.length === best.ids.length && c.hash < best.hash)) best = c;
  }
  return best.hash;
}

/** A stored document that one document duplicates. */
export interface DuplicateMatch {
  id: string;
  canonicalHash: string;
  /** 1 for an exact duplicate, else the exact Jaccard of the shingles. */
  similarity: number;
  exact: boolean;
}

/**
 * The incremental check of one new or changed document: among `candidates` (the stored documents sharing
 * its canonical hash or one of its band keys, which the service looks up in its database), those it
 * duplicates exactly or whose exact Jaccard reaches the threshold, by similarity then id. The same pairs
 * the batch keeps for this document; which cluster it joins is then a matter of the stored clusters.
 */
export function matchDocument(
  document: Pick<DuplicateDocument, 'id' | 'canonicalHash' | 'shingles'>,
  candidates: Iterable<Pick<DuplicateDocument, 'id' | 'canonicalHash' | 'shingles'>>,
  options: Pick<DuplicateOptions, 'threshold'> = DEFAULT_DUPLICATE_OPTIONS,
): DuplicateMatch[] {
  if (document.shingles.length === 0) return [];
  const matches: DuplicateMatch[] = [];
  const seen = new Set<string>([document.id]);
  for (const candidate of candidates) {
    if (seen.has(candidate.id) || candidate.shingles.length === 0) continue;
    seen.add(candidate.id);
    if (candidate.canonicalHash === document.canonicalHash) {
      matches.push({ id: candidate.id, canonicalHash: candidate.canonicalHash, similarity: 1, exact: true });
      continue;
    }
    const similarity = jaccardAtLeast(document.shingles, candidate.shingles, options.threshold);
    if (similarity >= options.threshold) matches.push({ id: candidate.id, canonicalHash: candidate.canonicalHash, similarity, exact: false });
  }
  return matches.sort((x, y) => y.similarity - x.similarity || compareStrings(x.id, y.id));
}
