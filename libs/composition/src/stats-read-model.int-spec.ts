import { loadConfig } from '@svc/config';
import { Database, TypeOrmUnitOfWork } from '@svc/database';
import { newId } from '@svc/kernel';
import { zeroCounters } from '@svc/stats-core';
import { SqlStatsReadModel } from '@svc/stats-infra';
import { createTestDatabase, TestDatabase } from '@svc/test-kit';
import { PERSISTENCE } from './persistence';

/**
 * The stats read model on PostgreSQL, over rows written as the contexts write them: what each
 * counter counts (states, pending UPDATE/DELETE recommendations, unresolved conflicts' documents),
 * the activity log by UTC day and by user, and the owner-visibility restriction. The embedded
 * database runs the same SQL in the stats e2e tests.
 */
describe('SqlStatsReadModel (postgres)', () => {
  let testDb: TestDatabase;
  let db: Database;
  let read: SqlStatsReadModel;
  const ORG = 'org_stats';
  const t0 = new Date('2026-11-20T10:00:00.000Z');
  const q = (sql: string, params: unknown[]) => db.unitOfWork.manager().query(sql, params);

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    db = await Database.open(loadConfig({ ...testDb.env, LOG_LEVEL: 'silent' }), PERSISTENCE);
    read = new SqlStatsReadModel(db.unitOfWork);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  async function instance(): Promise<string> {
    const id = newId('ki_');
    await q(`INSERT INTO workspace.audit_instances (id, organization_id, name, step, configuration, created_at, updated_at) VALUES ($1, $2, 'Stats', 'RUNNING_PHASE', '{}', $3, $3)`, [id, ORG, t0]);
    return id;
  }
  const question = async (instanceId: string, state: string) => {
    const id = newId('mq_');
    await q(`INSERT INTO questions.mandatory_questions (id, instance_id, organization_id, question, state, created_at, updated_at) VALUES ($1, $2, $3, 'q?', $4, $5, $5)`, [id, instanceId, ORG, state, t0]);
    return id;
  };
  const conflict = async (instanceId: string, questionId: string, state: string, documentIds: string[]) => {
    const id = newId('qc_');
    await q(
      `INSERT INTO conflicts.question_conflicts (id, instance_id, organization_id, question_id, question, fingerprint, state, scope, groups, companion_questions, document_ids, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'q?', $1, $5, '{}', '[]', '[]', $6, $7, $7)`,
      [id, instanceId, ORG, questionId, state, documentIds, t0],
    );
    return id;
  };
  const recommendation = (instanceId: string, conflictId: string, documentId: string, action: string, status: string, seconds: number) =>
    q(`INSERT INTO conflicts.recommendations (id, instance_id, conflict_id, document_id, action, excerpt, reason, estimated_seconds, status, created_at) VALUES ($1, $2, $3, $4, $5, 'x', 'r', $6, $7, $8)`, [
      newId('rec_'),
      instanceId,
      conflictId,
      documentId,
      action,
      seconds,
      status,
      t0,
    ]);
  const fullAudit = (instanceId: string, state: string, documentIds: string[]) =>
    q(
      `INSERT INTO full_audit.conflicts (id, instance_id, organization_id, fingerprint, state, attribute, subject, explanation, excerpts, document_ids, compagnon_questions, created_at, updated_at, last_seen_at)
       VALUES ($1, $2, $3, $1, $4, 'a', 's', 'e', '[]', $5, '[]', $6, $6, $6)`,
      [newId('fc_'), instanceId, ORG, state, documentIds, t0],
    );
  const cluster = async (instanceId: string, state: string, documentIds: string[]) => {
    const id = newId('dup_');
    await q(`INSERT INTO duplicates.clusters (id, instance_id, organization_id, state, document_ids, canonical_hash, similarity, exact, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'h', 1, true, $6, $6)`, [id, instanceId, ORG, state, documentIds, t0]);
    return id;
  };
  const subject = (instanceId: string, state: string) =>
    q(`INSERT INTO missing_subjects.subjects (id, instance_id, organization_id, label, state, profile, question_count, created_at, updated_at) VALUES ($1, $2, $3, 'l', $4, '{}', 1, $5, $5)`, [newId('ms_'), instanceId, ORG, state, t0]);
  const activity = (instanceId: string, action: string, subjectId: string, actor: string | null, at: string, before: object | null, after: object | null) =>
    q(`INSERT INTO activity.entries (id, organization_id, instance_id, action, subject_id, actor_user_id, before, after, occurred_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      newId('act_'),
      ORG,
      instanceId,
      action,
      subjectId,
      actor,
      before && JSON.stringify(before),
      after && JSON.stringify(after),
      new Date(at),
    ]);

  it('filtered: each counter counts what BEHAVIOUR.md §9 says, and a visibility restriction counts only those documents', async () => {
    const id = await instance();
    const [d1, d2, d3, d4] = ['kd_1', 'kd_2', 'kd_3', 'kd_4'];
    const open = await question(id, 'CONFLICTS');
    const done = await question(id, 'MANAGED');
    await question(id, 'NO_CONFLICT');
    await question(id, 'PENDING');
    await question(id, 'ANALYZING');
    await question(id, 'REFUSED');
    await conflict(id, open, 'OPEN', [d1, d2]);
    await conflict(id, open, 'MANAGED', [d1, d3]);
    const managed = await conflict(id, done, 'MANAGED', [d3, d4]);
    const ignored = await conflict(id, done, 'IGNORED', [d2, d4]);
    const keepOnly = await conflict(id, done, 'MANAGED', [d4]);
    await recommendation(id, managed, d3, 'UPDATE', 'PENDING', 300);
    await recommendation(id, managed, d4, 'DELETE', 'PENDING', 60);
    await recommendation(id, managed, d4, 'KEEP', 'PENDING', 0);
    await recommendation(id, keepOnly, d4, 'KEEP', 'PENDING', 0);
    await recommendation(id, ignored, d2, 'UPDATE', 'DISCARDED', 500);
    // Carried out already: still an important managed conflict, no longer work to do.
    const applied = await conflict(id, done, 'MANAGED', [d1]);
    await recommendation(id, applied, d1, 'UPDATE', 'APPLIED', 900);
    await subject(id, 'PENDING');
    await subject(id, 'MANAGED');
    // Another instance's rows are never counted.
    const other = await instance();
    await conflict(other, await question(other, 'CONFLICTS'), 'OPEN', [d1]);

    expect(await read.filtered(id, 'all')).toEqual({
      total_questions: 6,
      questions_with_conflicts_to_manage: 1,
      questions_with_conflicts_analyzed: 1,
      managed_questions: 1,
      questions_without_conflicts: 1,
      missing_subjects_count: 2,
      total_conflicts: 6,
      managed_important_conflicts: 2,
      documents_to_update_count: 2,
      documents_with_unmanaged_conflicts: 2,
      estimated_total_update_time: 360,
      questions_not_analyzed_yet: 2,
    });
    // Owning d3 only: the managed conflicts touching it, its own pending UPDATE; the OPEN conflict (d1, d2) is not theirs.
    expect(await read.filtered(id, [d3])).toMatchObject({
      total_questions: 6,
      questions_with_conflicts_to_manage: 0,
      questions_with_conflicts_analyzed: 2,
      total_conflicts: 2,
      managed_important_conflicts: 1,
      documents_to_update_count: 1,
      estimated_total_update_time: 300,
      documents_with_unmanaged_conflicts: 0,
    });
    expect(await read.filtered(id, [d2])).toMatchObject({ questions_with_conflicts_to_manage: 1, total_conflicts: 2, documents_with_unmanaged_conflicts: 1, documents_to_update_count: 0 });
    expect(await read.filtered(id, [d1])).toMatchObject({ total_conflicts: 3, managed_important_conflicts: 1, documents_to_update_count: 0, estimated_total_update_time: 0 });
    expect(await read.filtered(id, [])).toMatchObject({ total_conflicts: 0, documents_with_unmanaged_conflicts: 0, total_questions: 6 });
  });

  it('daily: the activity log by UTC day and by user; repeated set-managed and answers count once; visibility restricts conflict entries', async () => {
    const id = await instance();
    const mine = await question(id, 'CONFLICTS');
    const seen = await conflict(id, mine, 'MANAGED', ['kd_a']);
    const hidden = await conflict(id, mine, 'IGNORED', ['kd_b']);
    const dup = await cluster(id, 'MANAGED', ['kd_a', 'kd_c']);
    await activity(id, 'audit_mandatory_question_create', mine, 'usr_steward', '2026-11-20T23:59:59Z', null, { state: 'PENDING' });
    await activity(id, 'question_conflict.detected', seen, null, '2026-11-21T00:00:00Z', null, { state: 'OPEN', question_id: mine });
    await activity(id, 'question_conflict.detected', hidden, null, '2026-11-21T08:00:00Z', null, { state: 'OPEN', question_id: mine });
    await activity(id, 'audit_question_conflict_set_answer', seen, 'usr_expert', '2026-11-21T09:00:00Z', { state: 'OPEN' }, { state: 'RECOMMENDATIONS_READY' });
    await activity(id, 'audit_question_conflict_set_answer', seen, 'usr_expert', '2026-11-21T09:05:00Z', { state: 'RECOMMENDATIONS_READY' }, { state: 'RECOMMENDATIONS_READY' });
    await activity(id, 'audit_question_conflict_close', seen, 'usr_expert', '2026-11-21T10:00:00Z', { state: 'RECOMMENDATIONS_READY' }, { state: 'MANAGED' });
    await activity(id, 'audit_question_conflict_ignore', hidden, 'usr_expert', '2026-11-21T11:00:00Z', { state: 'OPEN' }, { state: 'IGNORED' });
    await activity(id, 'audit_full_audit_set_state', 'fc_x', 'usr_steward', '2026-11-22T10:00:00Z', { state: 'DETECTED' }, { state: 'IGNORED' });
    await activity(id, 'audit_full_audit_set_state', 'fc_x', 'usr_steward', '2026-11-22T10:01:00Z', { state: 'IGNORED' }, { state: 'DETECTED' });
    await activity(id, 'audit_full_audit_conflict_close', 'fc_y', 'usr_expert', '2026-11-22T11:00:00Z', { state: 'DETECTED' }, { state: 'MANAGED' });
    await activity(id, 'audit_duplicate_set_managed', dup, 'usr_steward', '2026-11-22T12:00:00Z', { state: 'DETECTED' }, { state: 'MANAGED' });
    await activity(id, 'audit_duplicate_set_managed', dup, 'usr_steward', '2026-11-22T12:01:00Z', { state: 'MANAGED' }, { state: 'MANAGED' });
    await activity(id, 'audit_missing_subject_set_state', 'ms_x', 'usr_expert', '2026-11-22T13:00:00Z', { state: 'PENDING' }, { state: 'IGNORED' });
    await activity(id, 'audit_missing_subject_set_state', 'ms_x', 'usr_expert', '2026-11-22T13:01:00Z', { state: 'IGNORED' }, { state: 'MANAGED' });
    await activity(id, 'audit_documents_set_owner', 'kd_a', 'usr_admin', '2026-11-22T14:00:00Z', null, null);

    const everyone = await read.daily(id, new Date('2026-11-20T00:00:00Z'), new Date('2026-11-23T00:00:00Z'), null, 'all');
    expect([...everyone.keys()].sort()).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(everyone.get('2026-11-20')).toEqual({ ...zeroCounters(), questions_created: 1 });
    expect(everyone.get('2026-11-21')).toEqual({ ...zeroCounters(), conflicts_detected: 2, conflicts_answered: 1, conflicts_managed: 1, conflicts_ignored: 1 });
    expect(everyone.get('2026-11-22')).toEqual({ ...zeroCounters(), full_audit_ignored: 1, full_audit_managed: 1, duplicates_managed: 1, missing_subjects_managed: 1 });

    // The steward created the question: the detections on it are theirs.
    const steward = await read.daily(id, new Date('2026-11-20T00:00:00Z'), new Date('2026-11-23T00:00:00Z'), 'usr_steward', 'all');
    expect(steward.get('2026-11-21')).toEqual({ ...zeroCounters(), conflicts_detected: 2 });
    expect(steward.get('2026-11-22')).toEqual({ ...zeroCounters(), full_audit_ignored: 1, duplicates_managed: 1 });
    const expert = await read.daily(id, new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z'), 'usr_expert', 'all');
    expect([...expert.entries()]).toEqual([['2026-11-21', { ...zeroCounters(), conflicts_answered: 1, conflicts_managed: 1, conflicts_ignored: 1 }]]);

    // Owning kd_a: the conflict and cluster touching it count, the other conflict does not; full-audit entries of conflicts that no longer exist do not.
    const owner = await read.daily(id, new Date('2026-11-20T00:00:00Z'), new Date('2026-11-23T00:00:00Z'), null, ['kd_a']);
    expect(owner.get('2026-11-21')).toEqual({ ...zeroCounters(), conflicts_detected: 1, conflicts_answered: 1, conflicts_managed: 1 });
    expect(owner.get('2026-11-22')).toEqual({ ...zeroCounters(), duplicates_managed: 1, missing_subjects_managed: 1 });
  });

  it('dashboard: the counters of many instances in one read, and one instance restricted to owned documents', async () => {
    const a = await instance();
    const b = await instance();
    const empty = await instance();
    const qa = await question(a, 'CONFLICTS');
    await question(a, 'REFUSED');
    await question(a, 'NO_CONFLICT');
    await question(a, 'IGNORED');
    await conflict(a, qa, 'OPEN', ['kd_1']);
    await conflict(a, qa, 'ANSWERED', ['kd_2']);
    await conflict(a, qa, 'RECOMMENDATIONS_READY', ['kd_2']);
    await conflict(a, qa, 'MANAGED', ['kd_1']);
    await fullAudit(a, 'DETECTED', ['kd_1', 'kd_2']);
    await fullAudit(a, 'REDETECTED', ['kd_3']);
    await fullAudit(a, 'DISAPPEARED', ['kd_1']);
    await cluster(a, 'DETECTED', ['kd_1', 'kd_9']);
    await cluster(a, 'RESOLVED', ['kd_2', 'kd_8']);
    await subject(a, 'PENDING');
    await subject(a, 'IGNORED');
    await question(b, 'PENDING');

    const all = await read.dashboard([
      { instanceId: a, visible: 'all' },
      { instanceId: b, visible: 'all' },
      { instanceId: empty, visible: 'all' },
    ]);
    expect(all.get(a)).toEqual({ unresolved_question_conflicts: 3, unresolved_full_audit_conflicts: 2, pending_mandatory_questions: 2, pending_missing_subjects: 1, pending_duplicate_clusters: 1 });
    expect(all.get(b)).toEqual({ unresolved_question_conflicts: 0, unresolved_full_audit_conflicts: 0, pending_mandatory_questions: 1, pending_missing_subjects: 0, pending_duplicate_clusters: 0 });
    expect(all.get(empty)).toEqual({ unresolved_question_conflicts: 0, unresolved_full_audit_conflicts: 0, pending_mandatory_questions: 0, pending_missing_subjects: 0, pending_duplicate_clusters: 0 });
    const restricted = await read.dashboard([{ instanceId: a, visible: ['kd_2'] }, { instanceId: b, visible: 'all' }]);
    expect(restricted.get(a)).toEqual({ unresolved_question_conflicts: 2, unresolved_full_audit_conflicts: 1, pending_mandatory_questions: 2, pending_missing_subjects: 1, pending_duplicate_clusters: 0 });
    expect(restricted.get(b)).toMatchObject({ pending_mandatory_questions: 1 });
  });

  it('identical concurrent reads share one statement; a different read, or one after, counts again', async () => {
    const id = await instance();
    await question(id, 'PENDING');
    let statements = 0;
    const counting = {
      manager: () => {
        const manager = db.unitOfWork.manager();
        return { query: (sql: string, params: unknown[]) => ((statements += 1), manager.query(sql, params)) };
      },
    } as unknown as TypeOrmUnitOfWork;
    const model = new SqlStatsReadModel(counting);
    const [a, b, other] = await Promise.all([model.filtered(id, 'all'), model.filtered(id, 'all'), model.filtered(id, ['kd_1'])]);
    expect(statements).toBe(2);
    expect(a).toEqual(b);
    expect(other.total_questions).toBe(1);
    await question(id, 'PENDING');
    expect((await model.filtered(id, 'all')).total_questions).toBe(2);
    expect(statements).toBe(3);
  });
});
