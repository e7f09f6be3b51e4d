import { Injectable } from '@nestjs/common';
import { QuestionConflictFacts } from '@svc/conflicts-core';
import { FullAuditExcerpt, LinkedQuestion, QuestionLinks, ScannedDocument, ScanSource } from '@svc/full-audit-core';
import { GetDocumentsByIds, ReadDocumentPassages } from '@svc/repository-core';

/**
 * The repository as the scan reads it, through its public use cases. The audit instance id is its
 * repository instance id (BEHAVIOUR.md §2); every app that runs the scan (workers, standalone) has
 * the repository context.
 */
@Injectable()
export class LocalScanSource extends ScanSource {
  constructor(
    private readonly passages: ReadDocumentPassages,
    private readonly documents: GetDocumentsByIds,
  ) {
    super();
  }

  liveIds(instanceId: string): Promise<string[]> {
    return this.passages.liveIds(instanceId);
  }

  read(instanceId: string, documentIds: string[], options?: { vectors: boolean }): Promise<ScannedDocument[]> {
    return this.passages.read(instanceId, documentIds, options);
  }

  async names(instanceId: string, documentIds: string[]): Promise<Map<string, { name: string; url: string | null }>> {
    return new Map((await this.documents.execute(instanceId, documentIds)).map((d) => [d.id, { name: d.name, url: d.url }]));
  }
}

/**
 * Links through the question conflicts: a mandatory question is linked when one of its conflicts cites
 * a passage of the full-audit conflict, or cites every document of it (the same disagreement seen
 * from the question's side).
 */
@Injectable()
export class QuestionConflictLinks extends QuestionLinks {
  constructor(private readonly facts: QuestionConflictFacts) {
    super();
  }

  async linked(instanceId: string, findings: Map<string, Pick<FullAuditExcerpt, 'semanticNodeId' | 'documentId'>[]>): Promise<Map<string, LinkedQuestion[]>> {
    const documentIds = [...new Set([...findings.values()].flat().map((e) => e.documentId))];
    const questionConflicts = await this.facts.touchingDocuments(instanceId, documentIds);
    const out = new Map<string, LinkedQuestion[]>();
    for (const [key, excerpts] of findings) {
      const nodes = new Set(excerpts.map((e) => e.semanticNodeId));
      const documents = [...new Set(excerpts.map((e) => e.documentId))];
      const linked = new Map<string, LinkedQuestion>();
      for (const qc of questionConflicts) {
        if (qc.semanticNodeIds.some((n) => nodes.has(n)) || documents.every((d) => qc.documentIds.includes(d))) linked.set(qc.questionId, { id: qc.questionId, question: qc.question });
      }
      out.set(key, [...linked.values()].sort((a, b) => (a.id < b.id ? -1 : 1)));
    }
    return out;
  }
}
