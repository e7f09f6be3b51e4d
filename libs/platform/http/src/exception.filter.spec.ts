import { ArgumentsHost } from '@nestjs/common';
import { DomainError, InsufficientScopeError } from '@svc/kernel';
import { PlatformExceptionFilter } from './exception.filter';
import type { Surface } from './operation.decorator';
import { INSTANCE_KEY_CHALLENGE, ResourceServerOptions } from './resource-server';

const resourceServer = new ResourceServerOptions('retrieval', 'https://retrieval.example.com', 'https://auth.example.com');

/** The surface is what the auth guard set on the request (the instance API's `/api/...`, or the Bearer REST surface). */
function respond(exception: unknown, request: { path: string; surface?: Surface; headers?: Record<string, string>; appLog?: { error: jest.Mock; warn: jest.Mock } }) {
  const headers: Record<string, string> = {};
  const sent: { status?: number; body?: string } = {};
  const response = {
    headersSent: false,
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    status(code: number) {
      sent.status = code;
      return this;
    },
    type() {
      return this;
    },
    send(body: string) {
      sent.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getRequest: () => ({ headers: {}, requestId: 'req_1', ...request }), getResponse: () => response }) } as unknown as ArgumentsHost;
  new PlatformExceptionFilter(resourceServer).catch(exception, host);
  return { status: sent.status, wwwAuthenticate: headers['www-authenticate'], body: JSON.parse(sent.body ?? '{}') };
}

const missingCredential = () => DomainError.unauthenticated('AUTH.MISSING_CREDENTIAL', 'Send a credential.');

describe('PlatformExceptionFilter: WWW-Authenticate by surface', () => {
  it('challenges for an instance key, not a Bearer token, on a 401 of the instance API (it refuses Bearer)', () => {
    const res = respond(missingCredential(), { path: '/api/search/stats/count-search', surface: 'instance' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'AUTH.MISSING_CREDENTIAL', detail: 'Send a credential.' });
    expect(res.wwwAuthenticate).toBe(INSTANCE_KEY_CHALLENGE);
  });

  it('follows the surface the guard set, whatever the path looks like or the credential presented', () => {
    expect(respond(missingCredential(), { path: '/API/Documents/Upsert/', surface: 'instance' }).wwwAuthenticate).toBe(INSTANCE_KEY_CHALLENGE);
    expect(respond(missingCredential(), { path: '/api/documents/upsert', surface: 'instance', headers: { authorization: 'Bearer x' } }).wwwAuthenticate).toBe(INSTANCE_KEY_CHALLENGE);
  });

  it('keeps the Bearer challenge on the REST surface and on /mcp', () => {
    expect(respond(missingCredential(), { path: '/retrieval/semantic-nodes/search', surface: 'resource' }).wwwAuthenticate).toBe(
      'Bearer resource_metadata="https://retrieval.example.com/.well-known/oauth-protected-resource"',
    );
    expect(respond(missingCredential(), { path: '/mcp', headers: { authorization: 'Bearer expired' } }).wwwAuthenticate).toBe(
      'Bearer error="invalid_token", resource_metadata="https://retrieval.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    const scope = respond(new InsufficientScopeError('retrieval:read'), { path: '/mcp' });
    expect(scope.status).toBe(403);
    expect(scope.wwwAuthenticate).toMatch(/^Bearer error="insufficient_scope", scope="retrieval:read"/);
  });
});

describe('PlatformExceptionFilter logging', () => {
  it("logs an unexpected error through the request's own app logger (the standalone runs four apps in one process)", () => {
    const appLog = { error: jest.fn(), warn: jest.fn() };
    const { status } = respond(Object.assign(new Error('boom'), { name: 'TypeError' }), { path: '/audit/x', appLog });
    expect(status).toBe(500);
    expect(appLog.error).toHaveBeenCalledWith({ err: expect.objectContaining({ type: 'TypeError', message: 'boom' }), requestId: 'req_1' }, 'Unhandled error');
  });
});
