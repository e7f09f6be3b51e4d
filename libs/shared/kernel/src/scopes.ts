import { DomainError } from './domain-error';
import type { Principal } from './principal';
import { Permission, READ_ONLY_PERMISSIONS } from './roles';

/**
 * OAuth scopes (SECURITY.md): what a person lets an MCP client do on their behalf. Reading needs
 * `<api>:read`; anything that changes state needs `<api>:write`. Roles still apply on top.
 */
export const OAUTH_SCOPES = ['audit:read', 'audit:write', 'retrieval:read', 'retrieval:write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/** The scope an operation needs: its API from its name, read or write from its permission class. */
export function requiredScope(operationName: string, permission: Permission): OAuthScope {
  const api = operationName.startsWith('retrieval_') ? 'retrieval' : 'audit';
  const reads = READ_ONLY_PERMISSIONS.includes(permission);
  return `${api}:${reads ? 'read' : 'write'}` as OAuthScope;
}

/** 403 for an OAuth token whose consented scopes do not cover the operation (RFC 6750 §3.1). */
export class InsufficientScopeError extends DomainError {
  constructor(readonly scope: OAuthScope) {
    super('forbidden', 'AUTH.INSUFFICIENT_SCOPE', `This access token lacks the scope ${scope}.`, {
      hint: `Authorize the client again with the scope ${scope}.`,
    });
  }
}

/** Throws InsufficientScopeError when the principal is scope-limited and lacks `scope`. */
export function assertScope(principal: Principal, scope: OAuthScope): void {
  if (principal.scopes && !principal.scopes.includes(scope)) throw new InsufficientScopeError(scope);
}
