import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, Optional } from '@nestjs/common';
import { DomainError, isDomainError, loggableError } from '@svc/kernel';
import type { Response } from 'express';
import { errorBody, ErrorBody } from './error-body';
import { PlatformRequest, resolveRequestId } from './request-context';
import { ResourceServerOptions } from './resource-server';

/**
 * The one mapping from errors to HTTP: DomainErrors by kind, framework errors (unknown route, bad
 * JSON, body too large) to the same body shape, and anything else to a 500 whose body says nothing
 * about internals while the log keeps the details.
 */
@Catch()
export class PlatformExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');
  /** Nest's logger with pino's argument order, for requests that came without the app's own. */
  private readonly nestLog = { error: (fields: object, message: string) => this.logger.error({ ...fields, msg: message }), warn: (fields: object, message: string) => this.logger.warn({ ...fields, msg: message }) };

  /**
   * Set on protected resources (audit, retrieval): their 401/403s carry a `WWW-Authenticate`
   * challenge for the surface the auth guard authenticated the request for.
   */
  constructor(@Optional() private readonly resourceServer?: ResourceServerOptions) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<PlatformRequest>();
    const response = http.getResponse<Response>();
    const requestId = request.requestId ?? resolveRequestId(request.headers['x-request-id']);
    const error = toDomainError(exception);
    const body: ErrorBody = errorBody(error, requestId);
    if (error.kind === 'internal' || (error.kind === 'unavailable' && !isDomainError(exception))) {
      (request.appLog ?? this.nestLog).error({ err: loggableError(exception), requestId }, 'Unhandled error');
    } else if (error.kind === 'unavailable') {
      // A dependency the use case reported (the LLM, a key store): operators need to see it. The
      // message names the failure without secrets; of the cause only its class and code, since a
      // driver's message may quote a parameter.
      const cause = error.cause as { name?: unknown; code?: unknown } | undefined;
      (request.appLog ?? this.nestLog).warn({ code: error.code, requestId, cause: cause ? { name: cause.name, code: cause.code } : undefined }, error.message);
    }
    // BEHAVIOUR.md: every 503 says when to retry, even when the failure did not (a refused LLM credential).
    const retryAfter = error.retryAfterSeconds ?? (body.status === 503 ? DEFAULT_UNAVAILABLE_RETRY_AFTER_S : undefined);
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    const challenge = this.resourceServer?.challenge(request.path, body.status, error, Boolean(request.headers.authorization), request.surface ?? 'resource');
    if (challenge) response.setHeader('WWW-Authenticate', challenge);
    if (response.headersSent) return;
    response.status(body.status).type('application/json').send(JSON.stringify(body));
  }
}

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
}

export function toDomainError(exception: unknown): DomainError {
  if (isDomainError(exception)) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return DomainError.notFound('HTTP.ROUTE_NOT_FOUND', 'No operation answers at this method and path.', { hint: 'Every operation is a POST with a JSON body; see /openapi.json.' });
    if (status === 413) return tooLarge();
    if (status === 400) return DomainError.invalid('REQUEST.INVALID', exception.message);
    if (status === 401) return DomainError.unauthenticated('AUTH.UNAUTHENTICATED', 'A valid credential is required.');
    if (status === 403) return DomainError.forbidden('AUTH.FORBIDDEN', exception.message);
    if (status === 405) return new DomainError('method_not_allowed', 'HTTP.METHOD_NOT_ALLOWED', 'Method not allowed.');
    if (status === 429) return new DomainError('rate_limited', 'HTTP.RATE_LIMITED', 'Too many requests.', { retryAfterSeconds: 60 });
    return new DomainError('internal', 'HTTP.ERROR', 'The request could not be completed.');
  }
  const parserError = exception as BodyParserError;
  if (parserError?.type === 'entity.too.large') return tooLarge();
  if (parserError?.type === 'entity.parse.failed') {
    return DomainError.invalid('REQUEST.MALFORMED_JSON', 'The request body is not valid JSON.', { hint: 'Send a JSON object with Content-Type: application/json.' });
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new DomainError('unsupported_media_type', 'REQUEST.UNSUPPORTED_ENCODING', 'The request body encoding is not supported: send UTF-8 JSON, uncompressed.');
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return DomainError.invalid('REQUEST.INVALID', 'The request could not be read.');
  }
  if (isDependencyOutage(exception)) {
    return DomainError.unavailable('DEPENDENCY.UNAVAILABLE', 'A service this operation depends on is unreachable; retry shortly.');
  }
  return new DomainError('internal', 'INTERNAL.UNEXPECTED', 'Something went wrong on our side; the error was logged.');
}

/** Retry-After of a 503 whose error gave none. */
const DEFAULT_UNAVAILABLE_RETRY_AFTER_S = 30;

const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03', '53300', '08006', '08001']);

/** Connection-level failures of the database or Redis: the caller should retry, nothing is wrong with the input. */
function isDependencyOutage(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = (error as { message?: unknown })?.message;
  return (
    (typeof code === 'string' && OUTAGE_CODES.has(code)) ||
    (typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Connection is closed/i.test(message))
  );
}

function tooLarge(): DomainError {
  return new DomainError('too_large', 'REQUEST.TOO_LARGE', 'The request body is larger than this operation accepts.');
}
