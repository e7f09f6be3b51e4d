import { DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@svc/config';
import {
  CheckChangedDocument,
  ClusterWriter,
  DuplicateClusterRepository,
  DuplicatesSettings,
  DuplicatesSource,
  FingerprintStore,
  IdentificationRuns,
  IdentifyDuplicates,
  ListDuplicateClusters,
  SetClusterManaged,
  VerifyCluster,
} from '@svc/duplicates-core';
import { LocalDuplicatesSource } from './adapters';
import { DuplicatesController } from './duplicates.controller';
import { DuplicatesDocumentChangedJobHandler, DuplicatesIdentifyJobHandler, DuplicatesVerifyJobHandler } from './duplicates.job-handlers';
import { TypeOrmDuplicateClusterRepository, TypeOrmFingerprintStore, TypeOrmIdentificationRuns } from './duplicates.repositories';

const USE_CASES = [ClusterWriter, IdentifyDuplicates, CheckChangedDocument, VerifyCluster, ListDuplicateClusters, SetClusterManaged];

/**
 * The duplicates context: exact and near-duplicate clusters, identified over the whole repository in
 * step ON_DUPLICATE_IDENTIFICATION and document by document afterwards, and their verification.
 * `uses`: the app's workspace (steps, visibility, document names) and repository (passages) modules.
 */
@Module({})
export class DuplicatesModule {
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: DuplicatesModule,
      imports: options.uses,
      controllers: options.withControllers ? [DuplicatesController] : [],
      providers: [
        { provide: FingerprintStore, useClass: TypeOrmFingerprintStore },
        { provide: DuplicateClusterRepository, useClass: TypeOrmDuplicateClusterRepository },
        { provide: IdentificationRuns, useClass: TypeOrmIdentificationRuns },
        { provide: DuplicatesSource, useClass: LocalDuplicatesSource },
        { provide: DuplicatesSettings, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new DuplicatesSettings(c.DUPLICATES_JACCARD_THRESHOLD, c.DUPLICATES_PAGE_DOCUMENTS) },
        ...USE_CASES,
        ...(options.withJobHandlers ? [DuplicatesIdentifyJobHandler, DuplicatesDocumentChangedJobHandler, DuplicatesVerifyJobHandler] : []),
      ],
      exports: [IdentificationRuns],
    };
  }
}
