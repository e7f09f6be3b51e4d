import { IsPrefixedId, PaginationInput } from '@svc/http';
import { FULL_AUDIT_STATES, FullAuditState } from '@svc/full-audit-core';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** A `qc_` id sent to a full-audit operation: the operation to use instead (BEHAVIOUR.md §1). */
const QUESTION_CONFLICT_HINT = { qc_: 'qc_ ids are question conflicts: use the audit_question_conflict_* operations (for example audit_question_conflict_get on /audit/conflict/get).' };

export class FullAuditInstanceInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class FullAuditConflictInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('fc_', { wrongNamespaceHint: QUESTION_CONFLICT_HINT })
  conflict_id!: string;
}

export class FullAuditSetAnswerInput extends FullAuditConflictInput {
  @IsString()
  @MinLength(1)
  @MaxLength(10000)
  answer!: string;
}

export const FULL_AUDIT_TARGET_STATES = ['managed', 'ignored', 'detected'] as const;

export class FullAuditSetStateInput extends FullAuditConflictInput {
  @IsIn(FULL_AUDIT_TARGET_STATES)
  state!: (typeof FULL_AUDIT_TARGET_STATES)[number];
}

export class FullAuditListInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  /** Default ['DETECTED']; [] means every state but DISAPPEARED. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsIn(FULL_AUDIT_STATES, { each: true })
  state_in?: FullAuditState[];

  @IsOptional()
  @IsBoolean()
  only_linked_to_question?: boolean;
}
