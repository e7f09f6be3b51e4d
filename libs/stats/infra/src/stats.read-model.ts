import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { DAILY_COUNTERS, DailyCounters, DashboardCounters, FilteredStats, StatsReadModel, VisibleDocuments } from '@svc/stats-core';

/** Unresolved question conflicts (not yet MANAGED or IGNORED). */
const UNRESOLVED_QUESTION_CONFLICT = `('OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY')`;

/**
 * What each daily counter counts in the activity log: the actions (entries of state changes; answers may
 * repeat), and a further condition on the entry when an action counts only for some changes.
 */
const DAILY: Record<keyof DailyCounters, { actions: string[]; where?: string; distinct?: boolean }> = {
  conflicts_detected: { actions: ['question_conflict.detected'] },
  // A conflict answered twice the same day counts once.
  conflicts_answered: { actions: ['audit_question_conflict_set_answer', 'question_conflict.answered_by_question'], distinct: true },
  conflicts_managed: { actions: ['audit_question_conflict_close'] },
  conflicts_ignored: { actions: ['audit_question_conflict_ignore'] },
  full_audit_managed: { actions: ['audit_full_audit_conflict_close', 'audit_full_audit_set_state'], where: `e.after->>'state' = 'MANAGED'` },
  full_audit_ignored: { actions: ['audit_full_audit_conflict_ignore', 'audit_full_audit_set_state'], where: `e.after->>'state' = 'IGNORED'` },
  questions_created: { actions: ['audit_mandatory_question_create'] },
  questions_managed: { actions: ['audit_mandatory_question_set_managed'] },
  missing_subjects_managed: { actions: ['audit_missing_subject_set_state'], where: `e.after->>'state' = 'MANAGED'` },
  // set-managed on a cluster already MANAGED queues one more verification: not one more management.
  duplicates_managed: { actions: ['audit_duplicate_set_managed'], where: `e.before->>'state' IS DISTINCT FROM 'MANAGED'` },
};

/** A daily counter as a SQL aggregate (action names are constants of this file, never input). */
const dailySql = ({ actions, where, distinct }: (typeof DAILY)[keyof DailyCounters]): string =>
  `count(${distinct ? 'DISTINCT e.subject_id' : '*'}) FILTER (WHERE e.action IN (${actions.map((a) => `'${a}'`).join(', ')})${where ? ` AND ${where}` : ''})`;

/** Every action some daily counter counts: the statement reads only those entries. */
const DAILY_ACTIONS = [...new Set(Object.values(DAILY).flatMap((d) => d.actions))];

const int = (v: unknown): number => Number(v ?? 0);
const documentsParam = (visible: VisibleDocuments): string[] | null => (visible === 'all' ? null : visible);

/**
 * The stats, counted in SQL over the audit contexts' tables (read only) and the activity log; each
 * call is one statement, so the embedded database's single connection is held once per request.
 */
@Injectable()
export class SqlStatsReadModel extends StatsReadModel {
  /** Reads in flight, by what they read: identical requests arriving together share one statement. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  /**
   * One statement for identical concurrent reads (a team opening the same dashboard, an agent polling):
   * a request that arrives while the same read runs gets its result, so under load the database counts
   * once per statement time instead of once per request. A read is never older than the statement it
   * joined; a read that starts after one finished counts again.
   */
  private shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const started = read().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  filtered(instanceId: string, visible: VisibleDocuments): Promise<Omit<FilteredStats, 'total_documents'>> {
    return this.shared(JSON.stringify(['filtered', instanceId, visible]), () => this.countFiltered(instanceId, visible));
  }

