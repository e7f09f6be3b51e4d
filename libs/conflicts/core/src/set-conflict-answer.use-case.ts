import { Injectable, Logger } from '@nestjs/common';
import { IdGenerator, loggableError, Principal } from '@svc/kernel';
import type { DraftRecommendation } from '@svc/text';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { ConflictEdits } from './conflict-edits';
import { answersAndPassages, ConflictViews, recommendationView, RecommendationView } from './conflict-views';
import { forbiddenMove } from './conflicts.errors';
import { RecommendationRepository, RecommendationWriter } from './conflicts.ports';
import type { Recommendation } from './question-conflict';
import { conflictTransition } from './question-conflict.states';
import { VisibleConflicts } from './visible-conflict';

export interface SetConflictAnswerInput {
  principal: Principal;
  access: AuditInstanceAccess;
  conflictId: string;
  answer: string;
}

/**
 * Records the expert's answer and drafts per-document recommendations synchronously (BEHAVIOUR.md §5):
 * `RECOMMENDATIONS_READY` with the recommendations inline. When drafting fails the answer is saved
 * anyway and the list is empty: calling again retries. The version column refuses a lost update (409).
 */
@Injectable()
export class SetConflictAnswer {
  private readonly logger = new Logger(SetConflictAnswer.name);

  constructor(
    private readonly visible: VisibleConflicts,
    private readonly writer: RecommendationWriter,
    private readonly edits: ConflictEdits,
    private readonly recommendations: RecommendationRepository,
    private readonly views: ConflictViews,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: SetConflictAnswerInput): Promise<{ recommendations: RecommendationView[] }> {
    const { conflict, visible } = await this.visible.get(input.access, input.principal, input.conflictId);
    const move = conflictTransition(conflict.state, 'set-answer');
    if (move.kind !== 'to') throw forbiddenMove(conflict.id, 'set-answer', conflict.state);
    // Drafting runs outside any transaction: a model may take seconds, and embedded mode has one connection.
    const { answers, passages } = answersAndPassages(conflict);
    let drafts: DraftRecommendation[] = [];
    try {
      drafts = await this.writer.write({ question: conflict.question, expertAnswer: input.answer, answers, passages });
    } catch (error) {
      this.logger.warn({ conflictId: conflict.id, writer: this.writer.name, error: loggableError(error) }, 'recommendations could not be drafted; the answer is saved and set-answer may be called again');
    }
    const now = this.edits.now();
    const recommendations: Recommendation[] = onePerDocument(drafts.filter((d) => conflict.documentIds.includes(d.documentId))).map((d) => ({
      id: this.ids.next('rec_'),
      instanceId: conflict.instanceId,
      conflictId: conflict.id,
      documentId: d.documentId,
      action: d.action,
      excerpt: d.excerpt,
      proposedText: d.proposedText,
      reason: d.reason,
      estimatedSeconds: Math.max(0, Math.round(d.estimatedSeconds)),
      status: 'DRAFT',
      createdAt: now,
    }));
    await this.edits.apply({
      conflict,
      changes: { state: move.state, answer: input.answer, answeredAt: now },
      action: 'audit_question_conflict_set_answer',
      actor: input.principal,
      alsoWithin: () => this.recommendations.replaceDrafts(conflict.id, recommendations),
    });
    const names = await this.views.names(input.access, conflict.documentIds);
    return { recommendations: recommendations.filter((r) => visible === 'all' || visible.includes(r.documentId)).map((r) => recommendationView(r, names)) };
  }
}

/** A document gets one recommendation per excerpt at most; the strongest action wins (DELETE > UPDATE > KEEP). */
function onePerDocument(drafts: DraftRecommendation[]): DraftRecommendation[] {
  const weight = { DELETE: 2, UPDATE: 1, KEEP: 0 } as const;
  const seen = new Map<string, DraftRecommendation>();
  for (const d of drafts) {
    const key = `${d.documentId}:${d.passageId}`;
    const current = seen.get(key);
    if (!current || weight[d.action] > weight[current.action]) seen.set(key, d);
  }
  return [...seen.values()];
}
