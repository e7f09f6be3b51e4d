import { Injectable } from '@nestjs/common';
import type { DocumentChangedPayload } from '@svc/contracts';
import { ActivityLog, Clock, UnitOfWork } from '@svc/kernel';
import { canonicalText } from '@svc/text';
import { CurrentDocumentText, QuestionConflictRepository, RecommendationRepository } from './conflicts.ports';
import type { Recommendation } from './question-conflict';

/**
 * Whether the document now does what a pending recommendation asked: a DELETE once the excerpt is gone
 * (or the document deleted), an UPDATE once the excerpt no longer reads as it did or the proposed text
 * is there. Compared on canonical text (case, markup and spacing do not count).
 */
export function recommendationApplied(r: Pick<Recommendation, 'action' | 'excerpt' | 'proposedText'>, current: string | null): boolean {
  if (r.action === 'KEEP') return false;
  if (current === null) return true;
  const text = canonicalText(current);
  const excerpt = canonicalText(r.excerpt);
  if (excerpt !== '' && !text.includes(excerpt)) return true;
  if (r.action === 'UPDATE' && r.proposedText) {
    const proposed = canonicalText(r.proposedText);
    return proposed !== '' && proposed !== excerpt && text.includes(proposed);
  }
  return false;
}

/**
 * After a document changed (`conflicts.document-changed`): its pending UPDATE/DELETE recommendations
 * that the new content carries out become APPLIED, so they leave the document's work list and the
 * stats' documents to update. KEEP recommendations stay pending (there is nothing to apply). A
 * re-indexation that changed nothing applies nothing.
 */
@Injectable()
export class TrackAppliedRecommendations {
  constructor(
    private readonly recommendations: RecommendationRepository,
    private readonly conflicts: QuestionConflictRepository,
    private readonly documents: CurrentDocumentText,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  async execute(payload: DocumentChangedPayload): Promise<string> {
    const pending = (await this.recommendations.pendingForDocument(payload.instanceId, payload.documentId)).filter((r) => r.action !== 'KEEP');
    if (pending.length === 0) return 'nothing pending';
    const current = payload.change === 'deleted' ? null : await this.documents.read(payload.instanceId, payload.documentId);
    // Indexed, yet no text: a newer upload is being indexed; its own change will be checked.
    if (payload.change === 'indexed' && current === null) return 'not_indexed';
    const applied = pending.filter((r) => recommendationApplied(r, current));
    if (applied.length === 0) return `applied 0 of ${pending.length}`;
    const now = this.clock.now();
    // Every conflict of an instance is its organisation's: one read names it for the activity log.
    const organizationId = (await this.conflicts.get(payload.instanceId, applied[0].conflictId))?.organizationId;
    const moved = await this.uow.run(async () => {
      const ids = await this.recommendations.markApplied(applied.map((r) => r.id), now);
      for (const r of applied.filter((x) => ids.includes(x.id))) {
        if (organizationId) await this.activity.record({ organizationId, instanceId: payload.instanceId, action: 'recommendation.applied', subjectId: r.id, actor: null, before: { status: 'PENDING' }, after: { status: 'APPLIED', conflict_id: r.conflictId, document_id: r.documentId, action: r.action, change: payload.change } });
      }
      return ids.length;
    });
    return `applied ${moved} of ${pending.length}`;
  }
}
