import { PLATFORM_MIGRATIONS, PersistenceParts } from '@svc/database';
import { AddInteractiveAuth1763700000800, CreateIdentitySchema1763700000100, IDENTITY_ENTITIES } from '@svc/identity-infra';
import { AddAppliedRecommendations1763700001400, AddStatsIndexes1763700001600, CreateConflictsSchema1763700000900 } from '@svc/conflicts-infra';
import { CreateDuplicatesSchema1763700001200, DuplicatesIndexesWithoutPendingList1763700001500 } from '@svc/duplicates-infra';
import { AddFindingPairs1763700002100, AddModelDiscovery1763700002200, AddModelBudgetDays1763700002300, AddJudgementDrift1763700001700, AddModelBatches1763700001800, AddModelRejections1763700001900, CreateFullAuditSchema1763700001100 } from '@svc/full-audit-infra';
import { JOBS_MIGRATIONS } from '@svc/jobs';
import { CreateMissingSubjectsSchema1763700001300 } from '@svc/missing-subjects-infra';
import { CreateMandatoryQuestionsSchema1763700001000 } from '@svc/mandatory-questions-infra';
import { AddDocumentsAndSemanticNodes1763700000500, AddIndexationAttempts1763700002450, CreateRepositorySchema1763700000200, CreateSearchLogs1763700000700 } from '@svc/repository-infra';
import { VECTOR_INDEX_MIGRATIONS } from '@svc/vector-index';
import { CreateDocumentRecords1763700000600, CreateWorkspaceSchema1763700000300 } from '@svc/workspace-infra';

/** Every table of the service: all apps migrate the whole schema, under an advisory lock. */
export const PERSISTENCE: PersistenceParts = {
  entities: [...IDENTITY_ENTITIES],
  migrations: [
    ...PLATFORM_MIGRATIONS,
    ...JOBS_MIGRATIONS,
    CreateIdentitySchema1763700000100,
    CreateRepositorySchema1763700000200,
    CreateWorkspaceSchema1763700000300,
    ...VECTOR_INDEX_MIGRATIONS,
    AddDocumentsAndSemanticNodes1763700000500,
    CreateDocumentRecords1763700000600,
    CreateSearchLogs1763700000700,
    AddInteractiveAuth1763700000800,
    CreateConflictsSchema1763700000900,
    CreateMandatoryQuestionsSchema1763700001000,
    CreateFullAuditSchema1763700001100,
    CreateDuplicatesSchema1763700001200,
    CreateMissingSubjectsSchema1763700001300,
    AddAppliedRecommendations1763700001400,
    DuplicatesIndexesWithoutPendingList1763700001500,
    AddStatsIndexes1763700001600,
    AddJudgementDrift1763700001700,
    AddModelBatches1763700001800,
    AddModelRejections1763700001900,
    AddFindingPairs1763700002100,
    AddModelDiscovery1763700002200,
    AddModelBudgetDays1763700002300,
    AddIndexationAttempts1763700002450,
  ],
};
