import type { FullAuditConflict, FullAuditFinding, FullAuditState } from './full-audit-conflict';
import { scanOutcome } from './full-audit.states';

export type ScanStep =
  | { kind: 'insert'; finding: FullAuditFinding }
  | { kind: 'refresh'; conflict: FullAuditConflict; finding: FullAuditFinding }
  | { kind: 'move'; conflict: FullAuditConflict; finding: FullAuditFinding | null; state: FullAuditState; event: 'redetected' | 'returned' | 'disappeared' }
  | { kind: 'mark-absent'; conflict: FullAuditConflict };

/**
 * What one judgement does (ANALYSIS.md §4 step 4), pure: `existing` are the stored conflicts the scan
 * examined (every one for a full scan; those touching the changed documents for an incremental one),
 * `found` what the judge found there. New fingerprints are inserted (an IGNORED fingerprint is never
 * inserted again: it exists); the others follow `scanOutcome`. `changedAt`: when each document's
 * content last changed.
 */
export function planScan(existing: FullAuditConflict[], found: FullAuditFinding[], changedAt: Map<string, Date>): ScanStep[] {
  const stored = new Map(existing.map((c) => [c.fingerprint, c]));
  const steps: ScanStep[] = [];
  const seen = new Set<string>();
  for (const finding of found) {
    if (seen.has(finding.fingerprint)) continue;
    seen.add(finding.fingerprint);
    const conflict = stored.get(finding.fingerprint);
    if (!conflict) {
      steps.push({ kind: 'insert', finding });
      continue;
    }
    const latest = finding.documentIds.map((id) => changedAt.get(id)).filter((d): d is Date => d !== undefined).sort((x, y) => y.getTime() - x.getTime())[0] ?? null;
    const outcome = scanOutcome(conflict, true, latest);
    if (outcome.kind === 'refresh') steps.push({ kind: 'refresh', conflict, finding });
    else if (outcome.kind === 'to') steps.push({ kind: 'move', conflict, finding, state: outcome.state, event: outcome.event });
  }
  for (const conflict of existing) {
    if (seen.has(conflict.fingerprint)) continue;
    const outcome = scanOutcome(conflict, false, null);
    if (outcome.kind === 'to') steps.push({ kind: 'move', conflict, finding: null, state: outcome.state, event: outcome.event });
    else if (outcome.kind === 'mark-absent') steps.push({ kind: 'mark-absent', conflict });
  }
  return steps;
}
