import { Body, Controller } from '@nestjs/common';
import { AuditOperation, CurrentInstanceAccess, CurrentPrincipal } from '@svc/http';
import type { Principal } from '@svc/kernel';
import { GetDailyStats, GetDashboard, GetFilteredStats, GetUserStats } from '@svc/stats-core';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { DailyStatsInput, DashboardInput, FilteredStatsInput, UserStatsInput } from './stats.dto';

/**
 * The audit by its numbers: what is left to do on an instance, who did what day by day, and the
 * dashboard agents start from. Handlers take (body, principal, access): the MCP tools invoke them so.
 */
@Controller()
export class StatsController {
  constructor(
    private readonly filtered: GetFilteredStats,
    private readonly daily: GetDailyStats,
    private readonly user: GetUserStats,
    private readonly dashboard: GetDashboard,
  ) {}

  @AuditOperation('audit_stats_get_filtered', {
    description:
      'What is left to do on the instance: questions (total, not analyzed yet, with OPEN conflicts to manage, with every conflict past OPEN, without conflicts, MANAGED), missing subjects, question conflicts (total, MANAGED with at least one accepted UPDATE/DELETE recommendation), documents (total, touched by an unresolved question conflict, with pending UPDATE/DELETE recommendations) and the estimated seconds to apply them. With the owner flag on, a non-admin\'s conflict, recommendation and document counters count only the documents they own.',
    input: FilteredStatsInput,
  })
  getFiltered(@Body() _body: FilteredStatsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.filtered.execute({ principal, access });
  }

  @AuditOperation('audit_stats_get_daily', {
    description:
      'One row per UTC day from begin_date to end_date (YYYY-MM-DD, both included, at most 366 days; days without activity at zero): conflicts detected, answered, managed, ignored; full-audit conflicts managed and ignored; questions created and managed; missing subjects managed; duplicate clusters managed. user_id "" counts everyone; a user id counts what that user did (and the conflicts detected on the questions they created): non-admins may give only their own id (403 otherwise), an admin asking about another admin gets false.',
    input: DailyStatsInput,
  })
  getDaily(@Body() body: DailyStatsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.daily.execute({ principal, access, beginDate: body.begin_date, endDate: body.end_date, userId: body.user_id });
  }

  @AuditOperation('audit_stats_get_user', {
    description:
      'The daily counters of one user (the caller when user_id is left out) summed from begin_date to end_date (YYYY-MM-DD, both included). Non-admins may query only themselves (403 otherwise); an admin querying another admin gets false; a user who is not a member is a 404.',
    input: UserStatsInput,
  })
  getUser(@Body() body: UserStatsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.user.execute({ principal, access, beginDate: body.begin_date, endDate: body.end_date, userId: body.user_id });
  }

  @AuditOperation('audit_dashboard_get', {
    description:
      'Where to start: one entry per audit instance the caller can access, newest first, with its step and what is left to do: unresolved question conflicts (OPEN, ANSWERED, RECOMMENDATIONS_READY), unresolved full-audit conflicts (DETECTED, REDETECTED), pending mandatory questions (not yet NO_CONFLICT, MANAGED or IGNORED), PENDING missing subjects and DETECTED duplicate clusters. A non-admin\'s conflict and cluster counters follow the owner flag of each instance.',
    input: DashboardInput,
  })
  getDashboard(@Body() _body: DashboardInput, @CurrentPrincipal() principal: Principal) {
    return this.dashboard.execute(principal);
  }
}
