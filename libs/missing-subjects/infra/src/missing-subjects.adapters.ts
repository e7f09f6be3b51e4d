import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import { ForeignQuestionAnswers } from '@svc/mandatory-questions-core';
import { AnswerSubjectQuestion } from '@svc/missing-subjects-core';
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
