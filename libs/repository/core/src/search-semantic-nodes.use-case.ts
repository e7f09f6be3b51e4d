import { Injectable } from '@nestjs/common';
import { Embedder, VectorIndex } from '@svc/kernel';
import { DocumentRepository, SemanticNodeRepository } from './documents.ports';
import { reciprocalRankFusion } from './rank-fusion';

export interface SemanticSearchResult {
  semantic_nodes: { id: string; document_id: string; text: string; score: number; position: number }[];
  documents_contents: { document_id: string; document_name: string; document_url: string | null; excerpts: string[] }[];
}

/** Candidates taken from each ranking before fusion. */
const CANDIDATES = 50;

/** Which rankings to use: both fused (the service's behaviour), or one alone (offline evaluation only, not exposed). */
export type SearchMode = 'hybrid' | 'fulltext' | 'vector';

/**
 * Hybrid retrieval (BEHAVIOUR.md §10): PostgreSQL full-text ranking and vector similarity, fused by
 * reciprocal rank. No LLM call. Results are grouped per document for display as well.
 */
@Injectable()
export class SearchSemanticNodes {
  constructor(
    private readonly nodes: SemanticNodeRepository,
    private readonly documents: DocumentRepository,
    private readonly embedder: Embedder,
    private readonly vectors: VectorIndex,
  ) {}

  async execute(instanceId: string, query: string, limit = 10, mode: SearchMode = 'hybrid'): Promise<SemanticSearchResult> {
    const [fullText, queryVectors] = await Promise.all([
      mode === 'vector' ? [] : this.nodes.fullTextSearch(instanceId, query, CANDIDATES),
      mode === 'fulltext' ? null : this.embedder.embed([query]),
    ]);
    const nearest = queryVectors ? await this.vectors.search(instanceId, this.embedder.model, queryVectors[0], CANDIDATES) : [];
    const fused = reciprocalRankFusion([fullText.map((m) => m.id), nearest.map((m) => m.id)]).slice(0, limit);
    const byId = new Map((await this.nodes.getMany(fused.map((f) => f.id))).map((n) => [n.id, n]));
    const found = fused.filter((f) => byId.has(f.id)).map((f) => ({ f, node: byId.get(f.id)! }));
    // The documents named, once each; a node whose document is gone (deleted meanwhile) is left out.
    const named = await this.documents.getMany(instanceId, [...new Set(found.map(({ node }) => node.documentId))]);
    const documents = new Map(named.filter((d) => d.state !== 'DELETED').map((d) => [d.id, d]));
    const semantic_nodes = found
      .filter(({ node }) => documents.has(node.documentId))
      .map(({ f, node }) => ({ id: node.id, document_id: node.documentId, text: node.text, score: Number(f.score.toFixed(6)), position: node.position }));
    const grouped = new Map<string, string[]>();
    for (const node of semantic_nodes) grouped.set(node.document_id, [...(grouped.get(node.document_id) ?? []), node.text]);
    const documents_contents = [...grouped].map(([documentId, excerpts]) => {
      const document = documents.get(documentId)!;
      return { document_id: documentId, document_name: document.name, document_url: document.url, excerpts };
    });
    return { semantic_nodes, documents_contents };
  }
}
