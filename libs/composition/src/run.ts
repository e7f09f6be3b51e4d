import { join } from 'node:path';
import { loggableError } from '@svc/kernel';
import { INestApplication } from '@nestjs/common';
import { AppConfig, ConfigError, loadConfig } from '@svc/config';
import { Database } from '@svc/database';
import { createRootLogger, drain, startHttpApp } from '@svc/http';
import { BootstrapInstallation, BootstrapResult } from '@svc/identity-core';
import { IngestDocument, INGESTION_LIMITS } from '@svc/repository-core';
import { CreateMandatoryQuestion } from '@svc/mandatory-questions-core';
import { preloadValueModels } from '@svc/text';
import { CreateAuditInstance } from '@svc/workspace-core';
import type { Logger } from 'pino';
import { checkAdapterSettings } from './adapter-registries';
import { DEMO_DOCUMENTS, DEMO_MANDATORY_QUESTIONS } from './demo-documents';
import { AppName, appModule, portOf, SharedInfrastructure } from './app-modules';
import { PERSISTENCE } from './persistence';

/** Validates configuration and every chosen adapter's settings, or prints what is wrong (naming each variable) and exits with 78 (EX_CONFIG). */
export function configOrExit(): AppConfig {
  try {
    const config = loadConfig();
    checkAdapterSettings(config);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}

/** The expert web app as `npm run build` writes it (dist/apps/web, beside this file's dist/libs). */
const WEB_APP_DIR = join(__dirname, '..', '..', '..', 'apps', 'web');

async function startApp(name: AppName, shared: SharedInfrastructure, logger: Logger, beforeListen?: (app: INestApplication) => Promise<void>): Promise<INestApplication> {
  const { config } = shared;
  return startHttpApp(appModule(name, shared), {
    beforeListen,
    name,
    port: portOf(name, config),
    host: config.HOST,
    logger: logger.child({ app: name }),
    jsonBodyLimit: config.JSON_BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    allowedOrigins: config.allowedOrigins,
    routeBodyLimits: name === 'retrieval' ? { '/api/documents/upsert': INGESTION_LIMITS.maxRequestBytes } : undefined,
    // The audit app serves the web app: its API is what the app calls, on the same origin.
    webApp: name === 'audit' ? { mountPath: '/app', dir: WEB_APP_DIR, authUrl: config.PUBLIC_AUTH_URL } : undefined,
  });
}

/** First start: organisation, admin and admin key. The raw key goes to the terminal once, never to the log. */
async function bootstrap(app: INestApplication, config: AppConfig, logger: Logger): Promise<BootstrapResult> {
  const result = await app.get(BootstrapInstallation).execute({
    organizationName: config.BOOTSTRAP_ORGANIZATION_NAME,
    adminEmail: config.BOOTSTRAP_ADMIN_EMAIL,
    adminApiKey: config.BOOTSTRAP_ADMIN_API_KEY,
    adminPassword: config.BOOTSTRAP_ADMIN_PASSWORD,
  });
  if (result.installed) logger.info({ organizationId: result.organizationId }, 'installation bootstrapped');
  if (result.generatedAdminKey) {
    process.stdout.write(
      `\n  Admin API key (shown once, store it now):\n\n    ${result.generatedAdminKey}\n\n  Use it as "Authorization: Bearer <key>" or exchange it at POST /core/api-key/token.\n\n`,
    );
  }
  return result;
}

/**
 * First start of the standalone service: a demo repository (audit instance + documents) owned by the
 * admin, and its mandatory questions. They are analysed once the documents are indexed and the instance
 * enters RUNNING_PHASE, so the first conflicts appear within a minute of the start.
 */
async function createDemoData(audit: INestApplication, result: BootstrapResult, logger: Logger): Promise<void> {
  if (!result.installed || !result.adminUserId) return;
  const admin = { organizationId: result.organizationId, userId: result.adminUserId, roles: ['ADMIN'] as const, credential: { kind: 'org_api_key' as const, id: 'bootstrap' } };
  const instance = await audit.get(CreateAuditInstance).execute(admin, { name: 'Demo repository' });
  for (const doc of DEMO_DOCUMENTS) {
    await audit.get(IngestDocument).execute(instance.instance_id, { externalId: doc.externalId, name: doc.name, url: doc.url, owner: doc.owner, mediaType: 'text/markdown', content: Buffer.from(doc.content, 'utf8') });
  }
  for (const question of DEMO_MANDATORY_QUESTIONS) {
    await audit.get(CreateMandatoryQuestion).execute({ actor: admin, access: { instanceId: instance.instance_id, organizationId: result.organizationId }, question });
  }
  logger.info({ instanceId: instance.instance_id, documents: DEMO_DOCUMENTS.length, questions: DEMO_MANDATORY_QUESTIONS.length }, 'demo repository created');
}

/** Closes everything on SIGTERM/SIGINT within SHUTDOWN_TIMEOUT_MS, then exits. */
function closeOnSignal(close: () => Promise<void>, config: AppConfig, logger: Logger): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: loggableError(error) }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

/** Builds the value models before the process takes requests (TEXT_PRELOAD_LANGUAGES): no request waits for them. */
function preloadText(config: AppConfig, logger: Logger): void {
  if (config.TEXT_PRELOAD_LANGUAGES.length === 0) return;
  logger.info({ milliseconds: preloadValueModels(config.TEXT_PRELOAD_LANGUAGES) }, 'value models loaded');
}

/** One app per process (the distributed mode). */
export async function runApp(name: AppName): Promise<void> {
  const config = configOrExit();
  const logger = createRootLogger({ level: config.LOG_LEVEL, name });
  // The apps that read values: search answers (retrieval), the analyses (workers).
  if (name === 'retrieval' || name === 'workers') preloadText(config, logger);
  // platform-auth bootstraps before it listens: once it is ready, the admin key and password work.
  const app = await startApp(name, { config }, logger, name === 'platform-auth' ? async (a) => void (await bootstrap(a, config, logger)) : undefined);
  closeOnSignal(async () => {
    await drain(app);
    await app.close();
  }, config, logger);
}

/** All four apps in one process on one embedded (or external) database: the quick-start mode. */
export async function runStandalone(): Promise<void> {
  const config = configOrExit();
  const logger = createRootLogger({ level: config.LOG_LEVEL, name: 'standalone' });
  logger.info({ databaseMode: config.databaseMode, jobsMode: config.jobsMode, dataDir: config.dataDir }, 'starting');
  preloadText(config, logger);
  const opening = Date.now();
  const database = await Database.open(config, PERSISTENCE);
  // The start's phases in the log (a first start creates the embedded database: seconds of it).
  logger.info({ milliseconds: Date.now() - opening }, 'database open');
  const shared: SharedInfrastructure = { config, database };
  const apps: INestApplication[] = [];
  try {
    let installation: BootstrapResult | undefined;
    for (const name of ['platform-auth', 'audit', 'retrieval', 'workers'] as const) {
      apps.push(await startApp(name, shared, logger, name === 'platform-auth' ? async (a) => void (installation = await bootstrap(a, config, logger)) : undefined));
    }
    if (config.DEMO_DATA && installation) await createDemoData(apps[1], installation, logger);
  } catch (error) {
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    await database.close();
    throw error;
  }
  closeOnSignal(async () => {
    // Every app stops taking requests at once and finishes those in flight, then each closes.
    await Promise.all(apps.map((app) => drain(app)));
    for (const app of apps) await app.close();
    await database.close();
  }, config, logger);
}
