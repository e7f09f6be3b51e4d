import { Injectable } from '@nestjs/common';
import type { Principal } from '@svc/kernel';
import { AuditInstanceAccess, DocumentVisibility } from '@svc/workspace-core';
import { conflictNotFound } from './conflicts.errors';
import { QuestionConflictRepository, Visible } from './conflicts.ports';
import type { QuestionConflict } from './question-conflict';
import { isVisible } from './conflict-views';

/** One conflict the caller may see, or 404 (a hidden conflict does not exist for them: BEHAVIOUR.md §3). */
@Injectable()
export class VisibleConflicts {
  constructor(
    private readonly conflicts: QuestionConflictRepository,
    private readonly visibility: DocumentVisibility,
  ) {}

  visibleTo(access: AuditInstanceAccess, principal: Principal): Promise<Visible> {
    return this.visibility.visibleTo(access, principal.userId);
  }

  async get(access: AuditInstanceAccess, principal: Principal, conflictId: string): Promise<{ conflict: QuestionConflict; visible: Visible }> {
    const conflict = await this.conflicts.get(access.instanceId, conflictId);
    if (!conflict) throw conflictNotFound(conflictId);
    const visible = await this.visibleTo(access, principal);
    if (!isVisible(conflict, visible)) throw conflictNotFound(conflictId);
    return { conflict, visible };
  }
}
