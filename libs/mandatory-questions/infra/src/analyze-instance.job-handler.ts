import { Injectable } from '@nestjs/common';
import type { QuestionsAnalyzeInstancePayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { AnalyseInstanceQuestions } from '@svc/mandatory-questions-core';

/** `questions.analyze-instance`: the instance reached RUNNING_PHASE; every open question is queued. Outcome: `queued <n>`. */
@Injectable()
export class AnalyzeInstanceJobHandler extends JobHandlerOf<'questions.analyze-instance'> {
  readonly job = 'questions.analyze-instance';

  constructor(
    registry: JobHandlerRegistry,
    private readonly analyse: AnalyseInstanceQuestions,
  ) {
    super(registry);
  }

  handle(payload: QuestionsAnalyzeInstancePayload): Promise<string> {
    return this.analyse.execute(payload);
  }
}
