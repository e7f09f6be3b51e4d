import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, NextFunction, Request, Response, urlencoded } from 'express';
import type { Logger } from 'pino';
import { answerClientErrorsInShape, cors } from './cors';
import { drainAware } from './drain';
import { errorBody } from './error-body';
import { toDomainError } from './exception.filter';
import { PinoNestLogger } from './logger';
import { PlatformRequest, resolveRequestId } from './request-context';
import { refuseUnsafeInput } from './input-hygiene';
import { noBodyAsEmptyObject } from './validation';
import { WebAppOptions, webAppRouter } from './web-app';

export interface HttpAppOptions {
  name: string;
  port: number;
  host: string;
  logger: Logger;
  jsonBodyLimit: string;
  trustProxy: string;
  /** Browser origins of the first-party web apps, answered CORS preflights (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /** Larger JSON limits for specific paths (document ingestion), instead of jsonBodyLimit. */
  routeBodyLimits?: Record<string, string>;
  /** Runs after the app is initialised and before it listens (first-start bootstrap), so ready means ready. */
  beforeListen?: (app: INestApplication) => Promise<void>;
  /** The expert web app's files, served by this app under their mount path (the audit app: /app). */
  webApp?: WebAppOptions;
}

/**
 * Creates and starts one HTTP app with the platform's transport settings: request ids, access logs
 * with secrets redacted, strict JSON body parsing with a size limit, no framework fingerprint.
 */
export async function startHttpApp(module: Type<unknown> | object, options: HttpAppOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module as Type<unknown>, {
    bodyParser: false,
    logger: new PinoNestLogger(options.logger.child({ component: 'nest' })),
    abortOnError: false,
  });
  app.disable('x-powered-by');
  // Answers are POST results and tokens: never validated against a cached copy (no ETag).
  app.set('etag', false);
  app.set('trust proxy', parseTrustProxy(options.trustProxy));
  app.use(drainAware(app.getHttpServer()));
  app.use(requestIdAndAccessLog(options.logger));
  app.use(cors(options.allowedOrigins ?? []));
  if (options.webApp) app.use(options.webApp.mountPath, webAppRouter(options.webApp));
  answerClientErrorsInShape(app.getHttpServer());
  const jsonTypes = ['application/json', 'application/*+json'];
  for (const [path, limit] of Object.entries(options.routeBodyLimits ?? {})) app.use(path, json({ limit, strict: false, type: jsonTypes }));
  // A body already read by a route-specific parser is skipped by this one.
  app.use(json({ limit: options.jsonBodyLimit, strict: false, type: jsonTypes }));
  app.use(urlencoded({ extended: false, limit: '64kb' }));
  app.use(noBodyAsEmptyObject);
  app.use(refuseUnsafeInput);
  // Body-parser failures (bad JSON, too large, bad charset) never reach Nest's filters: answer them here, same shape.
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!error) return next();
    const body = errorBody(toDomainError(error), (req as PlatformRequest).requestId ?? '');
    res.status(body.status).type('application/json').send(JSON.stringify(body));
  });
  if (options.beforeListen) {
    await app.init();
    await options.beforeListen(app);
  }
  await app.listen(options.port, options.host);
  options.logger.info({ port: options.port, host: options.host }, `${options.name} listening`);
  return app;
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function requestIdAndAccessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const request = req as PlatformRequest;
    request.requestId = resolveRequestId(req.headers['x-request-id']);
    request.appLog = logger;
    res.setHeader('x-request-id', request.requestId);
    const started = process.hrtime.bigint();
    // originalUrl: routers mounted on a path (the OAuth endpoints) leave req.path relative to it.
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const entry = { requestId: request.requestId, method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10, principal: request.principal?.credential.id };
      if (res.statusCode >= 500) logger.error(entry, 'request failed');
      else logger.info(entry, 'request');
    });
    next();
  };
}
