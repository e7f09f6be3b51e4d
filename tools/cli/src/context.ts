import { userInfo } from 'node:os';
import { ConsoleLogger, DynamicModule, INestApplicationContext, LogLevel, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { appContexts, PERSISTENCE } from '@svc/composition';
import { AppConfig, PlatformCoreModule } from '@svc/config';
import { DatabaseModule, dataSourceOptions, EmbeddedPostgres, runMigrations } from '@svc/database';
import { CredentialKind, Principal, Role } from '@svc/kernel';
import { DataSource } from 'typeorm';

/** The embedded data directory is held by another process (a running service). */
export class DatabaseLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | undefined,
  ) {
    super(
      `The embedded database in ${dataDir} is in use${pid ? ` by process ${pid}` : ''} (a running service?). ` +
        'Stop the service first, or point DATABASE_URL at PostgreSQL.',
    );
    this.name = 'DatabaseLockedError';
  }
}

/** The database could not be opened (unreachable, refused, failed migration...). */
export class DatabaseOpenError extends Error {
  constructor(readonly reason: unknown) {
    super(`Could not open the database: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'DatabaseOpenError';
  }
}

@Module({})
class CliRootModule {}

/** Framework logs (--verbose) on stderr: stdout carries only the command's result (e.g. its JSON). */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel, _stream?: 'stdout' | 'stderr', errorStack?: unknown): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

/**
 * The modules an API app assembles, without controllers, HTTP or job handlers: the CLI calls the
 * same use cases on the same database. Jobs are enqueued (the outbox), never run here.
 */
export function cliModule(config: AppConfig): DynamicModule {
  return {
    module: CliRootModule,
    imports: [
      PlatformCoreModule.forRoot(config),
      DatabaseModule.forRoot(PERSISTENCE),
      ...appContexts(config, { auditApi: false, retrievalApi: false, runWorkers: false }).modules,
    ],
  };
}

/** Opens the application context (connects, migrates), runs `work`, and always closes it. */
export async function withContext<T>(config: AppConfig, verbose: boolean, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  let app: INestApplicationContext;
  try {
    app = await NestFactory.createApplicationContext(cliModule(config), {
      logger: verbose ? new StderrLogger({ logLevels: ['error', 'warn', 'log'], colors: Boolean(process.stderr.isTTY) }) : false,
      abortOnError: false,
    });
  } catch (error) {
    throw openFailure(error, config);
  }
  let result: T;
  try {
    result = await work(app);
  } catch (error) {
    // The command's error is the one to report, not a failure to close after it.
    await app.close().catch(() => undefined);
    throw error;
  }
  await app.close();
  return result;
}

/**
 * Applies pending migrations and names them. Opens the database the way `Database.open` does (which
 * migrates but does not say what it applied), under the same advisory lock on PostgreSQL.
 */
export async function migrateDatabase(config: AppConfig): Promise<{ applied: string[]; total: number }> {
  let embedded: EmbeddedPostgres | undefined;
  let dataSource: DataSource | undefined;
  try {
    try {
      const connection = config.databaseMode === 'embedded' ? await (embedded = new EmbeddedPostgres(config.dataDir)).start() : undefined;
      dataSource = new DataSource(dataSourceOptions(config, PERSISTENCE, connection));
      await dataSource.initialize();
    } catch (error) {
      throw openFailure(error, config);
    }
    const applied = await runMigrations(dataSource, config.databaseMode === 'postgres');
    return { applied, total: dataSource.migrations.length };
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await embedded?.stop();
  }
}

/** EmbeddedPostgres refuses a data directory whose lock file names a live process other than ours. */
const LOCKED = /DATA_DIR .* is in use by process (\d+)/;

function openFailure(error: unknown, config: AppConfig): Error {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const match = LOCKED.exec(e.message);
    if (match) return new DatabaseLockedError(config.dataDir, Number(match[1]));
  }
  return new DatabaseOpenError(error);
}

/** An operator at the terminal, recorded as such in the activity log. */
const CLI_CREDENTIAL: CredentialKind = 'cli';

function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/**
 * Who the activity log records for a CLI action: the given user (built from its record's roles), or
 * the operator of the terminal as an organisation admin. Credential `cli:<os user>`.
 */
export function cliPrincipal(organizationId: string, user?: { id: string; roles: readonly Role[] }): Principal {
  return {
    organizationId,
    userId: user?.id ?? 'cli',
    roles: user ? [...user.roles] : ['ADMIN'],
    credential: { kind: CLI_CREDENTIAL, id: `cli:${operatorName()}` },
  };
}
