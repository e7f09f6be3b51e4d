import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import { ForeignQuestionAnswers } from '@svc/mandatory-questions-core';
import { AnswerSubjectQuestion, LoggedSearch, SearchDemand } from '@svc/missing-subjects-core';
import { SearchStats } from '@svc/repository-core';
import type { AuditInstanceAccess } from '@svc/workspace-core';

/** `audit_mandatory_question_set_answer` with a `msq_` id lands here (the mandatory-questions context's port). */
@Injectable()
export class SubjectQuestionAnswers extends ForeignQuestionAnswers {
  constructor(private readonly answerQuestion: AnswerSubjectQuestion) {
    super();
  }

  answer(input: { principal: Principal; access: AuditInstanceAccess; questionId: string; answer: string }): Promise<boolean> {
    return this.answerQuestion.execute(input);
  }
}

/** The repository's search log, through its public use case (the audit instance id is the repository instance id). */
@Injectable()
export class RepositorySearchDemand extends SearchDemand {
  constructor(private readonly stats: SearchStats) {
    super();
  }

  async recent(instanceId: string, from: Date, limit: number): Promise<LoggedSearch[]> {
    return (await this.stats.recent(instanceId, from, limit)).map((e) => ({ query: e.query, userId: e.userId, at: e.createdAt, answered: e.gotAnswer }));
  }
}
