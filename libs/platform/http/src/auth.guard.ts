import { CanActivate, createParamDecorator, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, Principal } from '@svc/kernel';
import { Authenticator, InstanceAuthenticator } from './access.ports';
import { OPERATION_METADATA, OperationDefinition, PUBLIC_METADATA, Surface } from './operation.decorator';
import { OperationAuthorizer } from './operation-authorizer';
import { PlatformRequest } from './request-context';

/** `Authorization: Bearer <credential>`; other schemes, empty values and query-string tokens are ignored. */
export function bearerFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Every route is authenticated unless marked @Public(); catalogued operations are then authorized
 * from their catalogue entry (role table, instance membership). Non-catalogued authenticated routes
 * (for example `/mcp`) authorize per call.
 */
@Injectable()
export class PlatformAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly authorizer: OperationAuthorizer,
    @Optional() private readonly instanceAuthenticator?: InstanceAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets)) return true;
    const request = context.switchToHttp().getRequest<PlatformRequest>();
    const operation = this.reflector.get<OperationDefinition | undefined>(OPERATION_METADATA, context.getHandler());
    const surface: Surface = operation?.surface ?? this.reflector.getAllAndOverride<Surface>(SURFACE_METADATA, targets) ?? 'resource';
    if (surface === 'instance') {
      // Instance API: its own headers only; bearer credentials are not accepted here (SECURITY.md).
      if (!this.instanceAuthenticator) throw new Error('Instance API route without an InstanceAuthenticator');
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      request.principal = await this.instanceAuthenticator.authenticate(header('instance-id'), header('api-key'));
      return true;
    }
    const bearer = bearerFrom(request.headers.authorization);
    if (!bearer) {
      throw DomainError.unauthenticated('AUTH.MISSING_CREDENTIAL', 'Send a credential as Authorization: Bearer <token or API key>.');
    }
    request.principal = await this.authenticator.authenticate({ bearer }, surface);
    if (operation) await this.authorizer.authorize(request.principal, operation, request.body);
    return true;
  }
}

export const SURFACE_METADATA = 'svc:surface';

/** The authenticated caller of this request. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<PlatformRequest>().principal;
  if (!principal) throw DomainError.unauthenticated('AUTH.MISSING_CREDENTIAL', 'A credential is required.');
  return principal;
});
