import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@svc/config';
import { Database, TypeOrmUnitOfWork } from '@svc/database';
import { JobQueue } from '@svc/kernel';
import { BullMqDelivery, jobProcessor } from './bullmq-job-worker';
import { DatabaseJobRunner } from './database-job-runner';
import { EnqueueSignal } from './enqueue-signal';
import { JobExecutor } from './job-executor';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobStore } from './job-store';
import { JobTable } from './job-table';
import { OutboxJobQueue } from './outbox-job-queue';
import { OutboxRelay } from './outbox-relay';
import { BackoffOptions } from './retry-policy';

export interface JobsModuleOptions {
  /**
   * Run this process's registered handlers (workers, standalone). false: only enqueue and read
   * (audit, retrieval). Default true. JOBS_ENABLED=false turns all background activity off anyway.
   */
  runWorkers?: boolean;
  /** Redis key prefix of the BullMQ queues. Default `jobs`; every app of a deployment must agree. */
  queuePrefix?: string;
  /** Retry delays; default 1 s doubling up to 5 min. */
  backoff?: BackoffOptions;
  /**
   * The BullMQ queues this process consumes when it runs workers in the BullMQ mode: one per context
   * (`queueOf(jobName)`), each with a `@nestjs/bullmq` processor dispatching on the job's name.
   */
  queues?: readonly string[];
}

export const JOBS_MODULE_OPTIONS = Symbol('JOBS_MODULE_OPTIONS');
const QUEUE_ERROR_LISTENERS = Symbol('QUEUE_ERROR_LISTENERS');

/**
 * Starts this process's background machinery at bootstrap and stops it at shutdown, before the
 * database closes (DatabaseModule closes it in onApplicationShutdown, a later phase):
 * - database mode: the DatabaseJobRunner, when runWorkers;
 * - BullMQ mode: the OutboxRelay in every process (rows enqueued here reach Redis without waiting for
 *   another app); the queues' processors are `@nestjs/bullmq` workers (see JobsModule).
 */
@Injectable()
export class JobsLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private runner?: DatabaseJobRunner;
  private relay?: OutboxRelay;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOBS_MODULE_OPTIONS) private readonly options: JobsModuleOptions,
    @Inject(Database) private readonly database: Database,
    @Inject(JobTable) private readonly table: JobTable,
    @Inject(JobExecutor) private readonly executor: JobExecutor,
    @Inject(JobHandlerRegistry) private readonly registry: JobHandlerRegistry,
    @Inject(EnqueueSignal) private readonly signal: EnqueueSignal,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.JOBS_ENABLED) {
      this.logger.warn('JOBS_ENABLED=false: jobs are enqueued but not processed by this process');
      return;
    }
    const runWorkers = this.options.runWorkers ?? true;
    const embedded = this.database.mode === 'embedded';
    const concurrency = jobConcurrency(this.config, embedded);
    if (this.config.jobsMode === 'bullmq') {
      const redisUrl = this.config.REDIS_URL as string;
      const prefix = this.options.queuePrefix ?? 'jobs';
      this.relay = new OutboxRelay(this.table, this.signal, { redisUrl, prefix, pollIntervalMs: this.config.JOBS_POLL_INTERVAL_MS });
      this.relay.start();
    } else if (runWorkers) {
      this.runner = new DatabaseJobRunner(this.table, this.executor, this.registry, this.signal, {
        concurrency,
        pollIntervalMs: this.config.JOBS_POLL_INTERVAL_MS,
        leaseSeconds: this.config.JOBS_LEASE_SECONDS,
        renewLeases: !embedded,
        releaseOrphansOnStart: embedded,
      });
      await this.runner.start();
    }
  }

  async onModuleDestroy(): Promise<void> {
    const timeoutMs = this.config.SHUTDOWN_TIMEOUT_MS;
    await this.runner?.stop(timeoutMs);
    await this.relay?.stop();
  }
}

/**
 * Jobs run at once. The embedded database has one connection, so one. On PostgreSQL each running job
 * holds a pooled connection for its transaction and briefly needs another (progress, lease), so at
 * most half the pool, leaving the rest to requests.
 */
