import { DynamicModule, Module } from '@nestjs/common';
import { LanguageModel } from '@svc/kernel';
import { LlmModule } from '@svc/llm';
import {
  AnalyseInstanceQuestions,
  AnalyzeQuestion,
  AnswerExtractor,
  CompanionQuestionWriter,
  CreateMandatoryQuestion,
  DocumentReindexer,
  ForceAnalyzeMandatoryQuestion,
  ListMandatoryQuestions,
  MandatoryQuestionRepository,
  ModelAnswerExtractor,
  ModelCompanionQuestionWriter,
  QuestionAnalysisSteps,
  QuestionEdits,
  QuestionRetrieval,
  ReanalyseForDocumentChange,
  RuleBasedAnswerExtractor,
  RuleBasedCompanionQuestionWriter,
  SetMandatoryQuestionAnswer,
  SetMandatoryQuestionIgnored,
  SetMandatoryQuestionManaged,
} from '@svc/mandatory-questions-core';
import { AnalyzeInstanceJobHandler } from './analyze-instance.job-handler';
import { AnalyzeQuestionJobHandler } from './analyze-question.job-handler';
import { DocumentChangedJobHandler } from './document-changed.job-handler';
import { MandatoryQuestionController } from './mandatory-questions.controller';
import { TypeOrmMandatoryQuestionRepository } from './mandatory-questions.repository';
import { LocalDocumentReindexer, LocalQuestionRetrieval } from './repository-adapters';

const USE_CASES = [
  QuestionEdits,
  CreateMandatoryQuestion,
  ListMandatoryQuestions,
  SetMandatoryQuestionAnswer,
  SetMandatoryQuestionManaged,
  SetMandatoryQuestionIgnored,
  ForceAnalyzeMandatoryQuestion,
  QuestionAnalysisSteps,
  AnalyzeQuestion,
  ReanalyseForDocumentChange,
  AnalyseInstanceQuestions,
];

/**
 * The mandatory-questions context and its analysis. `uses`: the app's workspace, repository and
 * conflicts modules (their public use cases). The capability ports get the configured model's
 * adapters, or the rule-based ones (the offline default).
 */
@Module({})
export class MandatoryQuestionsModule {
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: MandatoryQuestionsModule,
      imports: [LlmModule.forRoot(), ...options.uses],
      controllers: options.withControllers ? [MandatoryQuestionController] : [],
      providers: [
        { provide: MandatoryQuestionRepository, useClass: TypeOrmMandatoryQuestionRepository },
        { provide: QuestionRetrieval, useClass: LocalQuestionRetrieval },
        { provide: DocumentReindexer, useClass: LocalDocumentReindexer },
        { provide: AnswerExtractor, inject: [LanguageModel], useFactory: (m: LanguageModel) => (m.configured ? new ModelAnswerExtractor(m) : new RuleBasedAnswerExtractor()) },
        { provide: CompanionQuestionWriter, inject: [LanguageModel], useFactory: (m: LanguageModel) => (m.configured ? new ModelCompanionQuestionWriter(m) : new RuleBasedCompanionQuestionWriter()) },
        ...USE_CASES,
        ...(options.withJobHandlers ? [AnalyzeQuestionJobHandler, DocumentChangedJobHandler, AnalyzeInstanceJobHandler] : []),
      ],
      exports: [CreateMandatoryQuestion],
    };
  }
}
