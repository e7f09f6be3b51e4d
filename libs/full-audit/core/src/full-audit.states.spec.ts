import type { FindingPair, FullAuditConflict, FullAuditExcerpt, FullAuditFinding } from './full-audit-conflict';
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
  const finding = (fingerprint: string, documentIds = ['kd_a', 'kd_b']): FullAuditFinding => ({ fingerprint, pairs: [], attribute: 'duration', subject: 's', explanation: 'e', compagnonQuestions: [], excerpts: [], documentIds });
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

  describe('one finding per disagreement (ADR 0046)', () => {
    const excerpt = (documentId: string, value: string): FullAuditExcerpt => ({ semanticNodeId: `sn_${documentId}`, documentId, documentName: documentId, documentUrl: null, text: `Refunds take ${value}.`, start: 13, end: 13 + value.length, value, valueKey: `duration:${value}`, scope: [] });
    const pair = (fingerprint: string, a: string, b: string): FindingPair => ({ fingerprint, documentIds: [a, b] });
    const disagreement = (fingerprint: string, pairs: FindingPair[], excerpts: FullAuditExcerpt[]): FullAuditFinding => ({ ...finding(fingerprint, [...new Set(excerpts.map((e) => e.documentId))].sort()), pairs, excerpts });
    const a14 = excerpt('kd_a', '14 days');
    const b30 = excerpt('kd_b', '30 days');
    const c30 = excerpt('kd_c', '30 days');
    const refunds = (state: FullAuditConflict['state'] = 'DETECTED') => ({ ...stored('p_ab', state), pairs: [pair('p_ab', 'kd_a', 'kd_b'), pair('p_ac', 'kd_a', 'kd_c')], excerpts: [b30, c30, a14], documentIds: ['kd_a', 'kd_b', 'kd_c'] }) as FullAuditConflict;

    it('finds a stored conflict again through a pair it shares, though another document joined and the first pair changed', () => {
      // kd_d joins with a third value; its pair with kd_a has the smallest fingerprint now.
      const d45 = excerpt('kd_d', '45 days');
      const found = disagreement('p_0ad', [pair('p_0ad', 'kd_a', 'kd_d'), pair('p_ab', 'kd_a', 'kd_b'), pair('p_ac', 'kd_a', 'kd_c')], [b30, c30, a14, d45]);
      const [step] = planScan([refunds()], [found], new Map());
      expect(step).toMatchObject({ kind: 'refresh', conflict: { id: 'fc_p_ab' }, finding: { fingerprint: 'p_ab', documentIds: ['kd_a', 'kd_b', 'kd_c', 'kd_d'] } });
    });

    it('never raises what an IGNORED disagreement holds, even with a document more', () => {
      const found = disagreement('p_ab', [pair('p_ab', 'kd_a', 'kd_b'), pair('p_ac', 'kd_a', 'kd_c'), pair('p_ad', 'kd_a', 'kd_d')], [b30, c30, excerpt('kd_d', '30 days'), a14]);
      expect(planScan([refunds('IGNORED')], [found], new Map())).toEqual([]);
    });

    it('an incremental scan keeps the pairs between documents it did not change', () => {
      // kd_c changed and now agrees with kd_a: nothing found touching it, but kd_a and kd_b still disagree.
      const [kept] = planScan([refunds()], [], new Map(), new Set(['kd_c']));
      expect(kept).toMatchObject({ kind: 'refresh', finding: { fingerprint: 'p_ab', pairs: [pair('p_ab', 'kd_a', 'kd_b')], documentIds: ['kd_a', 'kd_b'] } });
      expect((kept as { finding: FullAuditFinding }).finding.excerpts.map((e) => e.documentId).sort()).toEqual(['kd_a', 'kd_b']);
      // kd_c changed to 60 days: its pairs are new, found against kd_a and kd_b (whose statements the conflict holds), merged with the pair not judged again.
      const c60 = excerpt('kd_c', '60 days');
      const steps = planScan([refunds()], [disagreement('p_ac2', [pair('p_ac2', 'kd_a', 'kd_c'), pair('p_bc', 'kd_b', 'kd_c')], [a14, b30, c60])], new Map(), new Set(['kd_c']));
      expect(steps).toHaveLength(1);
      const [joined] = steps;
      expect(joined).toMatchObject({ kind: 'refresh', finding: { fingerprint: 'p_ab', documentIds: ['kd_a', 'kd_b', 'kd_c'] } });
      expect((joined as { finding: FullAuditFinding }).finding.pairs.map((p) => p.fingerprint).sort()).toEqual(['p_ab', 'p_ac2', 'p_bc']);
      expect((joined as { finding: FullAuditFinding }).finding.explanation).toMatch(/"kd_c" says 60 days/u);
      // A full scan that finds none of its pairs: it disappeared.
      expect(planScan([refunds()], [], new Map())).toMatchObject([{ kind: 'move', state: 'DISAPPEARED' }]);
    });

    it('a conflict stored before findings had pairs is its one pair', () => {
      const legacy = { ...stored('p_ab', 'DETECTED'), pairs: [] } as FullAuditConflict;
      const found = disagreement('p_0', [pair('p_0', 'kd_a', 'kd_c'), pair('p_ab', 'kd_a', 'kd_b')], [a14, b30, c30]);
      expect(planScan([legacy], [found], new Map())).toMatchObject([{ kind: 'refresh', conflict: { id: 'fc_p_ab' }, finding: { fingerprint: 'p_ab' } }]);
    });
  });
});