  private async countFiltered(instanceId: string, visible: VisibleDocuments): Promise<Omit<FilteredStats, 'total_documents'>> {
    const [row] = await this.q<Record<string, string>>(
      `WITH c AS (
         SELECT id, question_id, state, document_ids FROM conflicts.question_conflicts
          WHERE instance_id = $1 AND ($2::text[] IS NULL OR document_ids && $2::text[])),
       per_question AS (SELECT question_id, bool_or(state = 'OPEN') AS has_open FROM c GROUP BY question_id),
       -- What a close accepted: UPDATE/DELETE work, still PENDING or already APPLIED to its document.
       accepted AS (
         SELECT conflict_id, document_id, estimated_seconds, status FROM conflicts.recommendations
          WHERE instance_id = $1 AND status IN ('PENDING', 'APPLIED') AND action IN ('UPDATE', 'DELETE')
            AND ($2::text[] IS NULL OR document_id = ANY($2::text[]))),
       pending AS (SELECT * FROM accepted WHERE status = 'PENDING')
       SELECT q.*,
         (SELECT count(*) FROM per_question WHERE has_open) AS questions_with_conflicts_to_manage,
         (SELECT count(*) FROM per_question WHERE NOT has_open) AS questions_with_conflicts_analyzed,
         (SELECT count(*) FROM missing_subjects.subjects WHERE instance_id = $1) AS missing_subjects_count,
         (SELECT count(*) FROM c) AS total_conflicts,
         -- A set intersection, not EXISTS: without statistics (the embedded database has no autovacuum) the
         -- planner turned EXISTS into a nested loop over both sets (1 s at 5,000 conflicts).
         (SELECT count(*) FROM (SELECT id FROM c WHERE c.state = 'MANAGED' INTERSECT SELECT conflict_id FROM accepted) m) AS managed_important_conflicts,
         (SELECT count(DISTINCT document_id) FROM pending) AS documents_to_update_count,
         (SELECT coalesce(sum(estimated_seconds), 0) FROM pending) AS estimated_total_update_time,
         (SELECT count(DISTINCT d) FROM c CROSS JOIN LATERAL unnest(c.document_ids) AS d
           WHERE c.state IN ${UNRESOLVED_QUESTION_CONFLICT} AND ($2::text[] IS NULL OR d = ANY($2::text[]))) AS documents_with_unmanaged_conflicts
       FROM (SELECT count(*) AS total_questions,
                    count(*) FILTER (WHERE state = 'MANAGED') AS managed_questions,
                    count(*) FILTER (WHERE state = 'NO_CONFLICT') AS questions_without_conflicts,
                    count(*) FILTER (WHERE state IN ('PENDING', 'ANALYZING')) AS questions_not_analyzed_yet
               FROM questions.mandatory_questions WHERE instance_id = $1) q`,
      [instanceId, documentsParam(visible)],
    );
    return {
      total_questions: int(row.total_questions),
      questions_with_conflicts_to_manage: int(row.questions_with_conflicts_to_manage),
      questions_with_conflicts_analyzed: int(row.questions_with_conflicts_analyzed),
      managed_questions: int(row.managed_questions),
      questions_without_conflicts: int(row.questions_without_conflicts),
      missing_subjects_count: int(row.missing_subjects_count),
      total_conflicts: int(row.total_conflicts),
      managed_important_conflicts: int(row.managed_important_conflicts),
      documents_to_update_count: int(row.documents_to_update_count),
      documents_with_unmanaged_conflicts: int(row.documents_with_unmanaged_conflicts),
      estimated_total_update_time: int(row.estimated_total_update_time),
      questions_not_analyzed_yet: int(row.questions_not_analyzed_yet),
    };
  }

  daily(instanceId: string, from: Date, toExclusive: Date, userId: string | null, visible: VisibleDocuments): Promise<Map<string, DailyCounters>> {
    return this.shared(JSON.stringify(['daily', instanceId, from, toExclusive, userId, visible]), () => this.countDaily(instanceId, from, toExclusive, userId, visible));
  }

