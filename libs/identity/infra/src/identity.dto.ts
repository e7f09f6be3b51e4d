import { PaginationInput } from '@svc/http';
import { ROLES, Role } from '@svc/kernel';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsPlainText, IsPrefixedId } from '@svc/http';

export class ExchangeApiKeyInput {
  @IsString()
  @MaxLength(200)
  api_key!: string;
}

export class ListInput extends PaginationInput {}

export class CreateMemberInput {
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @IsPlainText()
  name!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @IsIn(ROLES, { each: true })
  roles!: Role[];

  /** Optional password for the login page (at least 12 characters). */
  @IsOptional()
  @IsString()
  @MinLength(12)
  @MaxLength(256)
  password?: string;
}

export class SetMemberPasswordInput {
  @IsPrefixedId('usr_')
  user_id!: string;

  @IsString()
  @MinLength(12)
  @MaxLength(256)
  password!: string;
}

export class CreateApiKeyRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @IsPlainText()
  name!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @IsIn(ROLES, { each: true })
  roles!: Role[];

  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string;

  @IsOptional()
  @IsPrefixedId('usr_')
  user_id?: string;
}

export class RevokeApiKeyInput {
  @IsPrefixedId('key_')
  key_id!: string;
}
