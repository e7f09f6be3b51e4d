import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { ConflictEdits } from './conflict-edits';
import { forbiddenMove } from './conflicts.errors';
import { RecommendationRepository } from './conflicts.ports';
import { conflictTransition } from './question-conflict.states';
import { VisibleConflicts } from './visible-conflict';

/** Ignore: `IGNORED` from any unresolved state (idempotent); a `MANAGED` conflict cannot be ignored (409). Drafts are discarded. */
@Injectable()
export class IgnoreQuestionConflict {
  constructor(
    private readonly visible: VisibleConflicts,
    private readonly edits: ConflictEdits,
    private readonly recommendations: RecommendationRepository,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; conflictId: string }): Promise<true> {
    const { conflict } = await this.visible.get(input.access, input.principal, input.conflictId);
    const move = conflictTransition(conflict.state, 'ignore');
    if (move.kind === 'same') return true;
    if (move.kind === 'forbidden') throw forbiddenMove(conflict.id, 'ignore', conflict.state);
    await this.edits.apply({
      conflict,
      changes: { state: move.state, closedAt: this.edits.now(), closedBy: 'expert' },
      action: 'audit_question_conflict_ignore',
      actor: input.principal,
      alsoWithin: () => this.recommendations.moveStatus(conflict.id, 'DRAFT', 'DISCARDED'),
    });
    return true;
  }
}
