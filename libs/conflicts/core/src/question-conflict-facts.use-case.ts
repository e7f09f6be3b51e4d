import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, Principal, UnitOfWork } from '@svc/kernel';
import type { OpenConflictFacts } from './analysis-closing';
import { QuestionConflictRepository, Visible } from './conflicts.ports';
import { conflictTransition } from './question-conflict.states';

/** What the mandatory-questions context reads of a question's conflicts. */
@Injectable()
export class QuestionConflictFacts {
  constructor(private readonly conflicts: QuestionConflictRepository) {}

  countByQuestion(instanceId: string, questionIds: string[], visible: Visible): Promise<Map<string, number>> {
    return this.conflicts.countByQuestion(instanceId, questionIds, visible);
  }

  /** The question's `OPEN` conflicts, as the closing rule reads them. */
  async openConflicts(instanceId: string, questionId: string): Promise<OpenConflictFacts[]> {
    return (await this.conflicts.ofQuestion(instanceId, questionId, ['OPEN'])).map((c) => ({ fingerprint: c.fingerprint, documentIds: c.documentIds, createdAt: c.createdAt }));
  }

  /** The question conflicts (not IGNORED) touching these documents: which question, which documents and passages (the full audit's links). */
  async touchingDocuments(instanceId: string, documentIds: string[]): Promise<{ questionId: string; question: string; documentIds: string[]; semanticNodeIds: string[] }[]> {
    const conflicts = await this.conflicts.touching(instanceId, documentIds, ['OPEN', 'ANSWERED', 'RECOMMENDATIONS_READY', 'MANAGED']);
    return conflicts.map((c) => ({ questionId: c.questionId, question: c.question, documentIds: c.documentIds, semanticNodeIds: [...new Set(c.groups.flatMap((g) => g.excerpts.map((e) => e.semanticNodeId)))] }));
  }

  /** Every document cited by the question's conflicts (any state). */
  async citedDocuments(instanceId: string, questionId: string): Promise<string[]> {
    return [...new Set((await this.conflicts.ofQuestion(instanceId, questionId)).flatMap((c) => c.documentIds))].sort();
  }
}

/**
 * The expert answered the mandatory question (BEHAVIOUR.md §4): its `OPEN` conflicts move to
 * `ANSWERED` with that answer, in the caller's transaction; the others keep their state.
 */
@Injectable()
export class AnswerQuestionConflicts {
  constructor(
    private readonly conflicts: QuestionConflictRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  execute(input: { actor: Principal; instanceId: string; questionId: string; answer: string }): Promise<number> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      let moved = 0;
      for (const open of await this.conflicts.ofQuestion(input.instanceId, input.questionId, ['OPEN'])) {
        const move = conflictTransition(open.state, 'question-answered');
        if (move.kind !== 'to' || !(await this.conflicts.update(open, { state: move.state, answer: input.answer, answeredAt: now, updatedAt: now }))) continue;
        moved += 1;
        await this.activity.record({ organizationId: open.organizationId, instanceId: open.instanceId, action: 'question_conflict.answered_by_question', subjectId: open.id, actor: input.actor, before: { state: open.state, answer: open.answer }, after: { state: move.state, answer: input.answer } });
      }
      return moved;
    });
  }
}
