import { DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, deriveKey } from '@svc/config';
import { InstanceAuthenticator } from '@svc/http';
import { LanguageModel } from '@svc/kernel';
import { LlmModule } from '@svc/llm';
import { IndexDocumentJobHandler } from './index-document.job-handler';
import {
  AnswerComposer,
  AnswerSearch,
  ModelAnswerComposer,
  RuleBasedAnswerComposer,
  SearchAnswerSettings,
  SearchLogRepository,
  SearchStats,
  AuthenticateInstanceKey,
  CountDocuments,
  CountPendingDocuments,
  CreateInstanceApiKey,
  CreateRepositoryInstance,
  DeleteDocument,
  DocumentParser,
  DocumentRepository,
  GetDocument,
  GetDocumentsByIds,
  GetIndexationProgress,
  IndexDocument,
  IngestDocument,
  IngestionSettings,
  InstanceKeyHasher,
  ListDocuments,
  ListInstanceApiKeys,
  ReadDocumentPassages,
  ReindexDocuments,
  RepositoryInstanceStore,
  RevokeInstanceApiKey,
  SearchSemanticNodes,
  SemanticNodeRepository,
} from '@svc/repository-core';
import { HmacInstanceKeyHasher } from './hmac-instance-key-hasher';
import { RepositoryInstanceAuthenticator } from './instance-authenticator';
import { CompositeDocumentParser } from './parsers/composite-document-parser';
import { InstanceApiKeysController, InstanceDocumentsController, InstanceSearchController, RetrievalController } from './repository.controllers';
import { TypeOrmSearchLogRepository } from './typeorm-search-log.repository';
import { TypeOrmDocumentRepository, TypeOrmSemanticNodeRepository } from './typeorm-documents.store';
import { TypeOrmRepositoryInstanceStore } from './typeorm-repository-instance.store';

const USE_CASES = [
  AnswerSearch,
  SearchStats,
  AuthenticateInstanceKey,
  CountDocuments,
  CountPendingDocuments,
  CreateInstanceApiKey,
  CreateRepositoryInstance,
  DeleteDocument,
  GetDocument,
  GetDocumentsByIds,
  GetIndexationProgress,
  IndexDocument,
  IngestDocument,
  ListDocuments,
  ListInstanceApiKeys,
  ReadDocumentPassages,
  ReindexDocuments,
  RevokeInstanceApiKey,
  SearchSemanticNodes,
];


export interface RepositoryModuleOptions {
  /** Serve the instance API (`/api/documents/...`) and `/retrieval/...` (the retrieval app). */
  withControllers: boolean;
  withJobHandlers: boolean;
}

/**
 * The repository context: instances and their keys, documents, semantic nodes, indexation and
 * retrieval. Needs the jobs, embeddings and vector-index platform modules.
 */
@Module({})
export class RepositoryModule {
  static forRoot(options: RepositoryModuleOptions = { withControllers: false, withJobHandlers: false }): DynamicModule {
    return {
      module: RepositoryModule,
      imports: [LlmModule.forRoot()],
      controllers: options.withControllers ? [InstanceDocumentsController, InstanceSearchController, RetrievalController, InstanceApiKeysController] : [],
      providers: [
        { provide: RepositoryInstanceStore, useClass: TypeOrmRepositoryInstanceStore },
        { provide: DocumentRepository, useClass: TypeOrmDocumentRepository },
        { provide: SemanticNodeRepository, useClass: TypeOrmSemanticNodeRepository },
        {
          provide: DocumentParser,
          inject: [APP_CONFIG],
          useFactory: (c: AppConfig) => new CompositeDocumentParser({ pdf: { maxMemoryMb: c.PARSER_MAX_MEMORY_MB }, docx: { maxMemoryMb: c.PARSER_MAX_MEMORY_MB } }),
        },
        { provide: InstanceKeyHasher, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new HmacInstanceKeyHasher(deriveKey(c.authSecret, 'instance-key-pepper')) },
        { provide: InstanceAuthenticator, useClass: RepositoryInstanceAuthenticator },
        { provide: SearchLogRepository, useClass: TypeOrmSearchLogRepository },
        // The search-answer capability: the configured language model, else the rule-based composer.
        { provide: AnswerComposer, inject: [LanguageModel], useFactory: (model: LanguageModel) => (model.configured ? new ModelAnswerComposer(model) : new RuleBasedAnswerComposer()) },
        { provide: SearchAnswerSettings, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SearchAnswerSettings(c.SEARCH_ANSWER_THRESHOLD) },
        { provide: IngestionSettings, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new IngestionSettings(c.INGESTION_MAX_INSTANCE_BYTES) },
        ...USE_CASES,
        ...(options.withJobHandlers ? [IndexDocumentJobHandler] : []),
      ],
      exports: [InstanceAuthenticator, ...USE_CASES],
    };
  }
}
