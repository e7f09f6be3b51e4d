import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, PlatformCoreModule } from '@svc/config';
import { ConflictsModule } from '@svc/conflicts-infra';
import { JOB_QUEUES } from '@svc/contracts';
import { Database, DatabaseModule } from '@svc/database';
import { DuplicatesModule } from '@svc/duplicates-infra';
import { EmbeddingsModule } from '@svc/embeddings';
import { FullAuditModule } from '@svc/full-audit-infra';
import { HttpPlatformModule, HttpPlatformOptions, ResourceServerOptions } from '@svc/http';
import { IdentityModule } from '@svc/identity-infra';
import { JobsModule } from '@svc/jobs';
import { MandatoryQuestionsModule } from '@svc/mandatory-questions-infra';
import { McpModule } from '@svc/mcp';
import { MissingSubjectsModule } from '@svc/missing-subjects-infra';
import { RepositoryModule } from '@svc/repository-infra';
import { StatsModule } from '@svc/stats-infra';
import { VectorIndexModule } from '@svc/vector-index';
import { WorkspaceModule } from '@svc/workspace-infra';
import { PERSISTENCE } from './persistence';
import { readinessProvider } from './readiness';

export type AppName = 'platform-auth' | 'audit' | 'retrieval' | 'workers';

/** What the apps of one process share: validated config and, in the standalone process, the open database. */
export interface SharedInfrastructure {
  config: AppConfig;
  database?: Database;
}

@Module({})
class ReadinessModule {
  static forApp(usesJobs: boolean): DynamicModule {
    const provider = readinessProvider(usesJobs);
    return { module: ReadinessModule, global: true, providers: [provider], exports: [provider] };
  }
}

function foundation(shared: SharedInfrastructure): DynamicModule[] {
  return [
    PlatformCoreModule.forRoot(shared.config),
    shared.database ? DatabaseModule.forExisting(shared.database) : DatabaseModule.forRoot(PERSISTENCE),
  ];
}

/** The platform modules the repository context needs: jobs, embeddings, the vector index (it imports the language model itself). */
function repositoryPlatform(config: AppConfig, runWorkers: boolean): DynamicModule[] {
  return [
    JobsModule.forRoot({ runWorkers, queuePrefix: config.JOBS_QUEUE_PREFIX, queues: JOB_QUEUES }, config),
    EmbeddingsModule.forRoot(),
    VectorIndexModule.forRoot(),
  ];
}

/** The repository context with what it needs (for processes and tests that use it alone). */
export function repositoryContext(config: AppConfig, options: { withControllers: boolean; runWorkers: boolean }): DynamicModule[] {
  return [...repositoryPlatform(config, options.runWorkers), RepositoryModule.forRoot({ withControllers: options.withControllers, withJobHandlers: options.runWorkers })];
}

/** The contexts of an app, each built once; the workspace uses identity's and repository's public use cases. */
export interface AppContexts {
  identity: DynamicModule;
  repository: DynamicModule;
  workspace: DynamicModule;
  conflicts: DynamicModule;
  questions: DynamicModule;
  fullAudit: DynamicModule;
  duplicates: DynamicModule;
  missingSubjects: DynamicModule;
  stats: DynamicModule;
  /** Every module to import: the platform modules, then the contexts. */
  modules: DynamicModule[];
}

