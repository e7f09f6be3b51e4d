import { Body, Controller } from '@nestjs/common';
import { AuditOperation, CurrentInstanceAccess, CurrentPrincipal } from '@svc/http';
import { pageRequest, Principal } from '@svc/kernel';
import {
  CreateMandatoryQuestion,
  ForceAnalyzeMandatoryQuestion,
  ListMandatoryQuestions,
  SetMandatoryQuestionAnswer,
  SetMandatoryQuestionIgnored,
  SetMandatoryQuestionManaged,
} from '@svc/mandatory-questions-core';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { CreateQuestionInput, ListQuestionsInput, QuestionInput, SetQuestionAnswerInput } from './mandatory-questions.dto';

/** Mandatory questions (`mq_`): what stewards want the repository to answer consistently. */
@Controller()
export class MandatoryQuestionController {
  constructor(
    private readonly list: ListMandatoryQuestions,
    private readonly create: CreateMandatoryQuestion,
    private readonly setAnswer: SetMandatoryQuestionAnswer,
    private readonly setManaged: SetMandatoryQuestionManaged,
    private readonly setIgnored: SetMandatoryQuestionIgnored,
    private readonly forceAnalyze: ForceAnalyzeMandatoryQuestion,
  ) {}

  @AuditOperation('audit_mandatory_question_list', { description: 'Mandatory questions of the instance, newest first, optionally in one state (PENDING, ANALYZING, CONFLICTS, NO_CONFLICT, REFUSED, MANAGED, IGNORED); every state when unset.', input: ListQuestionsInput })
  listQuestions(@Body() body: ListQuestionsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.list.execute({ principal, access, page: pageRequest(body.offset, body.limit), state: body.state });
  }

  @AuditOperation('audit_mandatory_question_create', { description: 'Create a mandatory question; it is queued for analysis at once. Returns its id and state (PENDING).', input: CreateQuestionInput })
  createQuestion(@Body() body: CreateQuestionInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.create.execute({ actor: principal, access, question: body.question });
  }

  @AuditOperation('audit_mandatory_question_set_answer', { description: "Store the expert answer of an open mandatory question (mq_) or of a missing-subject question (msq_); the question's OPEN conflicts move to ANSWERED.", input: SetQuestionAnswerInput })
  answerQuestion(@Body() body: SetQuestionAnswerInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setAnswer.execute({ principal, access, questionId: body.question_id, answer: body.answer });
  }

  @AuditOperation('audit_mandatory_question_set_managed', { description: "Mark the question MANAGED and queue the re-indexation of every document cited by its conflicts.", input: QuestionInput })
  manageQuestion(@Body() body: QuestionInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setManaged.execute({ principal, access, questionId: body.question_id });
  }

  @AuditOperation('audit_mandatory_question_set_ignored', { description: 'Mark the question IGNORED: the analysis no longer follows it.', input: QuestionInput })
  ignoreQuestion(@Body() body: QuestionInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setIgnored.execute({ principal, access, questionId: body.question_id });
  }

  @AuditOperation('audit_mandatory_question_force_analyze', { description: 'Analyse a REFUSED question again (409 in any other state); returns true once queued.', input: QuestionInput })
  forceAnalyzeQuestion(@Body() body: QuestionInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.forceAnalyze.execute({ principal, access, questionId: body.question_id });
  }
}
