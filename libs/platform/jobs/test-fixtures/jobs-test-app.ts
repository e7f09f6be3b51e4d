// Boots the jobs platform the way an app does (PlatformCoreModule, DatabaseModule, JobsModule) for
// the integration tests and for the child processes of the kill test.
import { DynamicModule, INestApplicationContext, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, loadConfig, PlatformCoreModule } from '@svc/config';
import { Database, DatabaseModule, TypeOrmUnitOfWork } from '@svc/database';
import { JobQueue } from '@svc/kernel';
import { Redis } from 'ioredis';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { JobHandlerRegistry } from '../src/job-handler.registry';
import { JobStore } from '../src/job-store';
import { JOBS_MIGRATIONS } from '../src/jobs.migration';
import { JobsModule, JobsModuleOptions } from '../src/jobs.module';

/** Tables the test handlers write to: their "database effect". */
export class CreateJobsTestTables1763700000001 implements MigrationInterface {
  name = 'CreateJobsTestTables1763700000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SCHEMA jobs_test');
    await q.query('CREATE TABLE jobs_test.effects (job_id text NOT NULL, attempt integer NOT NULL, pid integer NOT NULL)');
    await q.query('CREATE TABLE jobs_test.things (id text PRIMARY KEY)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP SCHEMA jobs_test CASCADE');
  }
}

/** The jobs platform maps no entity: it speaks SQL (claims need `FOR UPDATE SKIP LOCKED`). */
export const TEST_PARTS = { entities: [], migrations: [...JOBS_MIGRATIONS, CreateJobsTestTables1763700000001] };

export interface HandlerDeps {
  registry: JobHandlerRegistry;
  unitOfWork: TypeOrmUnitOfWork;
}

export interface JobsTestApp {
  app: INestApplicationContext;
  config: AppConfig;
  queue: JobQueue;
  store: JobStore;
  unitOfWork: TypeOrmUnitOfWork;
  database: Database;
  close(): Promise<void>;
}

@Module({})
class JobsTestRootModule {}

/**
 * Starts an application context over `env` (as loadConfig reads it). `register` runs while providers
 * are created, before bootstrap, like an app's handler registrations.
 */
export async function startJobsApp(
  env: NodeJS.ProcessEnv,
  options: JobsModuleOptions,
  register: (deps: HandlerDeps) => void = () => undefined,
  logLevels: LogLevel[] | false = false,
): Promise<JobsTestApp> {
  const config = loadConfig(env);
  const root: DynamicModule = {
    module: JobsTestRootModule,
    imports: [
      PlatformCoreModule.forRoot(config),
      DatabaseModule.forRoot(TEST_PARTS),
      // The jobs these tests enqueue are `test.*` and `killtest.*`: their queues.
      JobsModule.forRoot({ queues: ['test', 'killtest'], ...options }, config),
    ],
    providers: [
      {
        provide: 'JOBS_TEST_HANDLERS',
        inject: [JobHandlerRegistry, TypeOrmUnitOfWork],
        useFactory: (registry: JobHandlerRegistry, unitOfWork: TypeOrmUnitOfWork) => {
          register({ registry, unitOfWork });
          return true;
        },
      },
    ],
  };
  const app = await NestFactory.createApplicationContext(root, { logger: logLevels, abortOnError: false });
  let closed = false;
  return {
    app,
    config,
    queue: app.get(JobQueue),
    store: app.get(JobStore),
    unitOfWork: app.get(TypeOrmUnitOfWork),
    database: app.get(Database),
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
    },
  };
}

export { waitFor } from '@svc/test-kit';

/** Deletes every Redis key of a test's queue prefix. */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
