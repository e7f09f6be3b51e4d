import { IsPrefixedId, PaginationInput } from '@svc/http';
import { MISSING_SUBJECT_STATES, MissingSubjectState } from '@svc/missing-subjects-core';
import { IsIn } from 'class-validator';

export class MissingSubjectListInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class MissingSubjectInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('ms_', { wrongNamespaceHint: { msq_: 'msq_ ids are missing-subject questions: answer them with audit_mandatory_question_set_answer (question_id).' } })
  subject_id!: string;
}

export class MissingSubjectSetStateInput extends MissingSubjectInput {
  @IsIn(MISSING_SUBJECT_STATES)
  state!: MissingSubjectState;
}