  private async countDaily(instanceId: string, from: Date, toExclusive: Date, userId: string | null, visible: VisibleDocuments): Promise<Map<string, DailyCounters>> {
    const rows = await this.q<Record<string, string>>(
      `SELECT to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              ${DAILY_COUNTERS.map((k) => `${dailySql(DAILY[k])} AS ${k}`).join(',\n              ')}
         FROM activity.entries e
        WHERE e.instance_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3 AND e.action = ANY($4::text[])
          AND ($5::text IS NULL OR e.actor_user_id = $5
               OR (e.action = 'question_conflict.detected' AND e.after->>'question_id' IN (
                     SELECT c.subject_id FROM activity.entries c
                      WHERE c.instance_id = $1 AND c.action = 'audit_mandatory_question_create' AND c.actor_user_id = $5)))
          AND ($6::text[] IS NULL OR CASE
                WHEN e.action LIKE 'audit\\_full\\_audit\\_%' THEN EXISTS (SELECT 1 FROM full_audit.conflicts f WHERE f.id = e.subject_id AND f.document_ids && $6::text[])
                WHEN e.action = 'audit_duplicate_set_managed' THEN EXISTS (SELECT 1 FROM duplicates.clusters d WHERE d.id = e.subject_id AND d.document_ids && $6::text[])
                WHEN e.action LIKE '%question\\_conflict%' THEN EXISTS (SELECT 1 FROM conflicts.question_conflicts q WHERE q.id = e.subject_id AND q.document_ids && $6::text[])
                ELSE true END)
        GROUP BY 1`,
      [instanceId, from, toExclusive, DAILY_ACTIONS, userId, documentsParam(visible)],
    );
    return new Map(rows.map((r) => [r.day, Object.fromEntries(DAILY_COUNTERS.map((k) => [k, int(r[k])])) as DailyCounters]));
  }

  dashboard(scopes: { instanceId: string; visible: VisibleDocuments }[]): Promise<Map<string, DashboardCounters>> {
    return this.shared(JSON.stringify(['dashboard', scopes]), () => this.countDashboard(scopes));
  }

  private async countDashboard(scopes: { instanceId: string; visible: VisibleDocuments }[]): Promise<Map<string, DashboardCounters>> {
    const out = new Map<string, DashboardCounters>();
    const everything = scopes.filter((s) => s.visible === 'all').map((s) => s.instanceId);
    const batches: { ids: string[]; documents: string[] | null }[] = [
      ...(everything.length > 0 ? [{ ids: everything, documents: null }] : []),
      // Instances where the caller sees only owned documents: one read each (rare: non-admins on owner-flag instances).
      ...scopes.filter((s) => s.visible !== 'all').map((s) => ({ ids: [s.instanceId], documents: s.visible as string[] })),
    ];
    for (const batch of batches) {
      const rows = await this.q<Record<string, string>>(
        `SELECT i.id,
           (SELECT count(*) FROM conflicts.question_conflicts c
             WHERE c.instance_id = i.id AND c.state IN ${UNRESOLVED_QUESTION_CONFLICT} AND ($2::text[] IS NULL OR c.document_ids && $2::text[])) AS unresolved_question_conflicts,
           (SELECT count(*) FROM full_audit.conflicts f
             WHERE f.instance_id = i.id AND f.state IN ('DETECTED', 'REDETECTED') AND ($2::text[] IS NULL OR f.document_ids && $2::text[])) AS unresolved_full_audit_conflicts,
           (SELECT count(*) FROM questions.mandatory_questions q
             WHERE q.instance_id = i.id AND q.state IN ('PENDING', 'ANALYZING', 'CONFLICTS', 'REFUSED')) AS pending_mandatory_questions,
           (SELECT count(*) FROM missing_subjects.subjects s WHERE s.instance_id = i.id AND s.state = 'PENDING') AS pending_missing_subjects,
           (SELECT count(*) FROM duplicates.clusters d
             WHERE d.instance_id = i.id AND d.state = 'DETECTED' AND ($2::text[] IS NULL OR d.document_ids && $2::text[])) AS pending_duplicate_clusters
         FROM unnest($1::text[]) AS i(id)`,
        [batch.ids, batch.documents],
      );
      for (const r of rows) {
        out.set(r.id, {
          unresolved_question_conflicts: int(r.unresolved_question_conflicts),
          unresolved_full_audit_conflicts: int(r.unresolved_full_audit_conflicts),
          pending_mandatory_questions: int(r.pending_mandatory_questions),
          pending_missing_subjects: int(r.pending_missing_subjects),
          pending_duplicate_clusters: int(r.pending_duplicate_clusters),
        });
      }
    }
    return out;
  }
}
