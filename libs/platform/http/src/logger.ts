import { loggableError } from '@svc/kernel';
import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * Header and body fields that carry secrets: never logged, whatever the level. An OAuth
 * authorization code is a secret only where a request carries it (`body.code`, `query.code`): a
 * blanket `*.code` would also hide every error's SQLSTATE (`err.code`) and domain code.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["api-key"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.authorization',
  '*.cookie',
  '*.api_key',
  '*.apiKey',
  '*.password',
  'body.code',
  'query.code',
  'form.code',
  'req.body.code',
  'req.query.code',
  'res.headers.location',
  '*.code_verifier',
  '*.refresh_token',
  '*.access_token',
  '*.client_secret',
  '*.secret',
  '*.EMBEDDINGS_API_KEY',
  '*.ANTHROPIC_API_KEY',
  '*.AUTH_SECRET',
];

/**
 * `err` is what may be logged of an error (`loggableError`): an Error is reduced to it, and a value
 * already reduced is kept as it is (pino's own serializer would replace its `type`, the error's class,
 * with "Object").
 */
function serializeError(value: unknown): unknown {
  return value instanceof Error ? loggableError(value) : value;
}

export function createRootLogger(options: { level: string; name: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      serializers: { err: serializeError },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { process: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}

/** The contexts of Nest's own start-up and shutdown lines. */
const NEST_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestApplicationContext', 'NestMicroservice', 'WebSocketsController']);

/** Nest's logger interface over pino, so framework and application logs share one JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  /**
   * Nest's own `log` chatter (module init, route mapping) is debug-level noise in production; the
   * service's own `Logger.log` lines (the LLM's token accounting) are info.
   */
  log(message: unknown, context?: string): void {
    this.write(context !== undefined && NEST_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.write('error', message, context ?? trace);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }
  private write(level: pino.Level, message: unknown, context?: string): void {
    // An error keeps only what may be logged (never a statement's parameters: loggableError).
    if (message instanceof Error) this.logger[level]({ context, err: loggableError(message) }, message.name);
    else if (message !== null && typeof message === 'object') this.logger[level]({ context, ...(message as object) });
    else this.logger[level]({ context }, String(message));
  }
}
