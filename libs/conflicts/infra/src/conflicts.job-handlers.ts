import { Injectable } from '@nestjs/common';
import { TrackAppliedRecommendations } from '@svc/conflicts-core';
import type { DocumentChangedPayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';

/** `conflicts.document-changed`: the document's pending recommendations it now carries out become APPLIED. Outcome: `applied <n> of <m>`, `nothing pending` or `not_indexed`. */
@Injectable()
export class ConflictsDocumentChangedJobHandler extends JobHandlerOf<'conflicts.document-changed'> {
  readonly job = 'conflicts.document-changed';

  constructor(
    registry: JobHandlerRegistry,
    private readonly track: TrackAppliedRecommendations,
  ) {
    super(registry);
  }

  handle(payload: DocumentChangedPayload): Promise<string> {
    return this.track.execute(payload);
  }
}
