import { Body, Controller } from '@nestjs/common';
import { AuditOperation, CurrentInstanceAccess, CurrentPrincipal } from '@svc/http';
import { pageRequest, Principal } from '@svc/kernel';
import { GenerateCompanionDocument, MissingSubjectQueries, SetMissingSubjectState } from '@svc/missing-subjects-core';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { MissingSubjectInput, MissingSubjectListInput, MissingSubjectSetStateInput } from './missing-subjects.dto';

/**
 * Missing subjects (`ms_`): what the repository does not answer, its questions (`msq_`), and the
 * companion document drafted from the experts' answers. Every handler takes (body, principal, access)
 * in that order: the MCP tools invoke them so.
 */
@Controller()
export class MissingSubjectsController {
  constructor(
    private readonly queries: MissingSubjectQueries,
    private readonly setState: SetMissingSubjectState,
    private readonly generate: GenerateCompanionDocument,
  ) {}

  @AuditOperation('audit_missing_subject_list', {
    description: 'Subjects people ask about that the repository does not answer (refused mandatory questions, companion questions without an answer), grouped by meaning, newest first: subject, state (PENDING, MANAGED, IGNORED), question_count, the cached compagnon_proposition.',
    input: MissingSubjectListInput,
  })
  list(@Body() body: MissingSubjectListInput, @CurrentPrincipal() _principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.queries.list(access, pageRequest(body.offset, body.limit));
  }

  @AuditOperation('audit_missing_subject_find', { description: 'One missing subject, with its cached compagnon_proposition (null until generated).', input: MissingSubjectInput })
  find(@Body() body: MissingSubjectInput, @CurrentPrincipal() _principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.queries.find(access, body.subject_id);
  }

  @AuditOperation('audit_missing_subject_list_questions', {
    description: 'The questions that make the subject (msq_ ids), oldest first, each with its answer (null until an expert gives one with audit_mandatory_question_set_answer) and its source.',
    input: MissingSubjectInput,
  })
  questions(@Body() body: MissingSubjectInput, @CurrentPrincipal() _principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.queries.questionsOf(access, body.subject_id);
  }

  @AuditOperation('audit_missing_subject_set_state', { description: 'PENDING, MANAGED (a covering document was ingested) or IGNORED (the gap is intentional), from any state.', input: MissingSubjectSetStateInput })
  state(@Body() body: MissingSubjectSetStateInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.setState.execute({ principal, access, subjectId: body.subject_id, state: body.state });
  }

  @AuditOperation('audit_missing_subject_generate_compagnon_document', {
    description: 'A Markdown draft of the document that fills the gap, written only from the experts\' answers to the subject\'s questions (403 while any has no answer); cached until an answer changes (cached: true).',
    input: MissingSubjectInput,
  })
  compagnon(@Body() body: MissingSubjectInput, @CurrentPrincipal() principal: Principal, @CurrentInstanceAccess() access: AuditInstanceAccess) {
    return this.generate.execute({ principal, access, subjectId: body.subject_id });
  }
}
