import { Injectable } from '@nestjs/common';
import { ConflictAnswerGroup, conflictsToClose, FoundConflict, QuestionConflictFacts, RecordQuestionAnalysis } from '@svc/conflicts-core';
import { QUESTION_ANALYSIS_JOBS, QuestionsAnalyzePayload } from '@svc/contracts';
import { JobQueue } from '@svc/kernel';
import { decideQuestion, DetectedConflict, ExtractedAnswer, QUESTION_RETRIEVAL, QuestionAnalysis, selectPassages } from '@svc/text';
import type { MandatoryQuestion, MandatoryQuestionState } from './mandatory-question';
import { questionTransition } from './mandatory-question.states';
import { AnswerExtractor, CompanionQuestionWriter, MandatoryQuestionRepository, QuestionRetrieval, RetrievedPassage } from './mandatory-questions.ports';
import { QuestionEdits } from './question-edits';

/** The pieces of the analysis a job needs besides the question's own state. */
@Injectable()
export class QuestionAnalysisSteps {
  constructor(
    readonly retrieval: QuestionRetrieval,
    readonly extractor: AnswerExtractor,
    readonly companions: CompanionQuestionWriter,
  ) {}

  /** Retrieve (tens of candidates, a few per document), extract, decide: one question or companion question. */
  async analyse(questionId: string, question: string, instanceId: string): Promise<{ analysis: QuestionAnalysis; answers: ExtractedAnswer[]; passages: RetrievedPassage[] }> {
    const candidates = await this.retrieval.retrieve(instanceId, question, QUESTION_RETRIEVAL.candidates);
    const passages = selectPassages(question, candidates) as RetrievedPassage[];
    const answers = passages.length === 0 ? [] : await this.extractor.extract(question, passages);
    return { analysis: decideQuestion(questionId, answers, passages), answers, passages };
  }
}

export type AnalysisOutcome = 'gone' | 'closed' | Extract<MandatoryQuestionState, 'CONFLICTS' | 'NO_CONFLICT' | 'REFUSED'>;

/**
 * The analysis of one mandatory question (job `questions.analyze`, ANALYSIS.md §2): companion
 * questions, retrieval, extraction, grouping and decision for the question and each companion, then,
 * in one transaction, the conflicts recorded by fingerprint (nothing new on an unchanged repository;
 * an OPEN conflict no longer found is closed by the analysis) and the question's state. The slow
 * steps run outside any transaction; a job cut short runs again from the start and creates nothing twice.
 */
@Injectable()
export class AnalyzeQuestion {
  constructor(
    private readonly questions: MandatoryQuestionRepository,
    private readonly edits: QuestionEdits,
    private readonly steps: QuestionAnalysisSteps,
    private readonly record: RecordQuestionAnalysis,
    private readonly facts: QuestionConflictFacts,
    private readonly jobs: JobQueue,
  ) {}

  async execute(payload: QuestionsAnalyzePayload): Promise<AnalysisOutcome> {
    let question = await this.questions.get(payload.instanceId, payload.questionId);
    if (!question) return 'gone';
    const start = questionTransition(question.state, 'analysis-start');
    if (start.kind !== 'to') return 'closed';
    if (question.state !== 'ANALYZING') {
      await this.edits.apply({ question, changes: { state: 'ANALYZING' }, action: 'mandatory_question.analysis_started', actor: null });
      question = (await this.questions.get(payload.instanceId, payload.questionId))!;
    }

    const main = await this.steps.analyse(question.id, question.question, question.instanceId);
    const companionQuestions = (await this.steps.companions.write(question.question, main.answers)).slice(0, 5);
    const runs = [{ text: question.question, ...main }];
    for (const companion of companionQuestions) runs.push({ text: companion, ...(await this.steps.analyse(question.id, companion, question.instanceId)) });

    const found = new Map<string, FoundConflict>();
    for (const run of runs) for (const c of run.analysis.conflicts) if (!found.has(c.fingerprint)) found.set(c.fingerprint, foundConflict(c, run.passages));
    const retrievedDocumentIds = [...new Set(runs.flatMap((r) => r.passages.map((p) => p.documentId)))].sort();
    // An open conflict not found again closes only if this analysis read its documents or they changed.
    const open = await this.facts.openConflicts(question.instanceId, question.id);
    const read = new Set(retrievedDocumentIds);
    const unread = [...new Set(open.flatMap((c) => c.documentIds))].filter((id) => !read.has(id));
    const closable = conflictsToClose(open, new Set(found.keys()), read, await this.steps.retrieval.indexedAt(question.instanceId, unread));
    // A conflict kept open is still a conflict of the question.
    const keptOpen = open.some((c) => !found.has(c.fingerprint) && !closable.includes(c.fingerprint));
    const outcome: AnalysisOutcome = found.size > 0 || keptOpen ? 'CONFLICTS' : runs.some((r) => r.analysis.outcome !== 'REFUSED') ? 'NO_CONFLICT' : 'REFUSED';

    const current = await this.questions.get(question.instanceId, question.id);
    if (!current) return 'gone';
    // An expert closed the question meanwhile: their decision stands, and nothing is recorded.
    if (questionTransition(current.state, 'analysis-start').kind !== 'to') return 'closed';
    await this.edits.apply({
      question: current,
      changes: { state: outcome, companionQuestions, retrievedDocumentIds, analyzedAt: this.edits.now() },
      action: 'mandatory_question.analyzed',
      actor: null,
      alsoWithin: async () => {
        await this.record.execute({ organizationId: current.organizationId, instanceId: current.instanceId, questionId: current.id, question: current.question, companionQuestions, found: [...found.values()], closable });
        // What the repository could not answer: the question when REFUSED, else its companion questions without an answer.
        const unanswered =
          outcome === 'REFUSED'
            ? [{ text: current.question, source: 'mandatory_question' as const }]
            : runs.slice(1).filter((r) => r.analysis.outcome === 'REFUSED').map((r) => ({ text: r.text, source: 'companion_question' as const }));
        // The follow-ups carry a snapshot of what this analysis left unanswered: they must apply in the order the analyses
        // ran, so they all wait their turn as background work. An interactive one ran ahead of an older background one, and
        // the older snapshot (the question still REFUSED) put an answered question back into a missing subject.
        for (const job of QUESTION_ANALYSIS_JOBS) await this.jobs.enqueue(job, { instanceId: current.instanceId, organizationId: current.organizationId, questionId: current.id, unanswered }, { priority: 'background' });
      },
    });
    return outcome;
  }
}

/** A detected conflict with the passages' text and documents, as the conflicts context keeps it. */
export function foundConflict(c: DetectedConflict, passages: RetrievedPassage[]): FoundConflict {
  const groups: ConflictAnswerGroup[] = c.groups.map((g) => ({
    key: g.key,
    display: g.display,
    excerpts: g.answers.map((a) => {
      const p = passages.find((x) => x.id === a.passageId);
      return {
        semanticNodeId: a.passageId,
        documentId: a.documentId,
        documentName: p?.documentName ?? a.documentId,
        documentUrl: p?.documentUrl ?? null,
        documentDate: p?.documentDate ?? null,
        text: p?.text ?? a.text,
        extractedAnswer: a.text,
        spanStart: a.start,
        spanEnd: a.end,
        kind: a.kind,
        normalizedKey: a.key,
        normalizedValue: a.display,
        scope: a.scope,
        confidence: a.confidence,
      };
    }),
  }));
  return { fingerprint: c.fingerprint, scope: c.scope, groups, newestDocumentId: c.newestDocumentId ?? null };
}

export type { MandatoryQuestion };
