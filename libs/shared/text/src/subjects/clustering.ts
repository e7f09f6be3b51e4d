import { SUBJECTS } from './constants';
import { subjectLabel } from './labels';
import { SubjectProfile } from './subject-profile';
import { questionTerms, SubjectTerm } from './terms';
import { termStatistics, TermStatistics, termVector, TermVector } from './vectors';

/** An unanswered question to group. */
export interface SubjectQuestion {
  id: string;
  text: string;
}

export interface SubjectClusterOptions {
  /** Groups merge while their average-linkage cosine distance is at most this ({@link SUBJECTS.threshold}). */
  threshold: number;
  /** The inverse document frequencies' counts; by default those of the questions clustered. */
  statistics?: TermStatistics;
}

export interface SubjectCluster {
  /** The questions' ids, ascending. */
  ids: string[];
  /** See {@link subjectLabel}; a cluster of one question is labelled by the question itself. */
  label: string;
  /** The distinctive stems, best first. */
  terms: string[];
  /** What the service stores to let new questions join ({@link nearestSubject}). */
  profile: SubjectProfile;
}

export const DEFAULT_SUBJECT_CLUSTER_OPTIONS: SubjectClusterOptions = { threshold: SUBJECTS.threshold };

/** Similarities this close are equal: keeps the nearest-neighbour chain from cycling on rounding. */
const EPSILON = 1e-12;

/**
 * Groups unanswered questions by subject: TF-IDF vectors of their {@link questionTerms}, agglomerative
 * clustering with average linkage (the mean cosine similarity over every pair across two groups) until no
 * two groups are within `threshold`. Every question is in one cluster, alone if need be. Deterministic:
 * questions are taken in id order, ties break by that order, and the output (ids ascending, clusters by
 * first id) does not depend on the input's order.
 *
 * Exact and sparse: the sum of similarities across two groups is the dot product of their vector sums, so
 * each group keeps one sparse sum and an inverted index (stem → groups using it) finds the only groups it
 * can be close to; merges follow nearest-neighbour chains, which give average linkage's result without a
 * distance matrix (10,000 questions would need 200 MB of it). Memory is linear in the terms.
 */
export function clusterQuestions(questions: readonly SubjectQuestion[], options: SubjectClusterOptions = DEFAULT_SUBJECT_CLUSTER_OPTIONS): SubjectCluster[] {
  const sorted = [...questions].sort((x, y) => compareStrings(x.id, y.id));
  for (let i = 1; i < sorted.length; i++) if (sorted[i].id === sorted[i - 1].id) throw new Error(`question ${sorted[i].id} is listed twice`);
  const terms = sorted.map((q) => questionTerms(q.text));
  const stats = options.statistics ?? termStatistics(terms);
  const vectors = terms.map((t) => termVector(t, stats));
  const groups = averageLinkage(vectors, options.threshold);
  return groups
    .map((members) => describe(members, sorted, terms, vectors, stats))
    .sort((x, y) => compareStrings(x.ids[0], y.ids[0]));
}

function describe(members: number[], questions: SubjectQuestion[], terms: SubjectTerm[][], vectors: TermVector[], stats: TermStatistics): SubjectCluster {
  const named = subjectLabel(
    members.map((m) => terms[m]),
    stats,
  );
  // A question alone says its subject better than three of its words ("Call ill come").
  const label = members.length === 1 || !named.label ? questions[members[0]].text.trim().replace(/\s+/gu, ' ') : named.label;
  const size = members.length;
  const sums = new Map<string, number>();
  for (const m of members) for (const [stem, w] of Object.entries(vectors[m])) sums.set(stem, (sums.get(stem) ?? 0) + w);
  const centroid: TermVector = {};
  for (const stem of [...sums.keys()].sort()) centroid[stem] = (sums.get(stem) as number) / size;
  return { ids: members.map((m) => questions[m].id).sort(compareStrings), label, terms: named.terms, profile: { size, centroid } };
}

/**
 * Average linkage over unit vectors by nearest-neighbour chains: follow each group's nearest neighbour
 * until two groups are each other's nearest, merge them, go on from the chain's rest. Average linkage is
 * reducible (a merged group is never nearer to a third than the nearer of its parts), so the chains find
 * the same merges as merging the closest pair each time; and a group whose nearest neighbour is beyond the
 * threshold stays apart for good and leaves the index.
 */
