import { Injectable } from '@nestjs/common';
import { DuplicatesSource, SourceDocument } from '@svc/duplicates-core';
import { GetDocumentsByIds, ReadDocumentPassages } from '@svc/repository-core';

/**
 * The repository as duplicate identification reads it, through its public use cases: a document's
 * text is its indexed passages in order (the parsed text, whatever the file format). The audit
 * instance id is its repository instance id (BEHAVIOUR.md §2).
 */
@Injectable()
export class LocalDuplicatesSource extends DuplicatesSource {
  constructor(
    private readonly passages: ReadDocumentPassages,
    private readonly documents: GetDocumentsByIds,
  ) {
    super();
  }

  liveIds(instanceId: string): Promise<string[]> {
    return this.passages.liveIds(instanceId);
  }

  async indexedVersions(instanceId: string, documentIds: string[]): Promise<Map<string, string>> {
    return new Map((await this.documents.execute(instanceId, documentIds)).filter((d) => d.state === 'INDEXED').map((d) => [d.id, d.content_hash]));
  }

  async read(instanceId: string, documentIds: string[]): Promise<SourceDocument[]> {
    return (await this.passages.read(instanceId, documentIds)).map((d) => ({ id: d.id, contentHash: d.contentHash, text: d.passages.map((p) => p.text).join('\n') }));
  }
}
