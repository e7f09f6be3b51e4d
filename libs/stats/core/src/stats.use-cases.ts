import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import { AuditInstanceAccess, CountAuditDocuments, DocumentVisibility, GetMemberStanding, ListAccessibleInstances } from '@svc/workspace-core';
import { DailyStatsRow, DashboardEntry, DayRange, dayRange, FilteredStats, fillDays, sumDays, UserStats } from './stats';
import { otherUserForbidden, statsUserNotFound } from './stats.errors';
import { StatsReadModel } from './stats.ports';

/**
 * The filtered stats record of an instance. With the owner flag on, a non-admin's document-bound
 * counters (conflicts, recommendations, documents, and the questions counted through their
 * conflicts: to manage, analyzed) count only the documents they own; the other question counters and
 * the missing subjects are the instance's (questions belong to no document).
 */
@Injectable()
export class GetFilteredStats {
  constructor(
    private readonly read: StatsReadModel,
    private readonly visibility: DocumentVisibility,
    private readonly documents: CountAuditDocuments,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess }): Promise<FilteredStats> {
    const visible = await this.visibility.visibleTo(input.access, input.principal.userId);
    const counted = await this.read.filtered(input.access.instanceId, visible);
    return { ...counted, total_documents: await this.documents.execute(input.principal, input.access) };
  }
}

/**
 * Who may read whose activity: anyone their own, admins anyone's but another admin's (`false`,
 * BEHAVIOUR.md §3); a non-admin asking about someone else is a 403, an unknown user a 404.
 */
@Injectable()
export class StatsSubject {
  constructor(private readonly standing: GetMemberStanding) {}

  async resolve(principal: Principal, access: AuditInstanceAccess, userId: string): Promise<'allowed' | 'other-admin'> {
    if (userId === principal.userId) return 'allowed';
    if (!access.isAdmin) throw otherUserForbidden(userId);
    const target = await this.standing.execute(access, userId);
    if (!target) throw statsUserNotFound(userId, access.instanceId);
    return target.isAdmin ? 'other-admin' : 'allowed';
  }
}

/**
 * One row per UTC day of the range (zero days included) counted from the activity log: everyone's
 * work when `user_id` is "", else one user's under the rules of the per-user stats.
 */
@Injectable()
export class GetDailyStats {
  constructor(
    private readonly read: StatsReadModel,
    private readonly visibility: DocumentVisibility,
    private readonly subject: StatsSubject,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; beginDate: string; endDate: string; userId: string }): Promise<DailyStatsRow[] | false> {
    const activity = await dailyActivity({ read: this.read, visibility: this.visibility, subject: this.subject }, input, input.userId === '' ? null : input.userId);
    return activity && fillDays(activity.range, activity.days);
  }
}

/** The daily counters of one user summed over the range (the caller by default). */
@Injectable()
export class GetUserStats {
  constructor(
    private readonly read: StatsReadModel,
    private readonly visibility: DocumentVisibility,
    private readonly subject: StatsSubject,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; beginDate: string; endDate: string; userId?: string }): Promise<UserStats | false> {
    const userId = input.userId ?? input.principal.userId;
    const activity = await dailyActivity({ read: this.read, visibility: this.visibility, subject: this.subject }, input, userId);
    return activity && { user_id: userId, begin_date: activity.range.first, end_date: activity.range.last, ...sumDays([...activity.days.values()]) };
  }
}

/**
 * The activity of the range, day by day, as the caller may see it: everyone's (`userId` null) or one
 * user's; false when that user is another admin (the per-user rule).
 */
async function dailyActivity(
  ports: { read: StatsReadModel; visibility: DocumentVisibility; subject: StatsSubject },
  input: { principal: Principal; access: AuditInstanceAccess; beginDate: string; endDate: string },
  userId: string | null,
): Promise<{ range: DayRange; days: Awaited<ReturnType<StatsReadModel['daily']>> } | false> {
  const range = dayRange(input.beginDate, input.endDate);
  if (userId !== null && (await ports.subject.resolve(input.principal, input.access, userId)) === 'other-admin') return false;
  const visible = await ports.visibility.visibleTo(input.access, input.principal.userId);
  return { range, days: await ports.read.daily(input.access.instanceId, range.from, range.toExclusive, userId, visible) };
}

/**
 * One entry per instance the caller can access, newest first, with what is left to do on it; a
 * non-admin's document-bound counters follow the owner-visibility rule of each instance.
 */
@Injectable()
export class GetDashboard {
  constructor(
    private readonly instances: ListAccessibleInstances,
    private readonly visibility: DocumentVisibility,
    private readonly read: StatsReadModel,
  ) {}

  async execute(principal: Principal): Promise<DashboardEntry[]> {
    const accesses = await this.instances.execute(principal);
    const scopes = [];
    // One at a time: the embedded database has one connection (only owner-flag instances of a non-admin read anything here).
    for (const access of accesses) scopes.push({ instanceId: access.instanceId, visible: await this.visibility.visibleTo(access, principal.userId) });
    const counters = await this.read.dashboard(scopes);
    return accesses.map(({ instance }) => ({
      instance_id: instance.id,
      name: instance.name,
      step: instance.step,
      unresolved_question_conflicts: 0,
      unresolved_full_audit_conflicts: 0,
      pending_mandatory_questions: 0,
      pending_missing_subjects: 0,
      pending_duplicate_clusters: 0,
      ...counters.get(instance.id),
    }));
  }
}
