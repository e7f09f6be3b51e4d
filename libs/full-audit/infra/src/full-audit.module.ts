import { DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { LanguageModel } from '@svc/kernel';
import { LlmModule } from '@svc/llm';
import {
  ClaimJudge,
  ClaimReader,
  ClaimStore,
  ContradictionFinder,
  ExtractClaims,
  FullAuditConflictRepository,
  FullAuditEdits,
  FullAuditSettings,
  FullAuditViews,
  GetFullAuditConflict,
  HaveToShowFullAudit,
  JudgeFullAudit,
  CollectModelBatch,
  ScanStepWriter,
  ListFullAuditConflicts,
  ModelClaimJudge,
  MoveFullAuditConflict,
  QuestionLinks,
  RescanChangedDocument,
  RuleBasedClaimJudge,
  ScanSource,
  ScanStore,
  ModelBatchStore,
  ModelRejections,
  SetFullAuditAnswer,
  StartFullAuditScan,
  RequestFullAuditScan,
  SweepFullAudit,
  vectorBandOf,
  VisibleFullAuditConflicts,
  DiscoverySettings,
  DiscoveryVerdicts,
  ModelDiscovery,
  ModelDiscoveryJudge,
  ModelStatementExtractor,
  ScanModelLedger,
  StatementCache,
} from '@svc/full-audit-core';
import { QuestionConflictLinks, LocalScanSource } from './adapters';
import { FullAuditController } from './full-audit.controller';
import { FullAuditCollectJobHandler, FullAuditDocumentChangedJobHandler, FullAuditExtractJobHandler, FullAuditJudgeJobHandler, FullAuditScanJobHandler, FullAuditSweeper } from './full-audit.job-handlers';
import { ClaimsThread, ThreadedClaimReader, ThreadedContradictionFinder } from './claims-thread';
import { TypeOrmDiscoveryVerdicts, TypeOrmScanModelLedger, TypeOrmStatementCache } from './full-audit.discovery-stores';
import { TypeOrmClaimStore, TypeOrmFullAuditConflictRepository, TypeOrmModelBatchStore, TypeOrmModelRejections, TypeOrmScanStore } from './full-audit.repositories';

const USE_CASES = [
  VisibleFullAuditConflicts,
  FullAuditEdits,
  FullAuditViews,
  ListFullAuditConflicts,
  GetFullAuditConflict,
  HaveToShowFullAudit,
  MoveFullAuditConflict,
  SetFullAuditAnswer,
  StartFullAuditScan,
  RequestFullAuditScan,
  ExtractClaims,
  RescanChangedDocument,
  JudgeFullAudit,
  ScanStepWriter,
  CollectModelBatch,
  SweepFullAudit,
  ModelDiscovery,
];

/**
 * The full-audit context: the repository-wide scan (claims, judge, lifecycle) and its worklist.
 * `uses`: the app's workspace (instance access, documents, visibility), repository (passages) and
 * conflicts (the recommendation writer, question links) modules.
 */
@Module({})
export class FullAuditModule {
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: FullAuditModule,
      imports: [LlmModule.forRoot(), ...options.uses],
      controllers: options.withControllers ? [FullAuditController] : [],
      providers: [
        { provide: FullAuditConflictRepository, useClass: TypeOrmFullAuditConflictRepository },
        { provide: ClaimStore, useClass: TypeOrmClaimStore },
        { provide: ScanStore, useClass: TypeOrmScanStore },
        { provide: ModelBatchStore, useClass: TypeOrmModelBatchStore },
        { provide: ModelRejections, useClass: TypeOrmModelRejections },
        { provide: ScanSource, useClass: LocalScanSource },
        { provide: QuestionLinks, useClass: QuestionConflictLinks },
        // The configured model confirms the rule-based judge's candidates; without one, they are the findings.
        // The scan's CPU work (claims, the judge's search) runs off the thread that serves requests.
        { provide: ClaimsThread, useFactory: () => new ClaimsThread() },
        { provide: ContradictionFinder, inject: [ClaimsThread], useFactory: (thread: ClaimsThread) => new ThreadedContradictionFinder(thread) },
        { provide: ClaimReader, inject: [ClaimsThread], useFactory: (thread: ClaimsThread) => new ThreadedClaimReader(thread) },
        { provide: ClaimJudge, inject: [LanguageModel], useFactory: (m: LanguageModel) => (m.configured ? new ModelClaimJudge(m) : new RuleBasedClaimJudge()) },
        // With a model (and FULL_AUDIT_MODEL_DISCOVERY on), it also reads statements and judges pairs of its own (issue 24 item 3).
        {
          provide: DiscoverySettings,
          inject: [LanguageModel, APP_CONFIG],
          useFactory: (m: LanguageModel, c: AppConfig) =>
            m.configured && c.FULL_AUDIT_MODEL_DISCOVERY === 'on' ? new DiscoverySettings(new ModelStatementExtractor(m), new ModelDiscoveryJudge(m), c.FULL_AUDIT_MODEL_BUDGET_CALLS) : new DiscoverySettings(null, null),
        },
        { provide: StatementCache, useClass: TypeOrmStatementCache },
        { provide: DiscoveryVerdicts, useClass: TypeOrmDiscoveryVerdicts },
        { provide: ScanModelLedger, useClass: TypeOrmScanModelLedger },
        { provide: FullAuditSettings, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new FullAuditSettings(c.FULL_AUDIT_RESCAN_HOURS, c.FULL_AUDIT_CHUNK_DOCUMENTS, c.FULL_AUDIT_SETTLE_SECONDS, c.FULL_AUDIT_MODEL_BATCH_MIN, c.FULL_AUDIT_MODEL_BATCH_POLL_SECONDS, vectorBandOf(c.FULL_AUDIT_VECTOR_BAND, c.EMBEDDINGS_PROVIDER !== 'local')) },
        ...USE_CASES,
        ...(options.withJobHandlers ? [FullAuditScanJobHandler, FullAuditExtractJobHandler, FullAuditJudgeJobHandler, FullAuditCollectJobHandler, FullAuditDocumentChangedJobHandler, FullAuditSweeper] : []),
      ],
      exports: [],
    };
  }
}
