import { Injectable } from '@nestjs/common';
import { Query, queryOf, selectPage, TypeOrmUnitOfWork, updateVersioned } from '@svc/database';
import type { Page, PageRequest } from '@svc/kernel';
import { MissingSubject, MissingSubjectQuestion, MissingSubjectRepository, MissingSubjectState, SubjectChanges, SubjectQuestionRepository, SubjectQuestionSource } from '@svc/missing-subjects-core';
import type { TermStatistics } from '@svc/text';


interface SubjectRow {
  id: string;
  instance_id: string;
  organization_id: string;
  label: string;
  state: MissingSubjectState;
  profile: MissingSubject['profile'];
  question_count: number;
  proposition: string | null;
  proposition_key: string | null;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const toSubject = (r: SubjectRow): MissingSubject => ({
  id: r.id,
  instanceId: r.instance_id,
  organizationId: r.organization_id,
  label: r.label,
  state: r.state,
  profile: r.profile,
  questionCount: r.question_count,
  proposition: r.proposition,
  propositionKey: r.proposition_key,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  version: r.version,
});

const COLUMNS: Record<keyof SubjectChanges, string> = {
  label: 'label',
  state: 'state',
  profile: 'profile',
  questionCount: 'question_count',
  proposition: 'proposition',
  propositionKey: 'proposition_key',
  updatedAt: 'updated_at',
};

@Injectable()
export class TypeOrmMissingSubjectRepository extends MissingSubjectRepository {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async lock(instanceId: string): Promise<void> {
    // Transaction-scoped: released at commit or rollback, never left behind.
    await this.q(`SELECT pg_advisory_xact_lock(hashtext('missing_subjects.subjects'), hashtext($1))`, [instanceId]);
  }

  async insert(s: MissingSubject): Promise<void> {
    await this.q(
      `INSERT INTO missing_subjects.subjects (id, instance_id, organization_id, label, state, profile, question_count, proposition, proposition_key, created_at, updated_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [s.id, s.instanceId, s.organizationId, s.label, s.state, JSON.stringify(s.profile), s.questionCount, s.proposition, s.propositionKey, s.createdAt, s.updatedAt, s.version],
    );
  }

  async get(instanceId: string, id: string): Promise<MissingSubject | null> {
    const [row] = await this.q<SubjectRow>(`SELECT * FROM missing_subjects.subjects WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
    return row ? toSubject(row) : null;
  }

  list(instanceId: string, page: PageRequest): Promise<Page<MissingSubject>> {
    return selectPage((sql, p) => this.q(sql, p), { from: `FROM missing_subjects.subjects WHERE instance_id = $1`, orderBy: 'created_at DESC, id DESC', params: [instanceId] }, page, toSubject);
  }

  async all(instanceId: string): Promise<MissingSubject[]> {
    return (await this.q<SubjectRow>(`SELECT * FROM missing_subjects.subjects WHERE instance_id = $1 ORDER BY id`, [instanceId])).map(toSubject);
  }

  update(key: { id: string; version: number }, changes: SubjectChanges): Promise<boolean> {
    const columns: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(changes)) columns[COLUMNS[k as keyof SubjectChanges]] = k === 'profile' ? JSON.stringify(v) : v;
    return updateVersioned((sql, p) => this.q(sql, p), 'missing_subjects.subjects', key, columns);
  }

  async remove(id: string): Promise<void> {
    await this.q(`DELETE FROM missing_subjects.subjects WHERE id = $1`, [id]);
  }

  async statistics(instanceId: string): Promise<TermStatistics> {
    const [row] = await this.q<{ statistics: TermStatistics }>(`SELECT statistics FROM missing_subjects.term_statistics WHERE instance_id = $1`, [instanceId]);
    return row?.statistics ?? { questions: 0, frequencies: {} };
  }

  async saveStatistics(instanceId: string, statistics: TermStatistics): Promise<void> {
    await this.q(
      `INSERT INTO missing_subjects.term_statistics (instance_id, statistics) VALUES ($1, $2) ON CONFLICT (instance_id) DO UPDATE SET statistics = EXCLUDED.statistics`,
      [instanceId, JSON.stringify(statistics)],
    );
  }
}

interface QuestionRow {
  id: string;
  instance_id: string;
  subject_id: string;
  text: string;
  source: SubjectQuestionSource;
  source_ref: string;
  terms: MissingSubjectQuestion['terms'];
  vector: MissingSubjectQuestion['vector'];
  answer: string | null;
  answered_at: Date | null;
  created_at: Date;
}

const toQuestion = (r: QuestionRow): MissingSubjectQuestion => ({
  id: r.id,
  instanceId: r.instance_id,
  subjectId: r.subject_id,
  text: r.text,
  source: r.source,
  sourceRef: r.source_ref,
  terms: r.terms,
  vector: r.vector,
  answer: r.answer,
  answeredAt: r.answered_at,
  createdAt: r.created_at,
});

@Injectable()
export class TypeOrmSubjectQuestionRepository extends SubjectQuestionRepository {
  private readonly q: Query;

  constructor(uow: TypeOrmUnitOfWork) {
    super();
    this.q = queryOf(uow);
  }

  async insert(x: MissingSubjectQuestion): Promise<void> {
    await this.q(
      `INSERT INTO missing_subjects.questions (id, instance_id, subject_id, text, source, source_ref, terms, vector, answer, answered_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [x.id, x.instanceId, x.subjectId, x.text, x.source, x.sourceRef, JSON.stringify(x.terms), JSON.stringify(x.vector), x.answer, x.answeredAt, x.createdAt],
    );
  }

  async get(instanceId: string, id: string): Promise<MissingSubjectQuestion | null> {
    const [row] = await this.q<QuestionRow>(`SELECT * FROM missing_subjects.questions WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
    return row ? toQuestion(row) : null;
  }

  async ofSubject(instanceId: string, subjectId: string): Promise<MissingSubjectQuestion[]> {
    return (await this.q<QuestionRow>(`SELECT * FROM missing_subjects.questions WHERE instance_id = $1 AND subject_id = $2 ORDER BY created_at, id`, [instanceId, subjectId])).map(toQuestion);
  }

  async fromSource(instanceId: string, sourceRef: string): Promise<MissingSubjectQuestion[]> {
    return (await this.q<QuestionRow>(`SELECT * FROM missing_subjects.questions WHERE instance_id = $1 AND source_ref = $2 ORDER BY created_at, id`, [instanceId, sourceRef])).map(toQuestion);
  }

  async remove(id: string): Promise<void> {
    await this.q(`DELETE FROM missing_subjects.questions WHERE id = $1`, [id]);
  }

  async setAnswer(id: string, answer: string, at: Date): Promise<void> {
    await this.q(`UPDATE missing_subjects.questions SET answer = $2, answered_at = $3 WHERE id = $1`, [id, answer, at]);
  }
}
