import { Injectable } from '@nestjs/common';
import { DocumentReindexer, QuestionRetrieval, RetrievedPassage } from '@svc/mandatory-questions-core';
import { isDomainError } from '@svc/kernel';
import { GetDocumentsByIds, ReindexDocuments, SearchSemanticNodes } from '@svc/repository-core';

/**
 * The repository's hybrid search in this deployment, through its public use case. The audit instance
 * id is its repository instance id (BEHAVIOUR.md §2), so no link is needed. Every app that runs the
 * analysis (workers, standalone) has the repository context, in both runtime modes.
 */
@Injectable()
export class LocalQuestionRetrieval extends QuestionRetrieval {
  constructor(
    private readonly search: SearchSemanticNodes,
    private readonly documents: GetDocumentsByIds,
  ) {
    super();
  }

  async indexedAt(instanceId: string, documentIds: string[]): Promise<Map<string, Date>> {
    if (documentIds.length === 0) return new Map();
    const found = await this.documents.execute(instanceId, documentIds);
    return new Map(found.map((d) => [d.id, new Date(d.indexed_at ?? d.updated_at)]));
  }

  async retrieve(instanceId: string, query: string, candidates: number): Promise<RetrievedPassage[]> {
    const result = await this.search.execute(instanceId, query, candidates);
    const documents = new Map(result.documents_contents.map((d) => [d.document_id, d]));
    return result.semantic_nodes.map((n, rank) => {
      const document = documents.get(n.document_id);
      return { id: n.id, documentId: n.document_id, text: n.text, documentName: document?.document_name ?? n.document_id, ...(document?.document_url ? { documentUrl: document.document_url } : {}), rank };
    });
  }
}

/** Re-indexation through the repository's public use case; unknown or deleted documents are skipped. */
@Injectable()
export class LocalDocumentReindexer extends DocumentReindexer {
  constructor(private readonly reindexDocuments: ReindexDocuments) {
    super();
  }

  async reindex(instanceId: string, documentIds: string[]): Promise<number> {
    let queued = 0;
    for (const id of documentIds) {
      try {
        queued += (await this.reindexDocuments.execute(instanceId, id)).queued;
      } catch (error) {
        if (!isDomainError(error) || error.kind !== 'not_found') throw error;
      }
    }
    return queued;
  }
}
