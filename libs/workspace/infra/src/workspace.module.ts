import { DynamicModule, Global, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { JOB_NAMES, WorkspaceRunStepPayload } from '@svc/contracts';
import { APP_CONFIG, AppConfig, deriveKey, SecretBox } from '@svc/config';
import { TypeOrmUnitOfWork } from '@svc/database';
import { InstanceAccessReader } from '@svc/http';
import { JobHandlerRegistry } from '@svc/jobs';
import {
  AddUserToInstance,
  AuditInstanceRepository,
  CreateAuditInstance,
  GetInstance,
  GetSvcInstances,
  GetUsersForInstance,
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
import { InstanceController, InstanceUserController } from './workspace.controller';
import { SealedRepositoryLinkStore, TypeOrmAuditInstanceRepository, TypeOrmMembershipRepository } from './workspace.repositories';

const USE_CASES = [
  AddUserToInstance,
  CreateAuditInstance,
  GetInstance,
  GetSvcInstances,
  GetUsersForInstance,
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

/** Registers the workspace's job handlers in processes that run workers. */
@Injectable()
export class WorkspaceJobHandlers implements OnModuleInit {
  constructor(
    private readonly registry: JobHandlerRegistry,
    private readonly runStep: RunInstanceStep,
  ) {}

  onModuleInit(): void {
    this.registry.register<WorkspaceRunStepPayload>(JOB_NAMES.workspaceRunStep, async (payload) => {
      await this.runStep.execute(payload);
    });
  }
}

/**
 * The workspace context: audit instances, membership, the repository link. Needs the identity and
 * repository modules (their public use cases) and the jobs platform.
 */
@Global()
@Module({})
export class WorkspaceModule {
  static forRoot(options: { withControllers: boolean; withJobHandlers: boolean }): DynamicModule {
    return {
      module: WorkspaceModule,
      controllers: options.withControllers ? [InstanceController, InstanceUserController] : [],
      providers: [
        { provide: AuditInstanceRepository, useClass: TypeOrmAuditInstanceRepository },
        { provide: MembershipRepository, useClass: TypeOrmMembershipRepository },
        {
          provide: RepositoryLinkStore,
          inject: [TypeOrmUnitOfWork, APP_CONFIG],
          useFactory: (uow: TypeOrmUnitOfWork, c: AppConfig) => new SealedRepositoryLinkStore(uow, new SecretBox(deriveKey(c.authSecret, 'repository-links'))),
        },
        { provide: UserDirectory, useClass: IdentityUserDirectory },
        { provide: RepositoryInstances, useClass: LocalRepositoryInstances },
        { provide: InstanceAccessReader, useClass: WorkspaceInstanceAccessReader },
        ...USE_CASES,
        ...(options.withJobHandlers ? [WorkspaceJobHandlers] : []),
      ],
      exports: [InstanceAccessReader, ...USE_CASES],
    };
  }
}
