import { Injectable } from '@nestjs/common';
import type { RepositoryIndexDocumentPayload } from '@svc/contracts';
import { JobContext, JobFailure, JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { IndexDocument } from '@svc/repository-core';

/**
 * `repository.index-document`: indexes one document version. Not transactional: parsing and
 * embedding must not hold the (embedded) database connection; the use case writes its results in one
 * short transaction and is idempotent. A job that gives up (an unexpected error or an embedding model
 * that stayed down on its last attempt, a worker killed while parsing) leaves its document
 * PARSING_ERROR or EMBEDDING_ERROR with the reason, never PENDING for ever.
 */
@Injectable()
export class IndexDocumentJobHandler extends JobHandlerOf<'repository.index-document'> {
  readonly job = 'repository.index-document';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly indexDocument: IndexDocument,
  ) {
    super(registry);
  }

  handle(payload: RepositoryIndexDocumentPayload, ctx: JobContext): Promise<string> {
    return this.indexDocument.execute(payload, { progress: (percent, message) => ctx.progress(percent, message) });
  }

  override onFailed(payload: RepositoryIndexDocumentPayload, failure: JobFailure): Promise<void> {
    return this.indexDocument.recordGiveUp(payload, failure.error === undefined ? { workerStopped: true, attempts: failure.attempts } : { error: failure.error });
  }
}