function averageLinkage(vectors: TermVector[], threshold: number): number[][] {
  const n = vectors.length;
  const minSimilarity = 1 - threshold - EPSILON;
  const index = new SumIndex(vectors);
  const done = new Uint8Array(n);
  const todo = Array.from({ length: n }, (_, i) => n - 1 - i);
  const chain: number[] = [];
  for (;;) {
    if (chain.length === 0) {
      let next = todo.pop();
      while (next !== undefined && (done[next] || !index.alive(next))) next = todo.pop();
      if (next === undefined) break;
      chain.push(next);
    }
    const a = chain[chain.length - 1];
    const previous = chain.length > 1 ? chain[chain.length - 2] : -1;
    const { group, similarity } = index.nearest(a, previous);
    if (group < 0 || similarity < minSimilarity) {
      done[a] = 1;
      index.retire(a);
      chain.pop();
    } else if (group === previous) {
      chain.length -= 2;
      todo.push(index.merge(a, previous));
    } else {
      chain.push(group);
    }
  }
  return index.groups();
}

/**
 * The groups' vector sums, sparse, with the inverted index from each stem to the groups using it and their
 * weight. Stems are numbered in order of first use.
 */
class SumIndex {
  private readonly sums: Map<number, number>[];
  private readonly postings: Map<number, number>[] = [];
  private readonly sizes: Int32Array;
  private readonly members: number[][];
  private readonly scores: Float64Array;
  private readonly stamps: Int32Array;
  private stamp = 0;

  constructor(vectors: TermVector[]) {
    const ids = new Map<string, number>();
    this.sums = vectors.map((v, g) => {
      const sum = new Map<number, number>();
      for (const [stem, w] of Object.entries(v)) {
        let t = ids.get(stem);
        if (t === undefined) {
          t = ids.size;
          ids.set(stem, t);
          this.postings.push(new Map());
        }
        sum.set(t, w);
        this.postings[t].set(g, w);
      }
      return sum;
    });
    this.sizes = new Int32Array(vectors.length).fill(1);
    this.members = vectors.map((_, g) => [g]);
    this.scores = new Float64Array(vectors.length);
    this.stamps = new Int32Array(vectors.length).fill(-1);
  }

  alive(g: number): boolean {
    return this.sizes[g] > 0;
  }

  /**
   * The group with the highest average similarity to `g` among those sharing a stem with it: `previous`
   * on a tie (the chain must not cycle), else the smallest index. `group` is -1 when none shares a stem.
   */
  nearest(g: number, previous: number): { group: number; similarity: number } {
    const stamp = ++this.stamp;
    const { scores, stamps, sizes } = this;
    const touched: number[] = [];
    for (const [t, weight] of this.sums[g]) {
      for (const [other, w] of this.postings[t]) {
        if (other === g) continue;
        if (stamps[other] !== stamp) {
          stamps[other] = stamp;
          scores[other] = 0;
          touched.push(other);
        }
        scores[other] += weight * w;
      }
    }
    let group = -1;
    let similarity = -Infinity;
    for (const other of touched) {
      const s = scores[other] / (sizes[g] * sizes[other]);
      if (s > similarity + EPSILON || (s > similarity - EPSILON && (other === previous || (group !== previous && other < group)))) {
        group = other;
        similarity = s;
      }
    }
    return { group, similarity };
  }

  /** Merges two groups into the smaller index, returned. */
  merge(a: number, b: number): number {
    const [keep, drop] = a < b ? [a, b] : [b, a];
    const sum = this.sums[keep];
    for (const [t, w] of this.sums[drop]) {
      const merged = (sum.get(t) ?? 0) + w;
      sum.set(t, merged);
      this.postings[t].delete(drop);
      this.postings[t].set(keep, merged);
    }
    this.sums[drop] = new Map();
    this.sizes[keep] += this.sizes[drop];
    this.sizes[drop] = 0;
    this.members[keep].push(...this.members[drop]);
    this.members[drop] = [];
    return keep;
  }

  /** Takes a group that will merge no more out of the index (its members stay). */
  retire(g: number): void {
    for (const t of this.sums[g].keys()) this.postings[t].delete(g);
  }

  /** The members of each group, ascending. */
  groups(): number[][] {
    return this.members.filter((m) => m.length > 0).map((m) => m.sort((x, y) => x - y));
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