export function jobConcurrency(config: Pick<AppConfig, 'JOBS_CONCURRENCY' | 'DATABASE_POOL_SIZE'>, embedded: boolean): number {
  if (embedded) return 1;
  return Math.max(1, Math.min(config.JOBS_CONCURRENCY, Math.floor(config.DATABASE_POOL_SIZE / 2)));
}

/**
 * Durable jobs. Provides JobQueue (the kernel port: database- or BullMQ-backed, from
 * APP_CONFIG.jobsMode), JobHandlerRegistry and JobStore. Needs the global ConfigModule and
 * DatabaseModule, whose migrations must include JOBS_MIGRATIONS.
 *
 * An app registers handlers in a provider's onModuleInit:
 * `registry.register('conflicts.analyze', (payload, ctx) => useCase.execute(payload))`.
 */
@Global()
@Module({})
export class JobsModule {
  /**
   * `config`: the validated configuration, read here because the BullMQ mode adds modules
   * (`BullModule`, one processor per queue) that the database mode must not have.
   */
  static forRoot(options: JobsModuleOptions, config: AppConfig): DynamicModule {
    const bullmq = config.jobsMode === 'bullmq' && config.JOBS_ENABLED;
    const consume = bullmq && (options.runWorkers ?? true);
    const settings = { concurrency: jobConcurrency(config, config.databaseMode === 'embedded'), leaseSeconds: config.JOBS_LEASE_SECONDS, backoff: options.backoff };
    return {
      module: JobsModule,
      global: true,
      imports: consume
        ? [
            BullModule.forRoot({
              // Workers' connections retry for ever, as a consumer's should (the relay's producers fail fast).
              connection: { url: config.REDIS_URL as string },
              prefix: options.queuePrefix ?? 'jobs',
            }),
            // registerQueue also brings the module's explorer, which finds the processors below and
            // starts one worker per queue (forRoot alone only stores the shared configuration).
            BullModule.registerQueue(...(options.queues ?? []).map((name) => ({ name }))),
          ]
        : [],
      providers: [
        { provide: JOBS_MODULE_OPTIONS, useValue: options },
        { provide: JobHandlerRegistry, useFactory: () => new JobHandlerRegistry() },
        { provide: EnqueueSignal, inject: [Database], useFactory: (db: Database) => EnqueueSignal.of(db.dataSource) },
        {
          provide: JobTable,
          inject: [Database],
          useFactory: (db: Database) => new JobTable(db.unitOfWork, db.dataSource),
        },
        { provide: JobStore, inject: [TypeOrmUnitOfWork], useFactory: (uow: TypeOrmUnitOfWork) => new JobStore(uow) },
        {
          provide: JobExecutor,
          inject: [Database, JobTable, JobHandlerRegistry],
          useFactory: (db: Database, table: JobTable, registry: JobHandlerRegistry) =>
            new JobExecutor(table, db.unitOfWork, registry, {
              // PostgreSQL: on a second connection, visible while the job runs. Embedded: in the
              // job's transaction, since a second connection does not exist.
              liveProgress: db.mode === 'postgres',
              backoff: options.backoff,
            }),
        },
        {
          provide: JobQueue,
          inject: [Database, JobTable, EnqueueSignal],
          useFactory: (db: Database, table: JobTable, signal: EnqueueSignal): JobQueue => new OutboxJobQueue(table, db.unitOfWork, signal),
        },
        JobsLifecycle,
        ...(consume
          ? [
              { provide: BullMqDelivery, inject: [JobTable, JobExecutor], useFactory: (table: JobTable, executor: JobExecutor) => new BullMqDelivery(table, executor, config.SHUTDOWN_TIMEOUT_MS) },
              ...(options.queues ?? []).map((queue) => jobProcessor(queue, settings)),
              {
                // The registered queues report connection errors through the delivery's throttled warning
                // (BullMQ prints an unheard 'error' event to the console, once per reconnection attempt).
                provide: QUEUE_ERROR_LISTENERS,
                inject: [BullMqDelivery, ...(options.queues ?? []).map((queue) => getQueueToken(queue))],
                useFactory: (delivery: BullMqDelivery, ...queues: Queue[]) => {
                  for (const queue of queues) queue.on('error', (error) => delivery.warning.warn(`BullMQ queue "${queue.name}": ${error.message}`));
                  return queues.length;
                },
              },
            ]
          : []),
      ],
      exports: [JobQueue, JobHandlerRegistry, JobStore],
    };
  }
}
