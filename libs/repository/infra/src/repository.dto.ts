import { IsBase64Text, IsOmittable, IsPlainText, IsPrefixedId, PaginationInput } from '@svc/http';
import { INDEXATION_STATES, IndexationState, INGESTION_LIMITS, INSTANCE_KEY_NAME_MAX_LENGTH, WEB_URL_PATTERN } from '@svc/repository-core';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

export class UpsertDocumentInput {
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  @IsPlainText()
  external_id!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(INGESTION_LIMITS.maxNameLength)
  @IsPlainText()
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @Matches(WEB_URL_PATTERN, { message: 'url must be an http: or https: URL' })
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  @IsPlainText()
  owner?: string;

  @IsOptional()
  @IsObject()
  extraproperties?: Record<string, unknown>;

  /** Media type; deduced from `name` (its extension) when absent. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  media_type?: string;

  /**
   * The file, base64-encoded (binary formats). Exactly one of content_base64 and content_text; null
   * is neither (400). Standard padded base64, checked in linear time (up to the 15 MB request).
   */
  @IsOmittable()
  @IsString()
  @IsBase64Text()
  content_base64?: string;

  /** The file as text (Markdown, plain text, HTML). */
  @IsOmittable()
  @IsString()
  content_text?: string;
}

export class DocumentIdInput {
  @IsPrefixedId('kd_')
  document_id!: string;
}

export class ListDocumentsInput extends PaginationInput {
  @IsOptional()
  @IsIn(INDEXATION_STATES)
  state?: IndexationState;
}

export class DocumentIdsInput {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsPrefixedId('kd_', { each: true })
  document_ids!: string[];
}

export class CountDocumentsInput {
  @IsOptional()
  @IsIn(INDEXATION_STATES)
  state?: IndexationState;
}

export class EmptyInput {}

export class InstanceIdInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class ReindexInput {
  @IsOptional()
  @IsPrefixedId('kd_')
  document_id?: string;
}

export class SemanticSearchInput {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  @IsPlainText({ lineBreaks: true })
  query!: string;

  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

export class InstanceDocumentsInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsOptional()
  @IsIn(INDEXATION_STATES)
  state?: IndexationState;
}

export class InstanceDocumentInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('kd_')
  document_id!: string;
}

export class InstanceDocumentsByIdsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsPrefixedId('kd_', { each: true })
  document_ids!: string[];
}

export class SearchQueryInput {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  @IsPlainText({ lineBreaks: true })
  query!: string;

  /** Who asked (the caller's own user identifier, logged with the search). */
  @IsString()
  @MaxLength(200)
  @IsPlainText()
  user!: string;
}

export class DateRangeInput {
  /** A date (YYYY-MM-DD, the whole UTC day) or an ISO 8601 date-time; inclusive. */
  @IsString()
  @MaxLength(40)
  begin_date!: string;

  @IsString()
  @MaxLength(40)
  end_date!: string;
}

export class SearchListInput extends PaginationInput {}

export class CreateInstanceApiKeyInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  /** What the key is for (shown in the list), 1 to 100 characters. */
  @IsString()
  @MinLength(1)
  @MaxLength(INSTANCE_KEY_NAME_MAX_LENGTH)
  @IsPlainText()
  name!: string;
}

export class ListInstanceApiKeysInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class RevokeInstanceApiKeyInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('key_')
  api_key_id!: string;
}
