import { Body, Controller } from '@nestjs/common';
import {
  CloseQuestionConflict,
  GetDocumentRecommendations,
  GetQuestionConflict,
  GetTopCollaborators,
  IgnoreQuestionConflict,
  ListQuestionConflicts,
  SetConflictAnswer,
} from '@svc/conflicts-core';
import { AuditOperation, CurrentInstanceAccess, CurrentPrincipal } from '@svc/http';
import { pageRequest, Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { ConflictInput, DocumentRecommendationsInput, InstanceInput, ListConflictsInput, SetConflictAnswerInput } from './conflicts.dto';

/** Question conflicts (`qc_`): the worklist, the expert's answer and recommendations, close and ignore. */
@Controller()
export class QuestionConflictController {
  constructor(
    private readonly list: ListQuestionConflicts,
    private readonly get: GetQuestionConflict,
    private readonly setAnswer: SetConflictAnswer,
    private readonly close: CloseQuestionConflict,
    private readonly ignore: IgnoreQuestionConflict,
  ) {}

  @AuditOperation('audit_question_conflict_list', { description: 'Question conflicts of the instance, newest first: state_in (default ["OPEN"], [] for all), question_id_in, document_id_in; documents hydrated with document_name and document_url. Non-admins see only conflicts touching their documents when the owner flag is on.', input: ListConflictsInput })
  listConflicts(@Body() body: ListConflictsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.list.execute({ principal, access, page: pageRequest(body.offset, body.limit), states: body.state_in, questionIds: body.question_id_in, documentIds: body.document_id_in });
  }

  @AuditOperation('audit_question_conflict_get', { description: 'One question conflict: the question, the excerpts grouped by the answer each gives, companion questions, state, answer and recommendations.', input: ConflictInput })
  getConflict(@Body() body: ConflictInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.get.execute({ principal, access, conflictId: body.conflict_id });
  }

  @AuditOperation('audit_question_conflict_set_answer', { description: 'Record the expert answer (from OPEN, ANSWERED or RECOMMENDATIONS_READY) and get per-document recommendations inline (KEEP, UPDATE with proposed_text, DELETE). An empty list means drafting failed: call again.', input: SetConflictAnswerInput })
  answerConflict(@Body() body: SetConflictAnswerInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setAnswer.execute({ principal, access, conflictId: body.conflict_id, answer: body.answer });
  }

  @AuditOperation('audit_question_conflict_close', { description: 'Close the conflict as MANAGED (from RECOMMENDATIONS_READY or ANSWERED; idempotent on MANAGED): its recommendations become pending work on their documents.', input: ConflictInput })
  closeConflict(@Body() body: ConflictInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.close.execute({ principal, access, conflictId: body.conflict_id });
  }

  @AuditOperation('audit_question_conflict_ignore', { description: 'Ignore the conflict (from OPEN, ANSWERED or RECOMMENDATIONS_READY; idempotent on IGNORED; 409 on MANAGED).', input: ConflictInput })
  ignoreConflict(@Body() body: ConflictInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.ignore.execute({ principal, access, conflictId: body.conflict_id });
  }
}

/** Who shares open conflicts with the caller, and what each document has to change. */
@Controller()
export class ConflictWorkController {
  constructor(
    private readonly collaborators: GetTopCollaborators,
    private readonly recommendations: GetDocumentRecommendations,
  ) {}

  @AuditOperation('audit_conflict_get_top_collaborators', { description: 'Up to three other members ranked by the open question conflicts they share with the caller through owned documents; [] for admins.', input: InstanceInput })
  topCollaborators(@Body() _body: InstanceInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.collaborators.execute({ principal, access });
  }

  @AuditOperation('audit_documents_get_recommendations', { description: 'The pending recommendations of a document across the closed question conflicts of the instance (read only: never drafts).', input: DocumentRecommendationsInput })
  documentRecommendations(@Body() body: DocumentRecommendationsInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.recommendations.execute({ principal, access, documentId: body.document_id });
  }
}
