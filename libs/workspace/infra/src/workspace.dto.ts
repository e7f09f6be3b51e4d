import { IsPlainText, IsPrefixedId, PaginationInput } from '@svc/http';
import { INSTANCE_STEPS, InstanceStep } from '@svc/workspace-core';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

const DOCUMENT_STATES = ['PENDING', 'PARSING', 'INDEXED', 'PARSING_ERROR', 'EMBEDDING_ERROR', 'DELETED'] as const;

export class InstanceInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class ListInstancesInput extends PaginationInput {}

export class CreateInstanceInput {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @IsPlainText()
  name!: string;
}

export class UpdateStepInput extends InstanceInput {
  @IsIn(INSTANCE_STEPS)
  step!: InstanceStep;
}

export class UpdateConfigurationInput extends InstanceInput {
  @IsBoolean()
  need_detect_owner_document_feature!: boolean;
}

export class InstanceUsersInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class InstanceUserInput extends InstanceInput {
  @IsPrefixedId('usr_')
  user_id!: string;
}

export class UserInstancesInput extends PaginationInput {
  @IsPrefixedId('usr_')
  user_id!: string;

  @IsPrefixedId('org_')
  organization_id!: string;
}

export class InstanceDocumentsListInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class SetDocumentOwnerInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('kd_')
  document_id!: string;

  /** null or omitted unassigns. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsPrefixedId('usr_')
  owner_user_id?: string | null;
}

export class DocumentsByIdsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsPrefixedId('kd_', { each: true })
  document_ids!: string[];
}

export class CountDocumentsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsOptional()
  @IsIn(DOCUMENT_STATES)
  state?: string;
}

export class DocumentsWithStateInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsIn(DOCUMENT_STATES)
  state!: string;
}
