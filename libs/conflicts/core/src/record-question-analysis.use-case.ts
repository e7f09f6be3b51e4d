import { Injectable } from '@nestjs/common';
import { ActivityLog, Clock, IdGenerator, UnitOfWork } from '@svc/kernel';
import { QuestionConflictRepository } from './conflicts.ports';
import { documentIdsOf, FoundConflict, QuestionConflict } from './question-conflict';
import { conflictTransition } from './question-conflict.states';

export interface QuestionAnalysisRecord {
  organizationId: string;
  instanceId: string;
  questionId: string;
  question: string;
  companionQuestions: string[];
  /** Every contradiction the analysis found now (empty: none). */
  found: FoundConflict[];
  /**
   * Fingerprints of `OPEN` conflicts that this analysis no longer found and may close
   * (`conflictsToClose`); the other open ones stay open.
   */
  closable: string[];
}

/**
 * What one analysis of a mandatory question means for its conflicts (ANALYSIS.md §2.7), in the
 * caller's transaction: a fingerprint not seen before for the question is a new `OPEN` conflict (one
 * already seen, in any state, creates nothing: re-running on an unchanged repository is idempotent);
 * an `OPEN` conflict the analysis no longer finds, and may close (`conflictsToClose`: it read the
 * documents, or they changed), is closed as `MANAGED` by the analysis. Logged.
 */
@Injectable()
export class RecordQuestionAnalysis {
  constructor(
    private readonly conflicts: QuestionConflictRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly activity: ActivityLog,
  ) {}

  execute(record: QuestionAnalysisRecord): Promise<{ created: number; closed: number }> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      let created = 0;
      for (const found of record.found) {
        const conflict: QuestionConflict = {
          ...found,
          id: this.ids.next('qc_'),
          instanceId: record.instanceId,
          organizationId: record.organizationId,
          questionId: record.questionId,
          question: record.question,
          companionQuestions: record.companionQuestions,
          documentIds: documentIdsOf(found.groups),
          state: 'OPEN',
          answer: null,
          createdAt: now,
          updatedAt: now,
          answeredAt: null,
          closedAt: null,
          closedBy: null,
          version: 1,
        };
        if (!(await this.conflicts.insertIfNew(conflict))) continue;
        created += 1;
        await this.activity.record({ organizationId: record.organizationId, instanceId: record.instanceId, action: 'question_conflict.detected', subjectId: conflict.id, actor: null, before: null, after: { state: 'OPEN', question_id: record.questionId, fingerprint: found.fingerprint, documents: conflict.documentIds } });
      }
      const closable = new Set(record.closable);
      let closed = 0;
      for (const open of await this.conflicts.ofQuestion(record.instanceId, record.questionId, ['OPEN'])) {
        if (!closable.has(open.fingerprint)) continue;
        const move = conflictTransition(open.state, 'analysis-close');
        if (move.kind !== 'to') continue;
        // A concurrent expert edit wins: the conflict is theirs now.
        if (!(await this.conflicts.update(open, { state: move.state, closedAt: now, closedBy: 'analysis', updatedAt: now }))) continue;
        closed += 1;
        await this.activity.record({ organizationId: record.organizationId, instanceId: record.instanceId, action: 'question_conflict.closed_by_analysis', subjectId: open.id, actor: null, before: { state: open.state }, after: { state: move.state, reason: 'a later analysis of the question no longer finds this contradiction in the documents' } });
      }
      return { created, closed };
    });
  }
}
