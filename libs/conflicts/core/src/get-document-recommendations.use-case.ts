import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import { AuditInstanceAccess, DocumentAccess, DocumentVisibility, RepositoryInstanceClient } from '@svc/workspace-core';
import { recommendationView, RecommendationView } from './conflict-views';
import { documentNotFound } from './conflicts.errors';
import { RecommendationRepository } from './conflicts.ports';

/**
 * The pending recommendations of one document across the instance's closed conflicts (read only: it
 * never drafts). A document the caller may not see, or that does not exist, is a 404.
 */
@Injectable()
export class GetDocumentRecommendations {
  constructor(
    private readonly documents: DocumentAccess,
    private readonly repository: RepositoryInstanceClient,
    private readonly visibility: DocumentVisibility,
    private readonly recommendations: RecommendationRepository,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; documentId: string }): Promise<RecommendationView[]> {
    const visible = await this.visibility.visibleTo(input.access, input.principal.userId);
    if (visible !== 'all' && !visible.includes(input.documentId)) throw documentNotFound(input.documentId);
    const [document] = await this.repository.getMany(await this.documents.open(input.access), [input.documentId]);
    if (!document) throw documentNotFound(input.documentId);
    const names = new Map([[document.id, { name: document.name, url: document.url }]]);
    return (await this.recommendations.pendingForDocument(input.access.instanceId, document.id)).map((r) => recommendationView(r, names));
  }
}
