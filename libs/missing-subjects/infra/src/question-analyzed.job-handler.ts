import { Injectable } from '@nestjs/common';
import type { QuestionAnalyzedPayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { RecordUnansweredQuestions } from '@svc/missing-subjects-core';

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
