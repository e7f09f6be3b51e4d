import { Injectable } from '@nestjs/common';
import { selectPage, SqlConditions, TypeOrmUnitOfWork, updateVersioned } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import {
  ConflictChanges,
  ConflictListFilter,
  QuestionConflict,
  QuestionConflictRepository,
  QuestionConflictState,
  Recommendation,
  RecommendationRepository,
  RecommendationStatus,
  Visible,
} from '@svc/conflicts-core';

interface ConflictRow {
  id: string;
  instance_id: string;
  organization_id: string;
  question_id: string;
  question: string;
  fingerprint: string;
  state: QuestionConflictState;
  answer: string | null;
  scope: string[];
  groups: QuestionConflict['groups'];
  companion_questions: string[];
  document_ids: string[];
  newest_document_id: string | null;
  created_at: Date;
  updated_at: Date;
  answered_at: Date | null;
  closed_at: Date | null;
  closed_by: QuestionConflict['closedBy'];
  version: number;
}

const toConflict = (r: ConflictRow): QuestionConflict => ({
  id: r.id,
  instanceId: r.instance_id,
  organizationId: r.organization_id,
  questionId: r.question_id,
  question: r.question,
  fingerprint: r.fingerprint,
  state: r.state,
  answer: r.answer,
  scope: r.scope,
  groups: r.groups,
  companionQuestions: r.companion_questions,
  documentIds: r.document_ids,
  newestDocumentId: r.newest_document_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  answeredAt: r.answered_at,
  closedAt: r.closed_at,
  closedBy: r.closed_by,
  version: r.version,
});

const COLUMNS: Record<keyof ConflictChanges, string> = { state: 'state', answer: 'answer', answeredAt: 'answered_at', closedAt: 'closed_at', closedBy: 'closed_by', updatedAt: 'updated_at' };

