import { DynamicModule, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, createAdapter, deriveKey, SecretBox } from '@svc/config';
import { TypeOrmUnitOfWork } from '@svc/database';
import { InstanceAccessReader } from '@svc/http';
import {
  CompleteInstanceStep,
  CountAuditDocuments,
  GetDocumentOwners,
  GetInstanceStep,
  DocumentAccess,
  ReadDocumentNames,
  DocumentVisibility,
  OwnerDocumentVisibility,
  DocumentRecordRepository,
  GetAuditDocumentsByIds,
  ListAuditDocuments,
  RepositoryInstanceClient,
  SetDocumentOwner,
  AddUserToInstance,
  AuditInstanceRepository,
  CreateAuditInstance,
  GetInstance,
  GetMemberStanding,
  GetSvcInstances,
  GetUsersForInstance,
  ListAccessibleInstances,
  ListInstancesForUser,
  ListUserInstances,
  MembershipGuards,
  MembershipRepository,
  RemoveUserFromInstance,
  RepositoryInstances,
  RepositoryLinkStore,
  RunInstanceStep,
  SetUserAdmin,
  SetUserNormal,
  UpdateConfiguration,
  UpdateInstanceStep,
  UserDirectory,
  UserIsAdmin,
} from '@svc/workspace-core';
import { IdentityUserDirectory, LocalRepositoryInstances, WorkspaceInstanceAccessReader } from './workspace.adapters';
import { AuditDocumentController, InstanceController, InstanceUserController, RetrievalInstancesController } from './workspace.controller';
import { TypeOrmDocumentRecordRepository } from './document-records.repository';
import { REPOSITORY_CLIENTS } from './repository-client.registry';
import { LocalRepositoryInstanceClient } from './repository-instance-clients';
import { RunInstanceStepJobHandler } from './run-instance-step.job-handler';
import { SealedRepositoryLinkStore, TypeOrmAuditInstanceRepository, TypeOrmMembershipRepository } from './workspace.repositories';

const USE_CASES = [
  CompleteInstanceStep,
  CountAuditDocuments,
  GetDocumentOwners,
  GetInstanceStep,
  DocumentAccess,
  ReadDocumentNames,
  GetAuditDocumentsByIds,
  ListAuditDocuments,
  SetDocumentOwner,
  AddUserToInstance,
  CreateAuditInstance,
  GetInstance,
  GetMemberStanding,
  GetSvcInstances,
  GetUsersForInstance,
  ListAccessibleInstances,
  ListInstancesForUser,
  ListUserInstances,
  MembershipGuards,
  RemoveUserFromInstance,
  RunInstanceStep,
  SetUserAdmin,
  SetUserNormal,
  UpdateConfiguration,
  UpdateInstanceStep,
  UserIsAdmin,
];

/**
 * The workspace context: audit instances, membership, the repository link. Needs the identity and
 * repository modules (their public use cases) and the jobs platform.
 */
@Module({})
export class WorkspaceModule {
  /**
   * `uses`: the identity and repository modules of the app (their public use cases: `GetMember`,
   * `CreateRepositoryInstance`, `CountPendingDocuments`, the document reads). The composition passes
   * them; this module does not know where they come from.
   */
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean; withRetrievalControllers?: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: WorkspaceModule,
      imports: options.uses,
      controllers: [
        ...(options.withControllers ? [InstanceController, InstanceUserController, AuditDocumentController] : []),
        ...(options.withRetrievalControllers ? [RetrievalInstancesController] : []),
      ],
      providers: [
        { provide: AuditInstanceRepository, useClass: TypeOrmAuditInstanceRepository },
        { provide: MembershipRepository, useClass: TypeOrmMembershipRepository },
        {
          provide: RepositoryLinkStore,
          inject: [TypeOrmUnitOfWork, APP_CONFIG],
          useFactory: (uow: TypeOrmUnitOfWork, c: AppConfig) => new SealedRepositoryLinkStore(uow, new SecretBox(deriveKey(c.authSecret, 'repository-links'))),
        },
        { provide: UserDirectory, useClass: IdentityUserDirectory },
        { provide: DocumentRecordRepository, useClass: TypeOrmDocumentRecordRepository },
        { provide: DocumentVisibility, useClass: OwnerDocumentVisibility },
        LocalRepositoryInstanceClient,
        {
          // One place decides how the audit side reaches repositories (REPOSITORY_CLIENT): in-process, or their instance API.
          provide: RepositoryInstanceClient,
          inject: [APP_CONFIG, LocalRepositoryInstanceClient],
          useFactory: (c: AppConfig, local: LocalRepositoryInstanceClient) => createAdapter(REPOSITORY_CLIENTS, c, { local }),
        },
        { provide: RepositoryInstances, useClass: LocalRepositoryInstances },
        { provide: InstanceAccessReader, useClass: WorkspaceInstanceAccessReader },
        ...USE_CASES,
        ...(options.withJobHandlers ? [RunInstanceStepJobHandler] : []),
      ],
      // Other audit contexts read documents and apply the visibility rule through these (ports of workspace core).
      exports: [InstanceAccessReader, DocumentVisibility, RepositoryInstanceClient, ...USE_CASES],
    };
  }
}
