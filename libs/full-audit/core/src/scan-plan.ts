import type { FindingPair, FullAuditConflict, FullAuditExcerpt, FullAuditFinding, FullAuditState } from './full-audit-conflict';
import { scanOutcome } from './full-audit.states';
import { describedExcerpts, pairsOf } from './findings';

export type ScanStep =
  | { kind: 'insert'; finding: FullAuditFinding }
  | { kind: 'refresh'; conflict: FullAuditConflict; finding: FullAuditFinding }
  | { kind: 'move'; conflict: FullAuditConflict; finding: FullAuditFinding | null; state: FullAuditState; event: 'redetected' | 'returned' | 'disappeared' }
  | { kind: 'mark-absent'; conflict: FullAuditConflict };

/**
 * What one judgement does (ANALYSIS.md §4 step 4, ADR 0046), pure. `existing` are the stored conflicts the
 * scan examined (every one for a full scan; those touching the changed documents for an incremental one),
 * `found` the disagreements the judge found there, `touching` the changed documents of an incremental scan
 * (null for a full one). A finding is a stored conflict found again when they share a pair (two statements
 * that cannot both hold) or a statement, the one sharing most when several do: documents may join or leave a
 * disagreement, or change what they say, without making it a new one, and it keeps its identity, state and answer. A finding that shares no pair is
 * inserted (an IGNORED conflict keeps its pairs, so what it holds is never raised again). An incremental scan
 * judged only the pairs touching the changed documents: a stored conflict keeps its pairs between other
 * documents, merged with what was found. The others follow `scanOutcome`. `changedAt`: when each document's
 * content last changed.
 */
export function planScan(existing: FullAuditConflict[], found: FullAuditFinding[], changedAt: Map<string, Date>, touching: ReadonlySet<string> | null = null): ScanStep[] {
  // Each pair's and each statement's stored conflict: the oldest holding it (existing comes oldest first).
  const byPair = new Map<string, FullAuditConflict>();
  const byStatement = new Map<string, FullAuditConflict>();
  for (const c of existing) {
    for (const p of pairsOf(c)) if (!byPair.has(p.fingerprint)) byPair.set(p.fingerprint, c);
    for (const e of c.excerpts) if (!byStatement.has(statementKey(e))) byStatement.set(statementKey(e), c);
  }
  const order = new Map(existing.map((c, i) => [c.id, i]));
  const matched = new Set<string>();
  const steps: ScanStep[] = [];
  const seen = new Set<string>();
  const latestChange = (documentIds: string[]) => documentIds.map((id) => changedAt.get(id)).filter((d): d is Date => d !== undefined).sort((x, y) => y.getTime() - x.getTime())[0] ?? null;
  const reconcile = (conflict: FullAuditConflict, finding: FullAuditFinding) => {
    const outcome = scanOutcome(conflict, true, latestChange(finding.documentIds));
    if (outcome.kind === 'refresh') steps.push({ kind: 'refresh', conflict, finding });
    else if (outcome.kind === 'to') steps.push({ kind: 'move', conflict, finding, state: outcome.state, event: outcome.event });
  };

  for (const finding of found) {
    if (seen.has(finding.fingerprint)) continue;
    seen.add(finding.fingerprint);
    // The stored conflicts it shares pairs or statements with (a statement of a changed document is new, so an
    // incremental scan meets its conflict through the unchanged documents' statements).
    const shares = new Map<FullAuditConflict, number>();
    const share = (c: FullAuditConflict | undefined) => c && !matched.has(c.id) && shares.set(c, (shares.get(c) ?? 0) + 1);
    for (const p of pairsOf(finding)) share(byPair.get(p.fingerprint));
    for (const e of finding.excerpts) share(byStatement.get(statementKey(e)));
    const conflict = [...shares.entries()].sort((x, y) => y[1] - x[1] || order.get(x[0].id)! - order.get(y[0].id)!)[0]?.[0];
    if (!conflict) {
      steps.push({ kind: 'insert', finding });
      continue;
    }
    matched.add(conflict.id);
    reconcile(conflict, merged(conflict, finding, touching));
  }
  for (const conflict of existing) {
    if (matched.has(conflict.id)) continue;
    // Its pairs between documents the incremental scan did not judge still stand (a finding that had gone away does not come back so).
    const kept = touching && (conflict.state === 'DETECTED' || conflict.state === 'REDETECTED' || conflict.state === 'MANAGED') ? keptPart(conflict, touching) : null;
    if (kept) {
      reconcile(conflict, kept);
      continue;
    }
    const outcome = scanOutcome(conflict, false, null);
    if (outcome.kind === 'to') steps.push({ kind: 'move', conflict, finding: null, state: outcome.state, event: outcome.event });
    else if (outcome.kind === 'mark-absent') steps.push({ kind: 'mark-absent', conflict });
  }
  return steps;
}

/** The finding as the stored conflict becomes: its identity, and for an incremental scan its pairs between unchanged documents too. */
function merged(conflict: FullAuditConflict, finding: FullAuditFinding, touching: ReadonlySet<string> | null): FullAuditFinding {
  if (!touching) return { ...finding, fingerprint: conflict.fingerprint };
  const kept = keptPart(conflict, touching);
  if (!kept) return { ...finding, fingerprint: conflict.fingerprint };
  return withStatements(conflict.fingerprint, finding.attribute, finding.subject, [...kept.pairs, ...finding.pairs], [...kept.excerpts, ...finding.excerpts]);
}

/** A stored conflict's pairs between documents an incremental scan did not change, with their excerpts; null when none. */
function keptPart(conflict: FullAuditConflict, touching: ReadonlySet<string>): FullAuditFinding | null {
  const pairs = pairsOf(conflict).filter((p) => !p.documentIds.some((d) => touching.has(d)));
  if (pairs.length === 0) return null;
  const documents = new Set(pairs.flatMap((p) => p.documentIds));
  return withStatements(conflict.fingerprint, conflict.attribute, conflict.subject, pairs, conflict.excerpts.filter((e) => documents.has(e.documentId)));
}

/** A finding of these pairs and excerpts (each once, grouped by value, the most stated first), described again. */
function withStatements(fingerprint: string, attribute: string, subject: string, pairs: FindingPair[], excerpts: FullAuditExcerpt[]): FullAuditFinding {
  const uniquePairs = [...new Map(pairs.map((p) => [p.fingerprint, p])).values()];
  const unique = [...new Map(excerpts.map((e) => [statementKey(e), e])).values()];
  const count = new Map<string, number>();
  for (const e of unique) count.set(e.valueKey, (count.get(e.valueKey) ?? 0) + 1);
  const ordered = unique.sort((x, y) => count.get(y.valueKey)! - count.get(x.valueKey)! || compare(x.valueKey, y.valueKey) || compare(x.documentId, y.documentId));
  return {
    fingerprint,
    pairs: uniquePairs,
    attribute,
    subject,
    ...describedExcerpts(attribute, subject, ordered),
    excerpts: ordered,
    documentIds: [...new Set(ordered.map((e) => e.documentId))].sort(),
  };
}

/** A statement across scans: its document, its value and its sentence (a node's id changes when its document is indexed again). */
function statementKey(e: FullAuditExcerpt): string {
  return `${e.documentId}|${e.valueKey}|${e.text}`;
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
