import { DomainError, InsufficientScopeError } from '@svc/kernel';
import { ResourceServerOptions } from './resource-server';

describe('ResourceServerOptions.challenge', () => {
  const audit = new ResourceServerOptions('audit', 'https://audit.example.com', 'https://auth.example.com');
  const unauthenticated = DomainError.unauthenticated('AUTH.MISSING_CREDENTIAL', 'Send a credential.');

  it('challenges for a Bearer token on the resource surface (the default), pointing at the right metadata', () => {
    expect(audit.challenge('/audit/conflict/get', 401, unauthenticated, false)).toBe('Bearer resource_metadata="https://audit.example.com/.well-known/oauth-protected-resource"');
    expect(audit.challenge('/mcp', 401, unauthenticated, true, 'resource')).toBe('Bearer error="invalid_token", resource_metadata="https://audit.example.com/.well-known/oauth-protected-resource/mcp"');
    expect(audit.challenge('/mcp', 403, new InsufficientScopeError('audit:write'), true)).toBe('Bearer error="insufficient_scope", scope="audit:write", resource_metadata="https://audit.example.com/.well-known/oauth-protected-resource/mcp"');
  });

  it('sends no Bearer challenge for surfaces that do not take Bearer tokens from this resource server', () => {
    expect(audit.challenge('/api/search/stats/count-search', 401, unauthenticated, false, 'instance')).toBe('InstanceKey realm="instance API", headers="instance-id api-key"');
    expect(audit.challenge('/api/documents/upsert', 401, unauthenticated, true, 'instance')).toBe('InstanceKey realm="instance API", headers="instance-id api-key"');
    expect(audit.challenge('/api/documents/upsert', 403, unauthenticated, true, 'instance')).toBeUndefined();
    expect(audit.challenge('/core/organization/api-keys/list', 401, unauthenticated, true, 'platform')).toBeUndefined();
  });

  it('sends none for other statuses', () => {
    expect(audit.challenge('/audit/conflict/get', 403, DomainError.forbidden('AUTH.FORBIDDEN', 'No.'), true)).toBeUndefined();
    expect(audit.challenge('/audit/conflict/get', 404, DomainError.notFound('X.NOT_FOUND', 'No.'), true)).toBeUndefined();
  });
});