export function appContexts(config: AppConfig, o: { auditApi: boolean; retrievalApi: boolean; runWorkers: boolean; identityControllers?: boolean }): AppContexts {
  const identity = IdentityModule.forRoot({ withControllers: o.identityControllers ?? false });
  const repository = RepositoryModule.forRoot({ withControllers: o.retrievalApi, withJobHandlers: o.runWorkers });
  const workspace = WorkspaceModule.forRoot({ withControllers: o.auditApi, withJobHandlers: o.runWorkers, withRetrievalControllers: o.retrievalApi, uses: [identity, repository] });
  const conflicts = ConflictsModule.forRoot({ withControllers: o.auditApi, withJobHandlers: o.runWorkers, uses: [workspace, repository] });
  const missingSubjects = MissingSubjectsModule.forRoot({ withControllers: o.auditApi, withJobHandlers: o.runWorkers, uses: [workspace, repository] });
  const questions = MandatoryQuestionsModule.forRoot({ withControllers: o.auditApi, withJobHandlers: o.runWorkers, uses: [workspace, repository, conflicts, missingSubjects] });
  const fullAudit = FullAuditModule.forRoot({ withControllers: o.auditApi, withJobHandlers: o.runWorkers, uses: [workspace, repository, conflicts] });
  const duplicates = DuplicatesModule.forRoot({ withControllers: o.auditApi, withJobHandlers: o.runWorkers, uses: [workspace, repository] });
  const stats = StatsModule.forRoot({ withControllers: o.auditApi, uses: [workspace] });
  return {
    identity,
    repository,
    workspace,
    conflicts,
    questions,
    fullAudit,
    duplicates,
    missingSubjects,
    stats,
    modules: [...repositoryPlatform(config, o.runWorkers), identity, repository, workspace, conflicts, missingSubjects, questions, fullAudit, duplicates, stats],
  };
}

/**
 * Identity, repository and workspace as the audit, retrieval and workers apps assemble them; the
 * options say which inbound adapters the app serves and whether it runs background jobs.
 */
function apiApp(shared: SharedInfrastructure, o: { auditApi: boolean; retrievalApi: boolean; runWorkers: boolean }, http: Omit<HttpPlatformOptions, 'access'>, extra: DynamicModule[] = []): DynamicModule {
  const contexts = appContexts(shared.config, o);
  return {
    module: AppRootModule,
    imports: [
      ...foundation(shared),
      ReadinessModule.forApp(true),
      ...contexts.modules,
      HttpPlatformModule.forRoot({ ...http, access: [contexts.identity, contexts.repository, contexts.workspace] }),
      ...extra,
    ],
  };
}

@Module({})
export class AppRootModule {}

/** The Nest module graph of one app. Apps differ only in which contexts they serve. */
export function appModule(name: AppName, shared: SharedInfrastructure): DynamicModule {
  const { config } = shared;
  switch (name) {
    case 'platform-auth': {
      const identity = IdentityModule.forRoot({ withControllers: true });
      return {
        module: AppRootModule,
        imports: [...foundation(shared), ReadinessModule.forApp(false), identity, HttpPlatformModule.forRoot({ title: 'docaudit platform API', allowedOrigins: config.allowedOrigins, access: [identity] })],
      };
    }
    case 'audit':
      return apiApp(
        shared,
        { auditApi: true, retrievalApi: false, runWorkers: false },
        { title: 'docaudit audit API', allowedOrigins: config.allowedOrigins, resourceServer: ResourceServerOptions.forApi('audit', config) },
        [McpModule.forRoot({ serverName: 'docaudit-audit' })],
      );
    case 'retrieval':
      return apiApp(
        shared,
        { auditApi: false, retrievalApi: true, runWorkers: false },
        { title: 'docaudit retrieval API', allowedOrigins: config.allowedOrigins, resourceServer: ResourceServerOptions.forApi('retrieval', config) },
        [McpModule.forRoot({ serverName: 'docaudit-retrieval' })],
      );
    case 'workers':
      return apiApp(shared, { auditApi: false, retrievalApi: false, runWorkers: true }, { title: 'docaudit workers (health only)', allowedOrigins: config.allowedOrigins });
  }
}

export function portOf(name: AppName, config: AppConfig): number {
  return { 'platform-auth': config.PLATFORM_AUTH_PORT, audit: config.AUDIT_PORT, retrieval: config.RETRIEVAL_PORT, workers: config.WORKERS_HEALTH_PORT }[name];
}
