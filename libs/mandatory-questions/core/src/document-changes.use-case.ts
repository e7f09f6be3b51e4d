import { Injectable } from '@nestjs/common';
import { DocumentChangedPayload, JOB_NAMES, QuestionsAnalyzeInstancePayload } from '@svc/contracts';
import { JobQueue, UnitOfWork } from '@svc/kernel';
import { QUESTION_RETRIEVAL, selectPassages } from '@svc/text';
import { GetInstanceStep } from '@svc/workspace-core';
import { ANALYSIS_JOB_OPTIONS } from './analysis-job';
import { MandatoryQuestionRepository, QuestionRetrieval } from './mandatory-questions.ports';

/**
 * A document was indexed or deleted (job `questions.document-changed`, ANALYSIS.md §7). In
 * RUNNING_PHASE, the open questions whose retrieval it can change are queued for analysis: those the
 * last analysis read it for, and (for new or changed content) those whose retrieval now selects it.
 * Questions still waiting for their first analysis will read it anyway.
 */
@Injectable()
export class ReanalyseForDocumentChange {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly retrieval: QuestionRetrieval,
    private readonly steps: GetInstanceStep,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: DocumentChangedPayload): Promise<string> {
    if ((await this.steps.execute(payload.instanceId)) !== 'RUNNING_PHASE') return 'not_running';
    const affected: string[] = [];
    for (const question of await this.questions.open(payload.instanceId)) {
      if (question.state === 'PENDING') continue;
      let reads = question.retrievedDocumentIds.includes(payload.documentId);
      if (!reads && payload.change === 'indexed') {
        const candidates = await this.retrieval.retrieve(payload.instanceId, question.question, QUESTION_RETRIEVAL.candidates);
        reads = selectPassages(question.question, candidates).some((p) => p.documentId === payload.documentId);
      }
      if (reads) affected.push(question.id);
    }
    await this.uow.run(async () => {
      for (const questionId of affected) await this.jobs.enqueue(JOB_NAMES.questionsAnalyze, { instanceId: payload.instanceId, questionId, reason: 'document' }, ANALYSIS_JOB_OPTIONS);
    });
    return `queued ${affected.length}`;
  }
}

/** The instance reached RUNNING_PHASE (job `questions.analyze-instance`): every open question is analysed over the indexed repository. */
@Injectable()
export class AnalyseInstanceQuestions {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(payload: QuestionsAnalyzeInstancePayload): Promise<string> {
    const open = await this.questions.open(payload.instanceId);
    await this.uow.run(async () => {
      for (const q of open) await this.jobs.enqueue(JOB_NAMES.questionsAnalyze, { instanceId: payload.instanceId, questionId: q.id, reason: 'instance' }, ANALYSIS_JOB_OPTIONS);
    });
    return `queued ${open.length}`;
  }
}
