import type { ActivityLog, Clock, Principal, UnitOfWork } from '@svc/kernel';
import { VersionedRow } from '@svc/kernel/testing';
import type { FullAuditConflict } from './full-audit-conflict';
import type { FullAuditConflictRepository } from './full-audit.ports';
import { FullAuditEdits } from './full-audit.use-cases';

/** One stored conflict with its version, changed by "a scan" or "another person" between a read and a write. */
function store(initial: Partial<FullAuditConflict>) {
  const rows = new VersionedRow({
    id: 'fac_1', instanceId: 'ki_1', organizationId: 'org_1', fingerprint: 'fp', pairs: [], attribute: 'duration', subject: 'refunds', explanation: 'x', compagnonQuestions: [], excerpts: [], documentIds: [],
    state: 'DETECTED', linkedQuestions: [], answer: null, compagnonRecommendations: [], createdAt: new Date(0), updatedAt: new Date(0), lastSeenAt: new Date(0), version: 1, ...initial,
  } as unknown as FullAuditConflict);
  const repository = { update: rows.update } as unknown as FullAuditConflictRepository;
  const edits = new FullAuditEdits(repository, { now: () => new Date(1) } as Clock, { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork, { record: async () => undefined } as unknown as ActivityLog);
  return { edits, read: rows.read, meanwhile: rows.meanwhile, row: () => rows.row() };
}

describe('FullAuditEdits.applyLatest: a person’s edit against a scan', () => {
  const actor = { userId: 'usr_1' } as Principal;
  const ignore = async () => ({ changes: { state: 'IGNORED' as const }, action: 'ignore' });

  it('plays the edit again on the conflict read anew when a scan refreshed it or moved it meanwhile', async () => {
    const refreshed = store({});
    refreshed.meanwhile.push({ explanation: 'refreshed by a scan', lastSeenAt: new Date(5) });
    await refreshed.edits.applyLatest(refreshed.read, ignore, actor);
    expect(refreshed.row()).toMatchObject({ state: 'IGNORED', explanation: 'refreshed by a scan', version: 3 });
    const moved = store({ state: 'MANAGED' });
    moved.meanwhile.push({ state: 'REDETECTED' });
    // The edit is rebuilt from what the scan left: answered on the REDETECTED conflict.
    const built: string[] = [];
    await moved.edits.applyLatest(moved.read, async (c) => (built.push(c.state), { changes: { answer: '30 days' }, action: 'answer' }), actor);
    expect(built).toEqual(['MANAGED', 'REDETECTED']);
    expect(moved.row()).toMatchObject({ state: 'REDETECTED', answer: '30 days' });
  });

  it('keeps the 409 when another person answered or moved it meanwhile: no silent overwrite', async () => {
    const answered = store({});
    answered.meanwhile.push({ answer: '14 days' });
    await expect(answered.edits.applyLatest(answered.read, async () => ({ changes: { answer: '30 days' }, action: 'answer' }), actor)).rejects.toMatchObject({ code: 'FULL_AUDIT.CONCURRENT_EDIT' });
    expect(answered.row().answer).toBe('14 days');
    const managed = store({});
    managed.meanwhile.push({ state: 'MANAGED' });
    await expect(managed.edits.applyLatest(managed.read, ignore, actor)).rejects.toMatchObject({ code: 'FULL_AUDIT.CONCURRENT_EDIT' });
  });
});
