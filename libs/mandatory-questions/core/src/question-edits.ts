import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, Principal, UnitOfWork } from '@svc/kernel';
import type { MandatoryQuestion } from './mandatory-question';
import { concurrentQuestionEdit } from './mandatory-questions.errors';
import { MandatoryQuestionRepository, QuestionChanges } from './mandatory-questions.ports';

export interface QuestionEdit {
  question: MandatoryQuestion;
  changes: QuestionChanges;
  action: string;
  /** null for the service's own changes (the analysis). */
  actor: Principal | null;
  /** More writes that commit with the change (jobs, conflicts). */
  alsoWithin?: () => Promise<void>;
}

/** The one way a question changes: one transaction, the version column (409 on a lost race), one activity entry. */
@Injectable()
export class QuestionEdits {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /** Inserts a new question with its activity entry and whatever must commit with it (its analysis job). */
  create(question: MandatoryQuestion, actor: Principal | null, alsoWithin: () => Promise<unknown>): Promise<void> {
    return this.uow.run(async () => {
      await this.questions.insert(question);
      await alsoWithin();
      await this.activity.record({ organizationId: question.organizationId, instanceId: question.instanceId, action: 'audit_mandatory_question_create', subjectId: question.id, actor, before: null, after: { question: question.question, state: question.state } });
    });
  }

  apply(edit: QuestionEdit): Promise<void> {
    const { question, changes } = edit;
    return this.uow.run(async () => {
      if (!(await this.questions.update(question, { updatedAt: this.clock.now(), ...changes }))) throw concurrentQuestionEdit(question.id);
      await edit.alsoWithin?.();
      const shown = Object.keys(changes).filter((k) => k !== 'updatedAt' && k !== 'retrievedDocumentIds');
      await this.activity.record({
        organizationId: question.organizationId,
        instanceId: question.instanceId,
        action: edit.action,
        subjectId: question.id,
        actor: edit.actor,
        before: Object.fromEntries(shown.map((k) => [k, question[k as keyof QuestionChanges] ?? null])),
        after: Object.fromEntries(shown.map((k) => [k, changes[k as keyof QuestionChanges] ?? null])),
      });
    });
  }
}
