import { IsPrefixedId, PaginationInput } from '@svc/http';
import { MANDATORY_QUESTION_STATES, MandatoryQuestionState } from '@svc/mandatory-questions-core';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class ListQuestionsInput extends PaginationInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsOptional()
  @IsIn(MANDATORY_QUESTION_STATES)
  state?: MandatoryQuestionState;
}

export class CreateQuestionInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsString()
  @MinLength(3)
  @MaxLength(2000)
  @Matches(/\S/, { message: 'question must not be blank' })
  question!: string;
}

export class QuestionInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsPrefixedId('mq_')
  question_id!: string;
}

/** `question_id`: a mandatory question (`mq_`) or a missing-subject question (`msq_`). */
export class SetQuestionAnswerInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsString()
  @Matches(/^(mq_|msq_)[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'question_id must be an id starting with mq_ or msq_' })
  question_id!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(10000)
  answer!: string;
}
