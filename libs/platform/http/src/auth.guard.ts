import { CanActivate, createParamDecorator, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, InstanceAccess, Principal } from '@svc/kernel';
import { Authenticator, InstanceAuthenticator } from './access.ports';
import { OPERATION_METADATA, OperationDefinition, PUBLIC_METADATA, Surface } from './operation.decorator';
import { OperationAuthorizer } from './operation-authorizer';
import { PlatformRequest } from './request-context';
import { BEARER_ONLY_METADATA, OriginPolicy } from './resource-server';
import { assertJsonBody, rememberValidatedBody } from './validation';

/** The browser session cookie (SECURITY.md). */
export const SESSION_COOKIE = 'svc_auth';

/** One cookie's value from a `Cookie` header, or undefined. */
export function cookieFrom(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim() || undefined;
  }
  return undefined;
}

function headerOf(request: PlatformRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A cookie-authenticated state change must come from a first-party page: `Origin` on the allow-list,
 * or, without `Origin`, `Sec-Fetch-Site` same-origin or same-site. Anything else is cross-site (403).
 */
export function assertFirstPartyBrowserRequest(request: PlatformRequest, origins: OriginPolicy): void {
  const origin = headerOf(request, 'origin');
  const site = headerOf(request, 'sec-fetch-site');
  const firstParty = origin !== undefined ? origins.allows(origin) : site === 'same-origin' || site === 'same-site';
  if (!firstParty || site === 'cross-site') {
    throw DomainError.forbidden('AUTH.CROSS_SITE_REQUEST', 'A request authenticated by the session cookie must come from a first-party page.', {
      hint: 'Browsers send Origin on POST; non-browser clients use an API key or an access token instead of the cookie.',
    });
  }
}

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
    private readonly origins: OriginPolicy,
    @Optional() private readonly instanceAuthenticator?: InstanceAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const request = context.switchToHttp().getRequest<PlatformRequest>();
    const declared = this.reflector.get<OperationDefinition | undefined>(OPERATION_METADATA, context.getHandler());
    // Operations read JSON only: a form or text body is refused, never read as fields (or as none).
    if (declared) assertJsonBody(request);
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets)) return true;
    if (!this.origins.allows(headerOf(request, 'origin'))) {
      throw DomainError.forbidden('AUTH.ORIGIN_NOT_ALLOWED', `Requests from the origin ${headerOf(request, 'origin')} are not allowed.`, {
        hint: 'Add the origin to ALLOWED_ORIGINS if it is a first-party web app.',
      });
    }
    const operation = declared;
    const surface: Surface = operation?.surface ?? this.reflector.getAllAndOverride<Surface>(SURFACE_METADATA, targets) ?? 'resource';
    request.surface = surface;
    if (surface === 'instance') {
      // Instance API: its own headers only; bearer credentials are not accepted here (SECURITY.md).
      if (!this.instanceAuthenticator) throw new Error('Instance API route without an InstanceAuthenticator');
      request.principal = await this.instanceAuthenticator.authenticate(headerOf(request, 'instance-id'), headerOf(request, 'api-key'));
      return true;
    }
    const bearer = bearerFrom(request.headers.authorization);
    const bearerOnly = this.reflector.getAllAndOverride<boolean>(BEARER_ONLY_METADATA, targets) ?? false;
    const cookie = bearer || bearerOnly ? undefined : cookieFrom(request.headers.cookie, SESSION_COOKIE);
    if (bearer) {
      request.principal = await this.authenticator.authenticate({ bearer }, surface);
    } else if (cookie) {
      if (request.method !== 'GET' && request.method !== 'HEAD') assertFirstPartyBrowserRequest(request, this.origins);
      request.principal = await this.authenticator.authenticate({ cookie }, surface);
    } else {
      throw DomainError.unauthenticated('AUTH.MISSING_CREDENTIAL', 'Send a credential as Authorization: Bearer <token or API key>.');
    }
    if (operation) {
      // Roles first, then the body is validated (400 before any lookup), then the instance is read once.
      const admitted = await this.authorizer.admit(request.principal, operation, request.body, { http: true });
      rememberValidatedBody(request.body, admitted.input);
      request.instanceAccess = admitted.access;
    }
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

/**
 * The caller's access to the instance the operation names, established by the guard (one read). The
 * handler passes it to the use case; an instance-scoped operation without it is a wiring bug.
 */
export const CurrentInstanceAccess = createParamDecorator((_data: unknown, context: ExecutionContext): InstanceAccess => {
  const access = context.switchToHttp().getRequest<PlatformRequest>().instanceAccess;
  if (!access) throw new Error('CurrentInstanceAccess on an operation without instanceField');
  return access;
});