@Injectable()
export class TypeOrmQuestionConflictRepository extends QuestionConflictRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async insertIfNew(c: QuestionConflict): Promise<boolean> {
    const rows = await this.q(
      `INSERT INTO conflicts.question_conflicts (id, instance_id, organization_id, question_id, question, fingerprint, state, answer, scope, groups, companion_questions, document_ids, newest_document_id, created_at, updated_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (instance_id, question_id, fingerprint) DO NOTHING RETURNING id`,
      [c.id, c.instanceId, c.organizationId, c.questionId, c.question, c.fingerprint, c.state, c.answer, JSON.stringify(c.scope), JSON.stringify(c.groups), JSON.stringify(c.companionQuestions), c.documentIds, c.newestDocumentId, c.createdAt, c.updatedAt, c.version],
    );
    return rows.length === 1;
  }

  async get(instanceId: string, id: string): Promise<QuestionConflict | null> {
    const [row] = await this.q<ConflictRow>(`SELECT * FROM conflicts.question_conflicts WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
    return row ? toConflict(row) : null;
  }

  async list(instanceId: string, filter: ConflictListFilter, page: PageRequest): Promise<Page<QuestionConflict>> {
    const where = new SqlConditions((n) => `instance_id = $${n}`, instanceId);
    if (filter.states.length > 0) where.add((n) => `state = ANY($${n})`, filter.states);
    if (filter.questionIds) where.add((n) => `question_id = ANY($${n})`, filter.questionIds);
    if (filter.documentIds) where.add((n) => `document_ids && $${n}::text[]`, filter.documentIds);
    if (filter.visible !== 'all') where.add((n) => `document_ids && $${n}::text[]`, filter.visible);
    return selectPage((sql, p) => this.q(sql, p), { from: `FROM conflicts.question_conflicts WHERE ${where.where}`, orderBy: 'created_at DESC, id DESC', params: where.params }, page, toConflict);
  }

  async ofQuestion(instanceId: string, questionId: string, states?: QuestionConflictState[]): Promise<QuestionConflict[]> {
    const rows = await this.q<ConflictRow>(
      `SELECT * FROM conflicts.question_conflicts WHERE instance_id = $1 AND question_id = $2 AND ($3::text[] IS NULL OR state = ANY($3)) ORDER BY created_at, id`,
      [instanceId, questionId, states ?? null],
    );
    return rows.map(toConflict);
  }

  update(key: { id: string; version: number }, changes: ConflictChanges): Promise<boolean> {
    const columns = Object.fromEntries(Object.entries(changes).map(([k, v]) => [COLUMNS[k as keyof ConflictChanges], v]));
    return updateVersioned((sql, p) => this.q(sql, p), 'conflicts.question_conflicts', key, columns);
  }

  async countByQuestion(instanceId: string, questionIds: string[], visible: Visible): Promise<Map<string, number>> {
    if (questionIds.length === 0) return new Map();
    const rows = await this.q<{ question_id: string; n: string }>(
      `SELECT question_id, count(*) AS n FROM conflicts.question_conflicts
        WHERE instance_id = $1 AND question_id = ANY($2) AND ($3::text[] IS NULL OR document_ids && $3::text[]) GROUP BY question_id`,
      [instanceId, questionIds, visible === 'all' ? null : visible],
    );
    return new Map(rows.map((r) => [r.question_id, Number(r.n)]));
  }

  async touching(instanceId: string, documentIds: string[], states: QuestionConflictState[]): Promise<QuestionConflict[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.q<ConflictRow>(`SELECT * FROM conflicts.question_conflicts WHERE instance_id = $1 AND document_ids && $2::text[] AND state = ANY($3) ORDER BY created_at, id`, [instanceId, documentIds, states]);
    return rows.map(toConflict);
  }
}

interface RecommendationRow {
  id: string;
  instance_id: string;
  conflict_id: string;
  document_id: string;
  action: Recommendation['action'];
  excerpt: string;
  proposed_text: string | null;
  reason: string;
  estimated_seconds: number;
  status: RecommendationStatus;
  created_at: Date;
}

const toRecommendation = (r: RecommendationRow): Recommendation => ({
  id: r.id,
  instanceId: r.instance_id,
  conflictId: r.conflict_id,
  documentId: r.document_id,
  action: r.action,
  excerpt: r.excerpt,
  proposedText: r.proposed_text,
  reason: r.reason,
  estimatedSeconds: r.estimated_seconds,
  status: r.status,
  createdAt: r.created_at,
});

@Injectable()
export class TypeOrmRecommendationRepository extends RecommendationRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async replaceDrafts(conflictId: string, drafts: Recommendation[]): Promise<void> {
    await this.q(`UPDATE conflicts.recommendations SET status = 'DISCARDED' WHERE conflict_id = $1 AND status = 'DRAFT'`, [conflictId]);
    for (const r of drafts) {
      await this.q(
        `INSERT INTO conflicts.recommendations (id, instance_id, conflict_id, document_id, action, excerpt, proposed_text, reason, estimated_seconds, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [r.id, r.instanceId, r.conflictId, r.documentId, r.action, r.excerpt, r.proposedText, r.reason, r.estimatedSeconds, r.status, r.createdAt],
      );
    }
  }

  async moveStatus(conflictId: string, from: RecommendationStatus, to: RecommendationStatus): Promise<void> {
    await this.q(`UPDATE conflicts.recommendations SET status = $3 WHERE conflict_id = $1 AND status = $2`, [conflictId, from, to]);
  }

  async ofConflict(conflictId: string, statuses: RecommendationStatus[]): Promise<Recommendation[]> {
    const rows = await this.q<RecommendationRow>(`SELECT * FROM conflicts.recommendations WHERE conflict_id = $1 AND status = ANY($2) ORDER BY created_at, id`, [conflictId, statuses]);
    return rows.map(toRecommendation);
  }

  async markApplied(ids: string[], at: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.q<{ id: string }>(
      `WITH moved AS (UPDATE conflicts.recommendations SET status = 'APPLIED', applied_at = $2 WHERE id = ANY($1::text[]) AND status = 'PENDING' RETURNING id) SELECT id FROM moved`,
      [ids, at],
    );
    return rows.map((r) => r.id);
  }

  async pendingForDocument(instanceId: string, documentId: string): Promise<Recommendation[]> {
    const rows = await this.q<RecommendationRow>(
      `SELECT * FROM conflicts.recommendations WHERE instance_id = $1 AND document_id = $2 AND status = 'PENDING' ORDER BY created_at DESC, id DESC`,
      [instanceId, documentId],
    );
    return rows.map(toRecommendation);
  }
}
