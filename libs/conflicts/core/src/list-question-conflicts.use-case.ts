import { Injectable } from '@nestjs/common';
import type { Page, PageRequest, Principal } from '@svc/kernel';
import type { AuditInstanceAccess } from '@svc/workspace-core';
import { ConflictViews, QuestionConflictView } from './conflict-views';
import { QuestionConflictRepository } from './conflicts.ports';
import type { QuestionConflictState } from './question-conflict';
import { VisibleConflicts } from './visible-conflict';

export interface ListQuestionConflictsInput {
  principal: Principal;
  access: AuditInstanceAccess;
  page: PageRequest;
  /** Default `['OPEN']` (the worklist); `[]` means every state. */
  states?: QuestionConflictState[];
  questionIds?: string[];
  documentIds?: string[];
}

/** The instance's question conflicts the caller may see, newest first, documents hydrated. */
@Injectable()
export class ListQuestionConflicts {
  constructor(
    private readonly conflicts: QuestionConflictRepository,
    private readonly visible: VisibleConflicts,
    private readonly views: ConflictViews,
  ) {}

  async execute(input: ListQuestionConflictsInput): Promise<Page<QuestionConflictView>> {
    const visible = await this.visible.visibleTo(input.access, input.principal);
    const page = await this.conflicts.list(input.access.instanceId, { states: input.states ?? ['OPEN'], questionIds: input.questionIds, documentIds: input.documentIds, visible }, input.page);
    return { ...page, items: await this.views.views(input.access, page.items, visible) };
  }
}
