import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { ConflictViews, QuestionConflictView } from './conflict-views';
import { VisibleConflicts } from './visible-conflict';

/** One question conflict with its excerpts grouped by answer, companion questions and recommendations. */
@Injectable()
export class GetQuestionConflict {
  constructor(
    private readonly visible: VisibleConflicts,
    private readonly views: ConflictViews,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; conflictId: string }): Promise<QuestionConflictView> {
    const { conflict, visible } = await this.visible.get(input.access, input.principal, input.conflictId);
    const [view] = await this.views.views(input.access, [conflict], visible);
    return view;
  }
}
