import { DynamicModule, Module } from '@nestjs/common';
import {
  AnswerQuestionConflicts,
  CloseQuestionConflict,
  ConflictEdits,
  ConflictViews,
  CurrentDocumentText,
  GetDocumentRecommendations,
  GetQuestionConflict,
  GetTopCollaborators,
  IgnoreQuestionConflict,
  ListQuestionConflicts,
  ModelRecommendationWriter,
  QuestionConflictFacts,
  QuestionConflictRepository,
  RecommendationRepository,
  RecommendationWriter,
  RecordQuestionAnalysis,
  RuleBasedRecommendationWriter,
  SetConflictAnswer,
  TrackAppliedRecommendations,
  VisibleConflicts,
} from '@svc/conflicts-core';
import { LanguageModel } from '@svc/kernel';
import { LlmModule } from '@svc/llm';
import { ConflictWorkController, QuestionConflictController } from './conflicts.controller';
import { RepositoryDocumentText } from './conflicts.adapters';
import { ConflictsDocumentChangedJobHandler } from './conflicts.job-handlers';
import { TypeOrmQuestionConflictRepository, TypeOrmRecommendationRepository } from './conflicts.repositories';

/** What other contexts use: the analysis records its findings, the question's answer and facts; the full audit links its conflicts to questions. */
const PUBLIC_USE_CASES = [RecordQuestionAnalysis, AnswerQuestionConflicts, QuestionConflictFacts];
/** The recommendation capability, shared with the full audit's set-expert-answer. */
const PUBLIC_PORTS = [RecommendationWriter];

/**
 * The question-conflicts context. `uses`: the app's workspace module (instance access, documents,
 * visibility) and repository module (the text of a changed document, for applied recommendations).
 */
@Module({})
export class ConflictsModule {
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: ConflictsModule,
      imports: [LlmModule.forRoot(), ...options.uses],
      controllers: options.withControllers ? [QuestionConflictController, ConflictWorkController] : [],
      providers: [
        { provide: QuestionConflictRepository, useClass: TypeOrmQuestionConflictRepository },
        { provide: RecommendationRepository, useClass: TypeOrmRecommendationRepository },
        { provide: CurrentDocumentText, useClass: RepositoryDocumentText },
        // The configured model drafts recommendations; without one, the rule-based writer (offline default).
        { provide: RecommendationWriter, inject: [LanguageModel], useFactory: (model: LanguageModel) => (model.configured ? new ModelRecommendationWriter(model) : new RuleBasedRecommendationWriter()) },
        ConflictEdits,
        ConflictViews,
        VisibleConflicts,
        ListQuestionConflicts,
        GetQuestionConflict,
        SetConflictAnswer,
        CloseQuestionConflict,
        IgnoreQuestionConflict,
        GetDocumentRecommendations,
        GetTopCollaborators,
        TrackAppliedRecommendations,
        ...PUBLIC_USE_CASES,
        ...(options.withJobHandlers ? [ConflictsDocumentChangedJobHandler] : []),
      ],
      exports: [...PUBLIC_USE_CASES, ...PUBLIC_PORTS],
    };
  }
}
