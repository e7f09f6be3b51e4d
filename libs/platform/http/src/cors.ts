import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '@svc/kernel';
import { errorBody } from './error-body';
import { PlatformRequest } from './request-context';

/** Request headers a browser app may send to the APIs. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-request-id', 'instance-id', 'api-key', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];
/** Response headers a browser app may read. */
const EXPOSED_HEADERS = ['x-request-id', 'www-authenticate', 'retry-after', 'mcp-session-id'];

/**
 * CORS for the first-party web apps (ALLOWED_ORIGINS): a preflight from an allowed origin is answered
 * 204 with what it may send; from any other origin 403 in the error shape. Actual requests from an
 * allowed origin get the headers that let the page read the answer (credentials included: the session
 * cookie). Requests without Origin (servers, CLIs, agents) are untouched; the auth guard still refuses
 * an operation called from an origin that is not allowed.
 */
export function cors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!allowed.has(origin)) {
      if (!preflight) return next();
      const error = DomainError.forbidden('AUTH.ORIGIN_NOT_ALLOWED', `Requests from the origin ${printable(origin)} are not allowed.`, {
        hint: 'Add the origin to ALLOWED_ORIGINS if it is a first-party web app.',
      });
      res.status(403).type('application/json').send(JSON.stringify(errorBody(error, (req as PlatformRequest).requestId ?? '')));
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.vary('Origin');
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS.join(', '));
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}

function printable(origin: string): string {
  return origin.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

/**
 * Requests Node refuses before any handler runs (headers too large, malformed HTTP) get the usual
 * error body instead of Node's bare status line, then the connection closes.
 */
export function answerClientErrorsInShape(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const domain = tooLarge
      ? DomainError.invalid('REQUEST.HEADERS_TOO_LARGE', 'The request headers are too large.', { hint: 'Send fewer or shorter headers (cookies included); the limit is 16 KB in total.' })
      : DomainError.invalid('REQUEST.MALFORMED_HTTP', 'The request is not valid HTTP.');
    const body = JSON.stringify({ ...errorBody(domain, ''), status });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
