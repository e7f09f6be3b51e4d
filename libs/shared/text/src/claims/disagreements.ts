import type { Claim } from './claims';
import type { ClaimContradiction } from './find-contradictions';

/**
 * One disagreement (ANALYSIS.md §4 step 4): every statement that the judge found contradicting another on
 * one subject, across however many documents, grouped by the value each gives. Thirty documents that state
 * one fact three ways are one disagreement, not a pair per two documents.
 */
export interface ClaimDisagreement {
  /** Its first pair's fingerprint (the smallest): stable while that pair holds. */
  fingerprint: string;
  attribute: string;
  /** The judge's pairs it is made of, the closest first (as the judge ordered them). */
  pairs: ClaimContradiction[];
  /** Its statements, each once: by value (the most stated first), then by document. */
  claims: Claim[];
  /** The statements grouped by the value they give (canonical key), the most stated first. */
  groups: { key: string; claims: Claim[] }[];
}

/** A statement's identity: its document, its passage, where it starts and what it states. */
export function claimKey(c: Pick<Claim, 'documentId' | 'passageId' | 'start' | 'attribute' | 'value'>): string {
  return `${c.documentId}|${c.passageId}|${c.start}|${c.attribute}|${c.value.key}`;
}

/**
 * The judge's pairs, joined into disagreements: two pairs that share a statement are one disagreement
 * (connected statements, union-find), so a statement contradicted by several documents, and a document's
 * copies that repeat its statement, give one finding. Pure; the order of `pairs` (the judge's, closest
 * first) decides each disagreement's first pair.
 */
export function groupContradictions(pairs: readonly ClaimContradiction[], superseded: ReadonlyMap<string, string | null> = new Map()): ClaimDisagreement[] {
  // A superseded version's differences are one finding: the version is out of date, not each of its values.
  const outdated = new Map<string, ClaimContradiction[]>();
  const current: ClaimContradiction[] = [];
  for (const p of pairs) {
    const old = p.claims.map((c) => c.documentId).find((id) => superseded.has(id));
    if (old === undefined) current.push(p);
    else outdated.set(old, [...(outdated.get(old) ?? []), p]);
  }
  return [...connected(current), ...[...outdated.entries()].map(([old, members]) => disagreementOf(members, supersededAttribute(old, superseded.get(old) ?? null)))];
}

/** The attribute of a superseded version's finding: the version, and the document replacing it when known. */
export const SUPERSEDED_ATTRIBUTE = 'superseded';
export function supersededAttribute(older: string, replacement: string | null): string {
  return `${SUPERSEDED_ATTRIBUTE}:${older}${replacement ? `>${replacement}` : ''}`;
}
/** The superseded version and its replacement an attribute names; null for any other attribute. */
export function supersededOf(attribute: string): { older: string; replacement: string | null } | null {
  if (!attribute.startsWith(`${SUPERSEDED_ATTRIBUTE}:`)) return null;
  const [older, replacement] = attribute.slice(SUPERSEDED_ATTRIBUTE.length + 1).split('>');
  return { older, replacement: replacement ?? null };
}

function connected(pairs: readonly ClaimContradiction[]): ClaimDisagreement[] {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let root = k;
    while (parent.get(root) !== root) root = parent.get(root)!;
    // Path compression: every key on the way points at the root.
    for (let at = k; at !== root; ) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  for (const p of pairs) {
    const [a, b] = p.claims.map(claimKey);
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const byRoot = new Map<string, ClaimContradiction[]>();
  for (const p of pairs) {
    const root = find(claimKey(p.claims[0]));
    const list = byRoot.get(root);
    if (list) list.push(p);
    else byRoot.set(root, [p]);
  }
  return [...byRoot.values()].map((members) => disagreementOf(members, members[0].attribute));
}

/** The disagreement these pairs make: their statements, each once, grouped by value. */
function disagreementOf(members: ClaimContradiction[], attribute: string): ClaimDisagreement {
  const claims = new Map<string, Claim>();
  for (const p of members) for (const c of p.claims) claims.set(claimKey(c), c);
  const groups = new Map<string, Claim[]>();
  for (const c of [...claims.values()].sort((x, y) => compare(x.documentId, y.documentId) || x.start - y.start)) {
    const list = groups.get(c.value.key);
    if (list) list.push(c);
    else groups.set(c.value.key, [c]);
  }
  const ordered = [...groups.entries()].map(([key, list]) => ({ key, claims: list })).sort((x, y) => y.claims.length - x.claims.length || compare(x.key, y.key));
  const fingerprint = members.map((p) => p.fingerprint).sort(compare)[0];
  return { fingerprint, attribute, pairs: members, claims: ordered.flatMap((g) => g.claims), groups: ordered };
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
