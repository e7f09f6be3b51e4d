import { Injectable } from '@nestjs/common';
import type { QuestionsAnalyzePayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { AnalyzeQuestion } from '@svc/mandatory-questions-core';

/**
 * `questions.analyze`: one mandatory question's analysis. Not transactional: retrieval, extraction
 * and a model's calls run outside any transaction, and the use case commits its findings in one.
 * Outcomes: `CONFLICTS`, `NO_CONFLICT`, `REFUSED`, `closed` (an expert closed it), `gone`.
 */
@Injectable()
export class AnalyzeQuestionJobHandler extends JobHandlerOf<'questions.analyze'> {
  readonly job = 'questions.analyze';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly analyze: AnalyzeQuestion,
  ) {
    super(registry);
  }

  handle(payload: QuestionsAnalyzePayload): Promise<string> {
    return this.analyze.execute(payload);
  }
}
