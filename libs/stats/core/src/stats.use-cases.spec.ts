import type { Principal, Role } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import type { AuditInstance, AuditInstanceAccess, CountAuditDocuments, DocumentVisibility, GetMemberStanding, ListAccessibleInstances } from '@svc/workspace-core';
import { DailyCounters, DashboardCounters, FilteredStats, VisibleDocuments, zeroCounters } from './stats';
import { StatsReadModel } from './stats.ports';
import { GetDailyStats, GetDashboard, GetFilteredStats, GetUserStats, StatsSubject } from './stats.use-cases';

const principal = (userId: string, roles: Role[] = ['STEWARD']): Principal => ({ organizationId: 'org_1', userId, roles, credential: { kind: 'org_api_key', id: 'k' } });
const instance = (id: string, ownerFlag = false): AuditInstance => ({
  id,
  organizationId: 'org_1',
  name: `Instance ${id}`,
  step: 'RUNNING_PHASE',
  configuration: { need_detect_owner_document_feature: ownerFlag },
  createdAt: new Date('2026-11-01T00:00:00Z'),
  updatedAt: new Date('2026-11-01T00:00:00Z'),
});
const access = (id: string, isAdmin: boolean, ownerFlag = false): AuditInstanceAccess => ({ instanceId: id, organizationId: 'org_1', isMember: true, isInstanceAdmin: isAdmin, isAdmin, instance: instance(id, ownerFlag) });

/** Owner visibility as workspace decides it: owner flag on and not an admin → the owned documents. */
const visibility = (owned: Record<string, string[]>) =>
  ({ visibleTo: async (a: AuditInstanceAccess, userId: string): Promise<VisibleDocuments> => (a.instance.configuration.need_detect_owner_document_feature && !a.isAdmin ? (owned[userId] ?? []) : 'all') }) as unknown as DocumentVisibility;

class RecordingReadModel extends StatsReadModel {
  readonly calls: { method: string; args: unknown[] }[] = [];
  days = new Map<string, DailyCounters>();
  async filtered(instanceId: string, visible: VisibleDocuments): Promise<Omit<FilteredStats, 'total_documents'>> {
    this.calls.push({ method: 'filtered', args: [instanceId, visible] });
    return { total_questions: 3, questions_with_conflicts_to_manage: 1, questions_with_conflicts_analyzed: 1, managed_questions: 0, questions_without_conflicts: 1, missing_subjects_count: 0, total_conflicts: 2, managed_important_conflicts: 1, documents_to_update_count: 1, documents_with_unmanaged_conflicts: 2, estimated_total_update_time: 120, questions_not_analyzed_yet: 0 };
  }
  async daily(...args: [string, Date, Date, string | null, VisibleDocuments]) {
    this.calls.push({ method: 'daily', args });
    return this.days;
  }
  async dashboard(scopes: { instanceId: string; visible: VisibleDocuments }[]) {
    this.calls.push({ method: 'dashboard', args: [scopes] });
    const counters: DashboardCounters = { unresolved_question_conflicts: 4, unresolved_full_audit_conflicts: 1, pending_mandatory_questions: 2, pending_missing_subjects: 0, pending_duplicate_clusters: 3 };
    return new Map(scopes.filter((s) => s.instanceId !== 'ki_empty').map((s) => [s.instanceId, counters]));
  }
}

/** Members of the instance: id → is admin (global or instance). */
const standing = (members: Record<string, boolean>) => ({ execute: async (_: AuditInstanceAccess, userId: string) => (userId in members ? { isAdmin: members[userId] } : null) }) as unknown as GetMemberStanding;
const MEMBERS = { alice: false, bob: false, carol: true, admin: true };

describe('GetFilteredStats', () => {
  it('adds the repository count of the documents the caller sees, and reads the counters over them', async () => {
    const read = new RecordingReadModel();
    const counted: string[] = [];
    const documents = { execute: async (p: Principal) => (counted.push(p.userId), 7) } as unknown as CountAuditDocuments;
    const use = new GetFilteredStats(read, visibility({ alice: ['kd_1'] }), documents);
    expect(await use.execute({ principal: principal('alice'), access: access('ki_1', false, true) })).toMatchObject({ total_documents: 7, total_conflicts: 2 });
    expect(read.calls).toEqual([{ method: 'filtered', args: ['ki_1', ['kd_1']] }]);
    await use.execute({ principal: principal('admin', ['ADMIN']), access: access('ki_1', true, true) });
    expect(read.calls[1]).toEqual({ method: 'filtered', args: ['ki_1', 'all'] });
    expect(counted).toEqual(['alice', 'admin']);
  });
});

