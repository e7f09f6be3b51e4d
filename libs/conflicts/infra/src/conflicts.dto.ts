import { IsPrefixedId, PaginationInput } from '@svc/http';
import { QUESTION_CONFLICT_STATES, QuestionConflictState } from '@svc/conflicts-core';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** A `fc_` id sent to a question-conflict operation: the operation to use instead (BEHAVIOUR.md §1). */
const FULL_AUDIT_HINT = { fc_: 'fc_ ids are full-audit conflicts: use the audit_full_audit_* operations (for example audit_full_audit_conflict_get on /audit/full-audit/detail).' };

export class InstanceInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class ConflictInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('qc_', { wrongNamespaceHint: FULL_AUDIT_HINT })
  conflict_id!: string;
}

export class SetConflictAnswerInput extends ConflictInput {
  @IsString()
  @MinLength(1)
  @MaxLength(10000)
  answer!: string;
}

export class ListConflictsInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  /** Default ['OPEN']; [] means every state. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsIn(QUESTION_CONFLICT_STATES, { each: true })
  state_in?: QuestionConflictState[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsPrefixedId('mq_', { each: true })
  question_id_in?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsPrefixedId('kd_', { each: true })
  document_id_in?: string[];
}

export class DocumentRecommendationsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('kd_')
  document_id!: string;
}
