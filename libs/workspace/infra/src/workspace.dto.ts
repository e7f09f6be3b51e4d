import { IsPrefixedId, PaginationInput } from '@svc/http';
import { INSTANCE_STEPS, InstanceStep } from '@svc/workspace-core';
import { IsBoolean, IsIn, IsString, MaxLength, MinLength } from 'class-validator';

export class InstanceInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class ListInstancesInput extends PaginationInput {}

export class CreateInstanceInput {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
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