describe('StatsSubject, GetUserStats and GetDailyStats: whose activity a caller may read', () => {
  const read = new RecordingReadModel();
  const subject = new StatsSubject(standing(MEMBERS));
  const user = new GetUserStats(read, visibility({}), subject);
  const daily = new GetDailyStats(read, visibility({}), subject);
  const range = { beginDate: '2026-11-20', endDate: '2026-11-26' };

  it('anyone reads their own (the caller when user_id is left out), summed over the range', async () => {
    read.days = new Map([
      ['2026-11-21', { ...zeroCounters(), conflicts_answered: 2 }],
      ['2026-11-25', { ...zeroCounters(), conflicts_answered: 1, questions_created: 4 }],
    ]);
    expect(await user.execute({ principal: principal('alice'), access: access('ki_1', false), ...range })).toEqual({ user_id: 'alice', begin_date: '2026-11-20', end_date: '2026-11-26', ...zeroCounters(), conflicts_answered: 3, questions_created: 4 });
    expect(read.calls.at(-1)!.args.slice(0, 4)).toEqual(['ki_1', new Date('2026-11-20T00:00:00Z'), new Date('2026-11-27T00:00:00Z'), 'alice']);
  });

  it('a non-admin asking about someone else is a 403, whether the user exists or not', async () => {
    for (const target of ['bob', 'nobody']) {
      expect(await domainErrorOf(user.execute({ principal: principal('alice'), access: access('ki_1', false), userId: target, ...range }))).toMatchObject({ kind: 'forbidden', code: 'STATS.OTHER_USER' });
      expect(await domainErrorOf(daily.execute({ principal: principal('alice'), access: access('ki_1', false), userId: target, ...range }))).toMatchObject({ code: 'STATS.OTHER_USER' });
    }
  });

  it('an admin reads a member, gets false for another admin, a 404 for a non-member; "" in the daily stats is everyone', async () => {
    const admin = { principal: principal('admin', ['ADMIN']), access: access('ki_1', true), ...range };
    expect(await user.execute({ ...admin, userId: 'bob' })).toMatchObject({ user_id: 'bob' });
    expect(await user.execute({ ...admin, userId: 'carol' })).toBe(false);
    expect(await daily.execute({ ...admin, userId: 'carol' })).toBe(false);
    expect(await domainErrorOf(user.execute({ ...admin, userId: 'nobody' }))).toMatchObject({ kind: 'not_found', code: 'STATS.USER_NOT_FOUND' });
    const rows = await daily.execute({ ...admin, userId: '' });
    expect(rows).toHaveLength(7);
    expect(read.calls.at(-1)!.args[3]).toBeNull();
  });

  it('reads nothing when the range is invalid', async () => {
    const before = read.calls.length;
    expect(await domainErrorOf(user.execute({ principal: principal('alice'), access: access('ki_1', false), beginDate: '2026-11-26', endDate: '2026-11-20' }))).toMatchObject({ code: 'REQUEST.EMPTY_RANGE' });
    expect(read.calls.length).toBe(before);
  });
});

describe('GetDashboard', () => {
  it('one entry per accessible instance in their order, zero counters where nothing was counted, each with the visibility of that instance', async () => {
    const read = new RecordingReadModel();
    const accesses = [access('ki_owned', false, true), access('ki_open', false, false), access('ki_empty', true, true)];
    const instances = { execute: async () => accesses } as unknown as ListAccessibleInstances;
    const entries = await new GetDashboard(instances, visibility({ alice: ['kd_9'] }), read).execute(principal('alice'));
    expect(entries.map((e) => e.instance_id)).toEqual(['ki_owned', 'ki_open', 'ki_empty']);
    expect(read.calls).toEqual([{ method: 'dashboard', args: [[{ instanceId: 'ki_owned', visible: ['kd_9'] }, { instanceId: 'ki_open', visible: 'all' }, { instanceId: 'ki_empty', visible: 'all' }]] }]);
    expect(entries[0]).toEqual({ instance_id: 'ki_owned', name: 'Instance ki_owned', step: 'RUNNING_PHASE', unresolved_question_conflicts: 4, unresolved_full_audit_conflicts: 1, pending_mandatory_questions: 2, pending_missing_subjects: 0, pending_duplicate_clusters: 3 });
    expect(entries[2]).toMatchObject({ unresolved_question_conflicts: 0, pending_duplicate_clusters: 0 });
  });
});
