import { fingerprint } from '../answers/decide-question';
import type { Claim } from './claims';

/** Tuning of the rule-based judge, set on the demo corpus (tools/eval), never on single findings. */
export const CLAIM_JUDGE = {
  /** Two claims are about the same thing when their subjects overlap this much (shared informative stems over the smaller subject). */
  minSubjectSimilarity: 0.5,
  /** And share at least this many informative stems. */
  minSharedStems: 2,
  /** A stem in more than this share of the claims says nothing about what a claim is about. */
  maxStemShare: 0.15,
};

/** Two claims of different documents that give different values for the same thing. */
export interface ClaimContradiction {
  fingerprint: string;
  attribute: string;
  /** The informative stems both claims share: what they disagree about. */
  shared: string[];
  similarity: number;
  claims: [Claim, Claim];
}

/**
 * The contradictions among claims (ANALYSIS.md §4 steps 2-3), without comparing every pair: claims are
 * blocked by attribute and by the informative subject stems they share (an inverted index), only pairs
 * of different documents are judged, and a pair contradicts when the subjects overlap enough, the scopes
 * agree (none, or a shared name) and the values differ. One finding per pair of documents and
 * attribute, the closest pair of claims; fingerprints from the normalised claims.
 */
export function findContradictions(claims: readonly Claim[]): ClaimContradiction[] {
  const df = new Map<string, number>();
  for (const c of claims) for (const s of c.subject) df.set(s, (df.get(s) ?? 0) + 1);
  // A small repository has no stems common enough to ignore.
  const limit = Math.max(10, CLAIM_JUDGE.maxStemShare * claims.length);
  const informative = claims.map((c) => new Set(c.subject.filter((s) => (df.get(s) ?? 0) <= limit)));

  // Blocking: attribute + informative stem → claims; pairs counted by the stems they share.
  const index = new Map<string, number[]>();
  claims.forEach((c, i) => {
    for (const s of informative[i]) {
      const key = `${c.attribute}|${s}`;
      const list = index.get(key) ?? [];
      list.push(i);
      index.set(key, list);
    }
  });
  const shared = new Map<string, number>();
  for (const list of index.values()) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const [a, b] = [list[x], list[y]];
        if (claims[a].documentId === claims[b].documentId) continue;
        const key = a < b ? `${a}:${b}` : `${b}:${a}`;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  }

  const best = new Map<string, ClaimContradiction>();
  for (const [key, count] of shared) {
    if (count < CLAIM_JUDGE.minSharedStems) continue;
    const [a, b] = key.split(':').map(Number);
    const [ca, cb] = [claims[a], claims[b]];
    if (ca.value.key === cb.value.key || !sameScope(ca.scope, cb.scope)) continue;
    // Overlap coefficient: a long sentence and a short one about the same thing still match.
    const similarity = count / Math.max(1, Math.min(informative[a].size, informative[b].size));
    if (similarity < CLAIM_JUDGE.minSubjectSimilarity) continue;
    const common = [...informative[a]].filter((s) => informative[b].has(s)).sort();
    const pairKey = `${[ca.documentId, cb.documentId].sort().join('|')}|${ca.attribute}`;
    const found: ClaimContradiction = { fingerprint: fingerprintOf(ca, cb, common), attribute: ca.attribute, shared: common, similarity, claims: ca.documentId < cb.documentId ? [ca, cb] : [cb, ca] };
    const seen = best.get(pairKey);
    if (!seen || similarity > seen.similarity) best.set(pairKey, found);
  }
  return [...best.values()].sort((x, y) => y.similarity - x.similarity || (x.fingerprint < y.fingerprint ? -1 : 1));
}

/** No names on one side (a general statement), or a name in common. */
function sameScope(a: readonly string[], b: readonly string[]): boolean {
  return a.length === 0 || b.length === 0 || a.some((x) => b.includes(x));
}

function fingerprintOf(a: Claim, b: Claim, shared: string[]): string {
  const sides = [`${a.attribute}=${a.value.key}`, `${b.attribute}=${b.value.key}`].sort();
  return fingerprint(`${shared.join(' ')}|${sides.join('|')}`);
}
