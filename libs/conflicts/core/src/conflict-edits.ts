import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, Principal, UnitOfWork } from '@svc/kernel';
import { concurrentEdit } from './conflicts.errors';
import { ConflictChanges, QuestionConflictRepository } from './conflicts.ports';
import type { QuestionConflict } from './question-conflict';

export interface ConflictEdit {
  conflict: QuestionConflict;
  changes: ConflictChanges;
  /** The activity log's action (the operation name, or `question_conflict.<event>` for the analysis). */
  action: string;
  /** null for the service's own changes (the analysis). */
  actor: Principal | null;
  /** More writes that commit with the change (recommendations). */
  alsoWithin?: () => Promise<void>;
}

/**
 * The one way a conflict changes: in one transaction, only if nobody changed it since it was read
 * (version column; else 409 `QUESTION_CONFLICT.CONCURRENT_EDIT`), with its activity entry.
 */
@Injectable()
export class ConflictEdits {
  constructor(
    private readonly conflicts: QuestionConflictRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  apply(edit: ConflictEdit): Promise<void> {
    const { conflict, changes } = edit;
    return this.uow.run(async () => {
      if (!(await this.conflicts.update(conflict, { updatedAt: this.clock.now(), ...changes }))) throw concurrentEdit(conflict.id);
      await edit.alsoWithin?.();
      const before = Object.fromEntries(Object.keys(changes).filter((k) => k !== 'updatedAt').map((k) => [k, conflict[k as keyof ConflictChanges] ?? null]));
      await this.activity.record({ organizationId: conflict.organizationId, instanceId: conflict.instanceId, action: edit.action, subjectId: conflict.id, actor: edit.actor, before, after: changes });
    });
  }
}
