import { DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { LlmModule } from '@svc/llm';
import { ForeignQuestionAnswers } from '@svc/mandatory-questions-core';
import {
  AnswerSubjectQuestion,
  CompanionDocumentWriter,
  GenerateCompanionDocument,
  MissingSubjectQueries,
  MissingSubjectRepository,
  MissingSubjectsSettings,
  ModelCompanionWriter,
  RecordUnansweredQuestions,
  RecordUnansweredSearches,
  SearchDemand,
  SetMissingSubjectState,
  SubjectMembership,
  RuleBasedCompanionWriter,
  SubjectQuestionRepository,
} from '@svc/missing-subjects-core';
import { RepositorySearchDemand, SubjectQuestionAnswers } from './missing-subjects.adapters';
import { MissingSubjectsController } from './missing-subjects.controller';
import { TypeOrmMissingSubjectRepository, TypeOrmSubjectQuestionRepository } from './missing-subjects.repositories';
import { QuestionAnalyzedJobHandler, SearchesLoggedJobHandler } from './missing-subjects.job-handlers';

const USE_CASES = [SubjectMembership, RecordUnansweredQuestions, RecordUnansweredSearches, MissingSubjectQueries, SetMissingSubjectState, AnswerSubjectQuestion, GenerateCompanionDocument];

/**
 * The missing-subjects context: unanswered questions grouped into subjects, their answers and the
 * companion document. `uses`: the app's workspace and repository modules (the search log). Exports the answers of `msq_` questions for
 * the mandatory-questions context (its port `ForeignQuestionAnswers`).
 */
@Module({})
export class MissingSubjectsModule {
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: MissingSubjectsModule,
      imports: [LlmModule.forRoot(), ...options.uses],
      controllers: options.withControllers ? [MissingSubjectsController] : [],
      providers: [
        { provide: MissingSubjectRepository, useClass: TypeOrmMissingSubjectRepository },
        { provide: SubjectQuestionRepository, useClass: TypeOrmSubjectQuestionRepository },
        {
          provide: MissingSubjectsSettings,
          inject: [APP_CONFIG],
          useFactory: (c: AppConfig) => new MissingSubjectsSettings(c.MISSING_SUBJECTS_THRESHOLD, c.MISSING_SUBJECTS_SEARCH_MIN_USERS, c.MISSING_SUBJECTS_SEARCH_MIN_REPEATS),
        },
        { provide: ForeignQuestionAnswers, useClass: SubjectQuestionAnswers },
        { provide: SearchDemand, useClass: RepositorySearchDemand },
        // The configured model drafts the companion document; without one, the rule-based writer does.
        { provide: CompanionDocumentWriter, inject: [LanguageModel], useFactory: (m: LanguageModel) => (m.configured ? new ModelCompanionWriter(m) : new RuleBasedCompanionWriter()) },
        ...USE_CASES,
        ...(options.withJobHandlers ? [QuestionAnalyzedJobHandler, SearchesLoggedJobHandler] : []),
      ],
      exports: [ForeignQuestionAnswers],
    };
  }
}
