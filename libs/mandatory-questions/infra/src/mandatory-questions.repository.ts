import { Injectable } from '@nestjs/common';
import { selectPage, TypeOrmUnitOfWork, updateVersioned } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import { MandatoryQuestion, MandatoryQuestionRepository, MandatoryQuestionState, QuestionChanges } from '@svc/mandatory-questions-core';

interface Row {
  id: string;
  instance_id: string;
  organization_id: string;
  question: string;
  state: MandatoryQuestionState;
  answer: string | null;
  companion_questions: string[];
  retrieved_document_ids: string[];
  created_at: Date;
  updated_at: Date;
  analyzed_at: Date | null;
  version: number;
}

const toQuestion = (r: Row): MandatoryQuestion => ({
  id: r.id,
  instanceId: r.instance_id,
  organizationId: r.organization_id,
  question: r.question,
  state: r.state,
  answer: r.answer,
  companionQuestions: r.companion_questions,
  retrievedDocumentIds: r.retrieved_document_ids,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  analyzedAt: r.analyzed_at,
  version: r.version,
});

const COLUMNS: Record<keyof QuestionChanges, string> = { state: 'state', answer: 'answer', companionQuestions: 'companion_questions', retrievedDocumentIds: 'retrieved_document_ids', analyzedAt: 'analyzed_at', updatedAt: 'updated_at' };

@Injectable()
export class TypeOrmMandatoryQuestionRepository extends MandatoryQuestionRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {
    super();
  }

  private q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.uow.manager().query(sql, params);
  }

  async insert(m: MandatoryQuestion): Promise<void> {
    await this.q(
      `INSERT INTO questions.mandatory_questions (id, instance_id, organization_id, question, state, answer, companion_questions, retrieved_document_ids, created_at, updated_at, analyzed_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [m.id, m.instanceId, m.organizationId, m.question, m.state, m.answer, JSON.stringify(m.companionQuestions), m.retrievedDocumentIds, m.createdAt, m.updatedAt, m.analyzedAt, m.version],
    );
  }

  async get(instanceId: string, id: string): Promise<MandatoryQuestion | null> {
    const [row] = await this.q<Row>(`SELECT * FROM questions.mandatory_questions WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
    return row ? toQuestion(row) : null;
  }

  list(instanceId: string, state: MandatoryQuestionState | undefined, page: PageRequest): Promise<Page<MandatoryQuestion>> {
    return selectPage(
      (sql, p) => this.q(sql, p),
      state ? { from: 'FROM questions.mandatory_questions WHERE instance_id = $1 AND state = $2', orderBy: 'created_at DESC, id DESC', params: [instanceId, state] } : { from: 'FROM questions.mandatory_questions WHERE instance_id = $1', orderBy: 'created_at DESC, id DESC', params: [instanceId] },
      page,
      toQuestion,
    );
  }

  async open(instanceId: string): Promise<MandatoryQuestion[]> {
    const rows = await this.q<Row>(`SELECT * FROM questions.mandatory_questions WHERE instance_id = $1 AND state NOT IN ('MANAGED', 'IGNORED') ORDER BY created_at, id`, [instanceId]);
    return rows.map(toQuestion);
  }

  update(key: { id: string; version: number }, changes: QuestionChanges): Promise<boolean> {
    const columns = Object.fromEntries(
      Object.entries(changes).map(([k, v]) => [COLUMNS[k as keyof QuestionChanges], k === 'companionQuestions' ? JSON.stringify(v) : v]),
    );
    return updateVersioned((sql, p) => this.q(sql, p), 'questions.mandatory_questions', key, columns);
  }
}
