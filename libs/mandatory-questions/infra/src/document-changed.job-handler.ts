import { Injectable } from '@nestjs/common';
import type { DocumentChangedPayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { ReanalyseForDocumentChange } from '@svc/mandatory-questions-core';

/** `questions.document-changed`: in RUNNING_PHASE, queues the questions a document change can affect. Outcome: `not_running` or `queued <n>`. */
@Injectable()
export class DocumentChangedJobHandler extends JobHandlerOf<'questions.document-changed'> {
  readonly job = 'questions.document-changed';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly reanalyse: ReanalyseForDocumentChange,
  ) {
    super(registry);
  }

  handle(payload: DocumentChangedPayload): Promise<string> {
    return this.reanalyse.execute(payload);
  }
}
