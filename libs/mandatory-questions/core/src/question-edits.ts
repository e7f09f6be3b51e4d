import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, Principal, replayLostRace, UnitOfWork } from '@svc/kernel';
import type { MandatoryQuestion } from './mandatory-question';
import { isOpenQuestion } from './mandatory-question.states';
import { concurrentQuestionEdit } from './mandatory-questions.errors';

const CONCURRENT_EDIT = 'MANDATORY_QUESTION.CONCURRENT_EDIT';
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

  /**
   * An expert's edit of the question as it is now: `build` makes the edit from the question just read (null: nothing
   * to do). The service's own analysis changes a question's state and analysis fields at any time (a document upsert
   * queues one); a race lost to it is played again on the question read anew, at most three times. A race lost to
   * another expert (the answer changed, or the state moved to MANAGED or IGNORED) stays a 409: no silent overwrite.
   */
  applyLatest(read: () => Promise<MandatoryQuestion>, build: (question: MandatoryQuestion) => QuestionEdit | null): Promise<void> {
    const byExpert = (question: MandatoryQuestion, _previous: MandatoryQuestion, first: MandatoryQuestion) => question.answer !== first.answer || (question.state !== first.state && !isOpenQuestion(question.state));
    return replayLostRace(read, build, (edit) => this.apply(edit), byExpert, CONCURRENT_EDIT);
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
