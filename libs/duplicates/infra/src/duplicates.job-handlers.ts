import { Injectable } from '@nestjs/common';
import type { DocumentChangedPayload, DuplicatesIdentifyPayload, DuplicatesVerifyPayload } from '@svc/contracts';
import { CheckChangedDocument, IdentifyDuplicates, VerifyCluster } from '@svc/duplicates-core';
import { JobContext, JobFailure, JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';

// Outside a job transaction: fingerprinting is CPU work over the whole repository, and the embedded
// mode has one connection. Each use case commits its writes in short transactions, idempotently.

/** `duplicates.identify`: the whole repository, then the step moves on. Outcome: `identified <n> documents ... clusters <k>` or `stale`. */
@Injectable()
export class DuplicatesIdentifyJobHandler extends JobHandlerOf<'duplicates.identify'> {
  readonly job = 'duplicates.identify';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly identify: IdentifyDuplicates,
  ) {
    super(registry);
  }

  handle(payload: DuplicatesIdentifyPayload, ctx: JobContext): Promise<string> {
    return this.identify.execute(payload, (percent, message) => ctx.progress(percent, message));
  }

  /** Failed for good: the step completes anyway (duplicates must not hold the analyses back). */
  override onFailed(payload: DuplicatesIdentifyPayload, failure: JobFailure): Promise<void> {
    return this.identify.giveUp(payload, failure.message);
  }
}

/** `duplicates.document-changed`: one document's duplicate check. Outcome: `indexed matches <n> writes <m>`, `removed ...` or `not_yet`. */
@Injectable()
export class DuplicatesDocumentChangedJobHandler extends JobHandlerOf<'duplicates.document-changed'> {
  readonly job = 'duplicates.document-changed';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly check: CheckChangedDocument,
  ) {
    super(registry);
  }

  handle(payload: DocumentChangedPayload): Promise<string> {
    return this.check.execute(payload);
  }
}

/** `duplicates.verify`: re-checks a MANAGED cluster. Outcome: `RESOLVED (...)`, `DETECTED (...)` or `stale`. */
@Injectable()
export class DuplicatesVerifyJobHandler extends JobHandlerOf<'duplicates.verify'> {
  readonly job = 'duplicates.verify';
  override readonly transactional = false;

  constructor(
    registry: JobHandlerRegistry,
    private readonly verify: VerifyCluster,
  ) {
    super(registry);
  }

  handle(payload: DuplicatesVerifyPayload): Promise<string> {
    return this.verify.execute(payload);
  }
}
