/**
 * Duplicate clusters (`dup_`, BEHAVIOUR.md §8): documents with the same canonical content (exact) or
 * word-shingle Jaccard similarity at or above the configured threshold (near). States: DETECTED (found),
 * MANAGED (an expert handled it; verification queued), RESOLVED (at most one distinct canonical content
 * left). A document is in at most one open (DETECTED or MANAGED) cluster; RESOLVED clusters are history
 * and are reopened when their documents are found duplicated again.
 */
export const DUPLICATE_STATES = ['DETECTED', 'MANAGED', 'RESOLVED'] as const;
export type DuplicateState = (typeof DUPLICATE_STATES)[number];

export interface DuplicateCluster {
  id: string;
  instanceId: string;
  organizationId: string;
  state: DuplicateState;
  /** Sorted. */
  documentIds: string[];
  /** The canonical content the cluster is about (for an exact cluster, the one all its documents share). */
  canonicalHash: string;
  /** Lowest verified Jaccard similarity between two of its documents (1 for an exact cluster). */
  similarity: number;
  exact: boolean;
  createdAt: Date;
  updatedAt: Date;
  managedAt: Date | null;
  lastVerificationAt: Date | null;
  version: number;
}

/** A cluster one identification found (what reconciliation compares with the stored clusters). */
export interface FoundCluster {
  documentIds: string[];
  canonicalHash: string;
  similarity: number;
  exact: boolean;
}

export type ClusterChanges = Partial<Pick<DuplicateCluster, 'state' | 'documentIds' | 'canonicalHash' | 'similarity' | 'exact' | 'managedAt' | 'lastVerificationAt' | 'updatedAt'>>;

/** What reconciliation writes: new clusters, and changes to stored ones (never a deletion: clusters are the audit's history). */
export interface ClusterPlan {
  create: FoundCluster[];
  update: { cluster: DuplicateCluster; changes: ClusterChanges }[];
}

const isOpen = (c: DuplicateCluster) => c.state !== 'RESOLVED';
const sameMembers = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * Reconciles what an identification found with the stored clusters it covers (pure). Each found
 * cluster continues the stored one it shares the most documents with (open ones first, then the
 * oldest), so ids, states and the expert's work survive a rerun; otherwise it is new. A continued
 * cluster that gained a document, or a RESOLVED one whose duplicates are back, is DETECTED again; one
 * that only lost documents keeps its state. An open stored cluster no found cluster continues has no
 * duplicates left: RESOLVED, with the time of this check.
 */
export function reconcileClusters(stored: DuplicateCluster[], found: FoundCluster[], now: Date): ClusterPlan {
  const plan: ClusterPlan = { create: [], update: [] };
  const sortedFound = found.map((f) => ({ ...f, documentIds: [...f.documentIds].sort() })).sort((a, b) => (a.documentIds[0] < b.documentIds[0] ? -1 : 1));
  // Every (found, stored) pair sharing documents, the largest overlaps first: a split keeps the id on its larger part.
  // Stored clusters by document: each found cluster meets only the stored ones it shares a document with
  // (a whole-repository rerun would otherwise compare every found cluster with every stored one).
  const byDocument = new Map<string, DuplicateCluster[]>();
  for (const c of stored) {
    for (const id of c.documentIds) {
      const list = byDocument.get(id);
      if (list) list.push(c);
      else byDocument.set(id, [c]);
    }
  }
  const pairs: { f: number; c: DuplicateCluster; overlap: number }[] = [];
  sortedFound.forEach((f, i) => {
    const overlaps = new Map<DuplicateCluster, number>();
    for (const id of new Set(f.documentIds)) for (const c of byDocument.get(id) ?? []) overlaps.set(c, (overlaps.get(c) ?? 0) + 1);
    for (const [c, overlap] of overlaps) pairs.push({ f: i, c, overlap });
  });
  pairs.sort((a, b) => b.overlap - a.overlap || Number(isOpen(b.c)) - Number(isOpen(a.c)) || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0) || a.f - b.f);
  const continues = new Map<number, DuplicateCluster>();
  const claimed = new Set<string>();
  for (const p of pairs) {
    if (continues.has(p.f) || claimed.has(p.c.id)) continue;
    continues.set(p.f, p.c);
    claimed.add(p.c.id);
  }
  sortedFound.forEach((f, i) => {
    const best = continues.get(i);
    if (!best) {
      plan.create.push(f);
      return;
    }
    const gained = f.documentIds.some((id) => !best.documentIds.includes(id));
    const state = best.state === 'RESOLVED' || gained ? 'DETECTED' : best.state;
    const changes: ClusterChanges = {};
    if (!sameMembers(best.documentIds, f.documentIds)) changes.documentIds = f.documentIds;
    if (best.canonicalHash !== f.canonicalHash) changes.canonicalHash = f.canonicalHash;
    if (Math.abs(best.similarity - f.similarity) > 1e-6) changes.similarity = f.similarity;
    if (best.exact !== f.exact) changes.exact = f.exact;
    if (state !== best.state) changes.state = state;
    if (Object.keys(changes).length > 0) plan.update.push({ cluster: best, changes });
  });
  for (const c of stored) {
    if (!claimed.has(c.id) && isOpen(c)) plan.update.push({ cluster: c, changes: { state: 'RESOLVED', lastVerificationAt: now } });
  }
  return plan;
}

/**
 * The verification after set-managed, given the clusters found again among the cluster's documents
 * still in the repository: RESOLVED when none is left (no two of them are duplicates any more),
 * DETECTED otherwise. BEHAVIOUR.md §8 says "at most one distinct canonical content left"; two identical
 * copies would pass that test while the duplication is still there, so ADR 0037 reads it as "at most
 * one copy of each content left".
 */
export function verificationOutcome(stillDuplicated: FoundCluster[]): 'RESOLVED' | 'DETECTED' {
  return stillDuplicated.length === 0 ? 'RESOLVED' : 'DETECTED';
}
