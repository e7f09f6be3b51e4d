import { Injectable } from '@nestjs/common';
import { AnswerQuestionConflicts, QuestionConflictFacts } from '@svc/conflicts-core';
import { JOB_NAMES } from '@svc/contracts';
import { IdGenerator, JobQueue, Page, PageRequest, Principal } from '@svc/kernel';
import { AuditInstanceAccess, DocumentVisibility } from '@svc/workspace-core';
import { analysisJobOptions } from './analysis-job';
import { MandatoryQuestion, MandatoryQuestionState, questionView, MandatoryQuestionView } from './mandatory-question';
import { questionTransition } from './mandatory-question.states';
import { forbiddenQuestionMove, questionNotFound } from './mandatory-questions.errors';
import { DocumentReindexer, ForeignQuestionAnswers, MandatoryQuestionRepository } from './mandatory-questions.ports';
import { QuestionEdits } from './question-edits';

export interface QuestionInput {
  principal: Principal;
  access: AuditInstanceAccess;
  questionId: string;
}

async function load(questions: MandatoryQuestionRepository, input: QuestionInput): Promise<MandatoryQuestion> {
  const question = input.questionId.startsWith('mq_') ? await questions.get(input.access.instanceId, input.questionId) : null;
  if (!question) throw questionNotFound(input.questionId);
  return question;
}

/** Creates a mandatory question in PENDING and queues its analysis in the same transaction (outbox). */
@Injectable()
export class CreateMandatoryQuestion {
  constructor(
    private readonly edits: QuestionEdits,
    private readonly ids: IdGenerator,
    private readonly jobs: JobQueue,
  ) {}

  /** `access.instance`: the instance as the request read it (its step decides the analysis' priority); none for the service's own questions (the demo's). */
  async execute(input: { actor: Principal | null; access: Pick<AuditInstanceAccess, 'instanceId' | 'organizationId'> & { instance?: Pick<AuditInstanceAccess['instance'], 'step'> }; question: string }): Promise<{ id: string; state: MandatoryQuestionState }> {
    const now = this.edits.now();
    const question: MandatoryQuestion = {
      id: this.ids.next('mq_'),
      instanceId: input.access.instanceId,
      organizationId: input.access.organizationId,
      question: input.question.trim(),
      state: 'PENDING',
      answer: null,
      companionQuestions: [],
      retrievedDocumentIds: [],
      createdAt: now,
      updatedAt: now,
      analyzedAt: null,
      version: 1,
    };
    await this.edits.create(question, input.actor, () => this.jobs.enqueue(JOB_NAMES.questionsAnalyze, { instanceId: question.instanceId, questionId: question.id, reason: 'created' }, analysisJobOptions('created', input.access.instance?.step === 'RUNNING_PHASE')));
    return { id: question.id, state: question.state };
  }
}

/** The instance's mandatory questions, newest first, optionally in one state; conflict counts follow the visibility rule. */
@Injectable()
export class ListMandatoryQuestions {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly facts: QuestionConflictFacts,
    private readonly visibility: DocumentVisibility,
  ) {}

  async execute(input: { principal: Principal; access: AuditInstanceAccess; page: PageRequest; state?: MandatoryQuestionState }): Promise<Page<MandatoryQuestionView>> {
    const page = await this.questions.list(input.access.instanceId, input.state, input.page);
    const visible = await this.visibility.visibleTo(input.access, input.principal.userId);
    const counts = await this.facts.countByQuestion(input.access.instanceId, page.items.map((q) => q.id), visible);
    return { ...page, items: page.items.map((q) => questionView(q, counts.get(q.id) ?? 0)) };
  }
}

/**
 * Stores the expert's answer on an open question; its OPEN conflicts move to ANSWERED with it, in the
 * same transaction. A `msq_` id names a missing-subject question: its context stores the answer.
 */
@Injectable()
export class SetMandatoryQuestionAnswer {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly edits: QuestionEdits,
    private readonly conflicts: AnswerQuestionConflicts,
    private readonly foreign: ForeignQuestionAnswers,
  ) {}

  async execute(input: QuestionInput & { answer: string }): Promise<true> {
    if (input.questionId.startsWith('msq_')) {
      if (!(await this.foreign.answer(input))) throw questionNotFound(input.questionId);
      return true;
    }
    await this.edits.applyLatest(
      () => load(this.questions, input),
      (question) => {
        if (questionTransition(question.state, 'set-answer').kind === 'forbidden') throw forbiddenQuestionMove(question.id, 'set-answer', question.state);
        return {
          question,
          changes: { answer: input.answer },
          action: 'audit_mandatory_question_set_answer',
          actor: input.principal,
          alsoWithin: async () => {
            await this.conflicts.execute({ actor: input.principal, instanceId: question.instanceId, questionId: question.id, answer: input.answer });
          },
        };
      },
    );
    return true;
  }
}

/** MANAGED (idempotent), and queues the re-indexation of every document cited by the question's conflicts. */
@Injectable()
export class SetMandatoryQuestionManaged {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly edits: QuestionEdits,
    private readonly facts: QuestionConflictFacts,
    private readonly reindexer: DocumentReindexer,
  ) {}

  async execute(input: QuestionInput): Promise<true> {
    const first = await load(this.questions, input);
    if (questionTransition(first.state, 'set-managed').kind !== 'to') return true;
    const cited = await this.facts.citedDocuments(first.instanceId, first.id);
    await this.edits.applyLatest(
      () => load(this.questions, input),
      (question) => {
        const move = questionTransition(question.state, 'set-managed');
        if (move.kind !== 'to') return null;
        return {
          question,
          changes: { state: move.state },
          action: 'audit_mandatory_question_set_managed',
          actor: input.principal,
          alsoWithin: async () => {
            await this.reindexer.reindex(question.instanceId, cited);
          },
        };
      },
    );
    return true;
  }
}

/** IGNORED (idempotent): the analysis no longer follows the question. */
@Injectable()
export class SetMandatoryQuestionIgnored {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly edits: QuestionEdits,
  ) {}

  async execute(input: QuestionInput): Promise<true> {
    await this.edits.applyLatest(
      () => load(this.questions, input),
      (question) => {
        const move = questionTransition(question.state, 'set-ignored');
        return move.kind === 'to' ? { question, changes: { state: move.state }, action: 'audit_mandatory_question_set_ignored', actor: input.principal } : null;
      },
    );
    return true;
  }
}

/** Only from REFUSED (else 409): back to PENDING and queued for analysis again. */
@Injectable()
export class ForceAnalyzeMandatoryQuestion {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly edits: QuestionEdits,
    private readonly jobs: JobQueue,
  ) {}

  async execute(input: QuestionInput): Promise<true> {
    await this.edits.applyLatest(
      () => load(this.questions, input),
      (question) => {
        const move = questionTransition(question.state, 'force-analyze');
        if (move.kind !== 'to') throw forbiddenQuestionMove(question.id, 'force-analyze', question.state);
        return {
          question,
          changes: { state: move.state },
          action: 'audit_mandatory_question_force_analyze',
          actor: input.principal,
          alsoWithin: async () => {
            await this.jobs.enqueue(JOB_NAMES.questionsAnalyze, { instanceId: question.instanceId, questionId: question.id, reason: 'forced' }, analysisJobOptions('forced', input.access.instance.step === 'RUNNING_PHASE'));
          },
        };
      },
    );
    return true;
  }
}
