import { Body, Controller } from '@nestjs/common';
import { GetFullAuditConflict, HaveToShowFullAudit, ListFullAuditConflicts, MoveFullAuditConflict, SetFullAuditAnswer } from '@svc/full-audit-core';
import { AuditOperation, CurrentInstanceAccess, CurrentPrincipal } from '@svc/http';
import { pageRequest, Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { FullAuditConflictInput, FullAuditInstanceInput, FullAuditListInput, FullAuditSetAnswerInput, FullAuditSetStateInput } from './full-audit.dto';

/** Full-audit conflicts (`fc_`): the repository-wide worklist, the expert's answer, close, ignore and the governance override. */
@Controller()
export class FullAuditController {
  constructor(
    private readonly list: ListFullAuditConflicts,
    private readonly get: GetFullAuditConflict,
    private readonly haveToShow: HaveToShowFullAudit,
    private readonly move: MoveFullAuditConflict,
    private readonly setAnswer: SetFullAuditAnswer,
  ) {}

  @AuditOperation('audit_full_audit_conflict_list', { description: 'Contradictions the repository-wide scan found, newest first: state_in (default ["DETECTED"]; [] for every state but DISAPPEARED), only_linked_to_question for those a mandatory question also touches (is_important). Non-admins see only conflicts touching their documents when the owner flag is on.', input: FullAuditListInput })
  listConflicts(@Body() body: FullAuditListInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.list.execute({ principal, access, page: pageRequest(body.offset, body.limit), states: body.state_in, onlyLinkedToQuestion: body.only_linked_to_question });
  }

  @AuditOperation('audit_full_audit_have_to_show', { description: 'Whether the full-audit panel is shown (the instance is in RUNNING_PHASE and one full scan has completed), with the progress of the running or last scan.', input: FullAuditInstanceInput })
  show(@Body() _body: FullAuditInstanceInput, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.haveToShow.execute({ access });
  }

  @AuditOperation('audit_full_audit_conflict_get', { description: 'One full-audit conflict: subject, explanation, the two statements with their documents, compagnon_questions (what to decide), linked mandatory questions, the saved answer and compagnon_recommendations.', input: FullAuditConflictInput })
  getConflict(@Body() body: FullAuditConflictInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.get.execute({ principal, access, conflictId: body.conflict_id });
  }

  @AuditOperation('audit_full_audit_set_state', { description: 'Governance override: state managed, ignored or detected (detected reopens a MANAGED or IGNORED conflict). 409 on a DISAPPEARED one.', input: FullAuditSetStateInput })
  setState(@Body() body: FullAuditSetStateInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.move.execute({ principal, access, conflictId: body.conflict_id, move: `set-state:${body.state}`, action: 'audit_full_audit_set_state' });
  }

  @AuditOperation('audit_full_audit_conflict_set_answer', { description: "Record the expert's answer (DETECTED or REDETECTED; the state stays until close) and get per-document recommendations inline (KEEP, UPDATE with proposed_text, DELETE), also saved as compagnon_recommendations. An empty list means drafting failed: call again.", input: FullAuditSetAnswerInput })
  answer(@Body() body: FullAuditSetAnswerInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setAnswer.execute({ principal, access, conflictId: body.conflict_id, answer: body.answer });
  }

  @AuditOperation('audit_full_audit_conflict_close', { description: 'Close the conflict as MANAGED (from DETECTED or REDETECTED; idempotent on MANAGED). A later scan that still finds it after its documents changed raises it again as REDETECTED.', input: FullAuditConflictInput })
  close(@Body() body: FullAuditConflictInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.move.execute({ principal, access, conflictId: body.conflict_id, move: 'close', action: 'audit_full_audit_conflict_close' });
  }

  @AuditOperation('audit_full_audit_conflict_ignore', { description: 'Ignore the conflict (from DETECTED or REDETECTED; idempotent on IGNORED; 409 on MANAGED): the same contradiction is never raised again.', input: FullAuditConflictInput })
  ignore(@Body() body: FullAuditConflictInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.move.execute({ principal, access, conflictId: body.conflict_id, move: 'ignore', action: 'audit_full_audit_conflict_ignore' });
  }
}
