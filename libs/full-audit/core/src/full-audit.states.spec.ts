import type { FullAuditConflict, FullAuditFinding } from './full-audit-conflict';
import { fullAuditTransition, scanOutcome } from './full-audit.states';
import { planScan } from './scan-plan';

const at = (s: string) => new Date(`2026-01-${s}T00:00:00Z`);

describe('full-audit state table (BEHAVIOUR.md §6)', () => {
  it('close and ignore mirror the question conflicts; a DISAPPEARED conflict takes no move', () => {
    expect(fullAuditTransition('DETECTED', 'close')).toEqual({ kind: 'to', state: 'MANAGED' });
    expect(fullAuditTransition('REDETECTED', 'close')).toEqual({ kind: 'to', state: 'MANAGED' });
    expect(fullAuditTransition('MANAGED', 'close')).toEqual({ kind: 'same' });
    expect(fullAuditTransition('IGNORED', 'close')).toEqual({ kind: 'forbidden' });
    expect(fullAuditTransition('DETECTED', 'ignore')).toEqual({ kind: 'to', state: 'IGNORED' });
    expect(fullAuditTransition('IGNORED', 'ignore')).toEqual({ kind: 'same' });
    expect(fullAuditTransition('MANAGED', 'ignore')).toEqual({ kind: 'forbidden' });
    for (const move of ['close', 'ignore', 'set-answer', 'set-state:managed', 'set-state:ignored', 'set-state:detected'] as const) {
      expect(fullAuditTransition('DISAPPEARED', move)).toEqual({ kind: 'forbidden' });
    }
  });

  it('set-expert-answer keeps the state of an unresolved conflict and is refused on a resolved one', () => {
    expect(fullAuditTransition('DETECTED', 'set-answer')).toEqual({ kind: 'keep' });
    expect(fullAuditTransition('REDETECTED', 'set-answer')).toEqual({ kind: 'keep' });
    expect(fullAuditTransition('MANAGED', 'set-answer')).toEqual({ kind: 'forbidden' });
    expect(fullAuditTransition('IGNORED', 'set-answer')).toEqual({ kind: 'forbidden' });
  });

  it('set-state detected reopens MANAGED and IGNORED; managed and ignored may replace each other', () => {
    expect(fullAuditTransition('MANAGED', 'set-state:detected')).toEqual({ kind: 'to', state: 'DETECTED' });
    expect(fullAuditTransition('IGNORED', 'set-state:detected')).toEqual({ kind: 'to', state: 'DETECTED' });
    expect(fullAuditTransition('REDETECTED', 'set-state:detected')).toEqual({ kind: 'same' });
    expect(fullAuditTransition('IGNORED', 'set-state:managed')).toEqual({ kind: 'to', state: 'MANAGED' });
    expect(fullAuditTransition('MANAGED', 'set-state:ignored')).toEqual({ kind: 'to', state: 'IGNORED' });
  });
});

describe('what a scan does to a stored conflict', () => {
  const managed = { state: 'MANAGED' as const, managedAt: at('10'), absentSince: null };

  it('unresolved: refreshed when found, DISAPPEARED when not; a DISAPPEARED one found again is DETECTED', () => {
    expect(scanOutcome({ state: 'DETECTED', managedAt: null, absentSince: null }, true, null)).toEqual({ kind: 'refresh' });
    expect(scanOutcome({ state: 'REDETECTED', managedAt: at('01'), absentSince: null }, false, null)).toEqual({ kind: 'to', state: 'DISAPPEARED', event: 'disappeared' });
    expect(scanOutcome({ state: 'DISAPPEARED', managedAt: null, absentSince: null }, true, null)).toEqual({ kind: 'to', state: 'DETECTED', event: 'returned' });
    expect(scanOutcome({ state: 'DISAPPEARED', managedAt: null, absentSince: null }, false, null)).toEqual({ kind: 'none' });
  });

  it('MANAGED: stays while its documents are unchanged (the edits are pending); REDETECTED once it went away and came back, or when a changed document still contradicts', () => {
    expect(scanOutcome(managed, true, at('05'))).toEqual({ kind: 'refresh' });
    expect(scanOutcome(managed, true, at('11'))).toEqual({ kind: 'to', state: 'REDETECTED', event: 'redetected' });
    expect(scanOutcome(managed, false, null)).toEqual({ kind: 'mark-absent' });
    expect(scanOutcome({ ...managed, absentSince: at('12') }, false, null)).toEqual({ kind: 'none' });
    expect(scanOutcome({ ...managed, absentSince: at('12') }, true, at('05'))).toEqual({ kind: 'to', state: 'REDETECTED', event: 'redetected' });
  });

  it('IGNORED: never raised again, whatever the scan finds', () => {
    expect(scanOutcome({ state: 'IGNORED', managedAt: null, absentSince: null }, true, at('20'))).toEqual({ kind: 'none' });
    expect(scanOutcome({ state: 'IGNORED', managedAt: null, absentSince: null }, false, null)).toEqual({ kind: 'none' });
  });
});

describe('planScan', () => {
  const finding = (fingerprint: string, documentIds = ['kd_a', 'kd_b']): FullAuditFinding => ({ fingerprint, attribute: 'duration', subject: 's', explanation: 'e', compagnonQuestions: [], excerpts: [], documentIds });
  const stored = (fingerprint: string, state: FullAuditConflict['state'], extra: Partial<FullAuditConflict> = {}): FullAuditConflict =>
    ({ ...finding(fingerprint), id: `fc_${fingerprint}`, instanceId: 'ki_1', organizationId: 'org_1', state, linkedQuestions: [], answer: null, compagnonRecommendations: [], createdAt: at('01'), updatedAt: at('01'), lastSeenAt: at('01'), answeredAt: null, managedAt: null, absentSince: null, version: 1, ...extra }) as FullAuditConflict;

  it('inserts new fingerprints once, never an IGNORED one again, and moves the rest by the lifecycle', () => {
    const steps = planScan(
      [stored('kept', 'DETECTED'), stored('gone', 'DETECTED'), stored('ignored', 'IGNORED'), stored('managed', 'MANAGED', { managedAt: at('05') })],
      [finding('new'), finding('new'), finding('kept'), finding('ignored'), finding('managed')],
      new Map([['kd_a', at('09')]]),
    );
    expect(steps.map((s) => [s.kind, s.kind === 'insert' ? s.finding.fingerprint : s.conflict.fingerprint, s.kind === 'move' ? s.state : null])).toEqual([
      ['insert', 'new', null],
      ['refresh', 'kept', null],
      ['move', 'managed', 'REDETECTED'],
      ['move', 'gone', 'DISAPPEARED'],
    ]);
  });
});
