import type { FullAuditConflict, FullAuditState } from './full-audit-conflict';

/** What people do to a full-audit conflict (BEHAVIOUR.md §6). */
export type FullAuditMove = 'close' | 'ignore' | 'set-answer' | 'set-state:managed' | 'set-state:ignored' | 'set-state:detected';

export type FullAuditTransition = { kind: 'to'; state: FullAuditState } | { kind: 'keep' } | { kind: 'same' } | { kind: 'forbidden' };

const to = (state: FullAuditState): FullAuditTransition => ({ kind: 'to', state });
const SAME: FullAuditTransition = { kind: 'same' };
const KEEP: FullAuditTransition = { kind: 'keep' };

/**
 * The state table of a full-audit conflict, pure. `to`: the state after the move; `keep`: the move is
 * allowed and leaves the state (set-answer: the state stays until close); `same`: an idempotent repeat;
 * `forbidden`: 409. A DISAPPEARED conflict is history: nothing is done to it (a scan brings it back).
 * close and ignore mirror the question conflicts (close needs no answer: the scan finds no answer to
 * record first; ignore on MANAGED is 409); set-state is the governance override that may also reopen.
 */
const TABLE: Record<FullAuditMove, Partial<Record<FullAuditState, FullAuditTransition>>> = {
  close: { DETECTED: to('MANAGED'), REDETECTED: to('MANAGED'), MANAGED: SAME },
  ignore: { DETECTED: to('IGNORED'), REDETECTED: to('IGNORED'), IGNORED: SAME },
  'set-answer': { DETECTED: KEEP, REDETECTED: KEEP },
  'set-state:managed': { DETECTED: to('MANAGED'), REDETECTED: to('MANAGED'), IGNORED: to('MANAGED'), MANAGED: SAME },
  'set-state:ignored': { DETECTED: to('IGNORED'), REDETECTED: to('IGNORED'), MANAGED: to('IGNORED'), IGNORED: SAME },
  'set-state:detected': { MANAGED: to('DETECTED'), IGNORED: to('DETECTED'), DETECTED: SAME, REDETECTED: SAME },
};

export function fullAuditTransition(from: FullAuditState, move: FullAuditMove): FullAuditTransition {
  return TABLE[move][from] ?? { kind: 'forbidden' };
}

export function statesAllowingFullAudit(move: FullAuditMove): FullAuditState[] {
  return Object.keys(TABLE[move]) as FullAuditState[];
}

/** What a scan does to one stored conflict. */
export type ScanOutcome =
  | { kind: 'refresh' }
  | { kind: 'to'; state: FullAuditState; event: 'redetected' | 'returned' | 'disappeared' }
  | { kind: 'mark-absent' }
  | { kind: 'none' };

/**
 * The scan's half of the lifecycle (ANALYSIS.md §4 step 4), pure. A conflict the scan examined
 * (`inScope`) is either found again (its fingerprint came back) or not:
 * - found: DETECTED/REDETECTED are refreshed; DISAPPEARED comes back as DETECTED; a MANAGED one comes
 *   back as REDETECTED once it had gone away, or when one of its documents changed after it was
 *   managed and still contradicts (the fix did not fix it); until then it stays MANAGED (the
 *   recommended edits are pending). IGNORED is never raised again.
 * - not found: DETECTED/REDETECTED become DISAPPEARED; a MANAGED one is marked absent (it stays
 *   MANAGED, the work is done); IGNORED and DISAPPEARED stay.
 */
export function scanOutcome(conflict: Pick<FullAuditConflict, 'state' | 'managedAt' | 'absentSince'>, found: boolean, documentsChangedAt: Date | null): ScanOutcome {
  switch (conflict.state) {
    case 'DETECTED':
    case 'REDETECTED':
      return found ? { kind: 'refresh' } : { kind: 'to', state: 'DISAPPEARED', event: 'disappeared' };
    case 'DISAPPEARED':
      return found ? { kind: 'to', state: 'DETECTED', event: 'returned' } : { kind: 'none' };
    case 'MANAGED': {
      if (!found) return conflict.absentSince ? { kind: 'none' } : { kind: 'mark-absent' };
      const changedSince = documentsChangedAt !== null && conflict.managedAt !== null && documentsChangedAt > conflict.managedAt;
      return conflict.absentSince || changedSince ? { kind: 'to', state: 'REDETECTED', event: 'redetected' } : { kind: 'refresh' };
    }
    case 'IGNORED':
      return { kind: 'none' };
  }
}
