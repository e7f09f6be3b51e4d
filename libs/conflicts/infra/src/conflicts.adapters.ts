import { Injectable } from '@nestjs/common';
import { CurrentDocumentText } from '@svc/conflicts-core';
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
