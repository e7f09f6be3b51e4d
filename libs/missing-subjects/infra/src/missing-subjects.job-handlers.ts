import { Injectable } from '@nestjs/common';
import type { QuestionAnalyzedPayload, SearchesLoggedPayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { RecordUnansweredQuestions, RecordUnansweredSearches } from '@svc/missing-subjects-core';

/** `missing-subjects.question-analyzed`: what an analysis left unanswered joins or leaves subjects. Outcome: `joined <n> left <m>`. */
@Injectable()
export class QuestionAnalyzedJobHandler extends JobHandlerOf<'missing-subjects.question-analyzed'> {
  readonly job = 'missing-subjects.question-analyzed';

  constructor(
    registry: JobHandlerRegistry,
    private readonly record: RecordUnansweredQuestions,
  ) {
    super(registry);
  }

  handle(payload: QuestionAnalyzedPayload): Promise<string> {
    return this.record.execute(payload);
  }
}

/** `missing-subjects.searches-logged`: the instance's recurring unanswered searches join or leave subjects. Outcome: `joined <n> left <m>`. */
@Injectable()
export class SearchesLoggedJobHandler extends JobHandlerOf<'missing-subjects.searches-logged'> {
  readonly job = 'missing-subjects.searches-logged';

  constructor(
    registry: JobHandlerRegistry,
    private readonly record: RecordUnansweredSearches,
  ) {
    super(registry);
  }

  handle(payload: SearchesLoggedPayload): Promise<string> {
    return this.record.execute(payload);
  }
}
