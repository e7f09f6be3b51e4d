import { Injectable } from '@nestjs/common';
import { CurrentDocumentText, TrackAppliedRecommendations } from '@svc/conflicts-core';
import type { DocumentChangedPayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { ReadDocumentPassages } from '@svc/repository-core';

/** A document's text as its indexed passages in order, through the repository's public use case. */
@Injectable()
export class RepositoryDocumentText extends CurrentDocumentText {
  constructor(private readonly passages: ReadDocumentPassages) {
    super();
  }

  async read(instanceId: string, documentId: string): Promise<string | null> {
    const [document] = await this.passages.read(instanceId, [documentId]);
    return document ? document.passages.map((p) => p.text).join('\n') : null;
  }
}

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
