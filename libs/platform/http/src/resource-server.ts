import { Controller, Get, Inject, SetMetadata } from '@nestjs/common';
import { InsufficientScopeError, OAUTH_SCOPES, OAuthScope } from '@svc/kernel';

/** The public URLs of a deployment's apps (validated configuration). */
export interface PublicUrls {
  PUBLIC_AUTH_URL: string;
  PUBLIC_AUDIT_URL: string;
  PUBLIC_RETRIEVAL_URL: string;
}
import { Public, RawResponse, type Surface } from './operation.decorator';

/**
 * What an app that is an OAuth protected resource (RFC 9728) says about itself: its base URL, its
 * `/mcp` resource, the authorization server, the scopes it understands.
 */
export class ResourceServerOptions {
  /** The audit or retrieval app of a deployment, from its public URLs. */
  static forApi(api: 'audit' | 'retrieval', urls: PublicUrls): ResourceServerOptions {
    const base = new URL(api === 'audit' ? urls.PUBLIC_AUDIT_URL : urls.PUBLIC_RETRIEVAL_URL).origin;
    return new ResourceServerOptions(api, base, new URL(urls.PUBLIC_AUTH_URL).origin);
  }

  constructor(
    readonly api: 'audit' | 'retrieval',
    /** Public base URL (origin) of the app, e.g. `https://audit.example.com`. */
    readonly baseUrl: string,
    /** Issuer of the authorization server (path-less). */
    readonly authorizationServer: string,
  ) {}

  get name(): string {
    return `docaudit ${this.api}`;
  }

  get scopes(): OAuthScope[] {
    return OAUTH_SCOPES.filter((s) => s.startsWith(`${this.api}:`));
  }

  /** What any use of the API needs, starting with connecting to its `/mcp`. */
  get readScope(): OAuthScope {
    return `${this.api}:read`;
  }

  get mcpResource(): string {
    return `${this.baseUrl}/mcp`;
  }

  /** Audiences this app accepts in OAuth access tokens: its `/mcp` endpoint and its REST API. */
  get audiences(): string[] {
    return [this.mcpResource, this.baseUrl];
  }

  metadataUrl(path: string): string {
    return `${this.baseUrl}/.well-known/oauth-protected-resource${isMcpPath(path) ? '/mcp' : ''}`;
  }

  /**
   * `WWW-Authenticate` for a refused request (RFC 6750 §3, RFC 9728 §5.1): 401s point at the
   * metadata, and say `invalid_token` when a token was presented; scope refusals name the scope.
   * Only the `resource` surface (REST and `/mcp`) takes Bearer tokens. The instance API refuses them:
   * its 401s name its own scheme instead (`instance-id` + `api-key` headers), so a client is never sent
   * to OAuth for a key it cannot use there (every 401 carries a challenge, RFC 9110 §15.5.2). The
   * platform surface gets none from this resource server.
   */
  challenge(path: string, status: number, error: unknown, presentedToken: boolean, surface: Surface = 'resource'): string | undefined {
    if (surface === 'instance') return status === 401 ? INSTANCE_KEY_CHALLENGE : undefined;
    if (surface !== 'resource') return undefined;
    const metadata = `resource_metadata="${this.metadataUrl(path)}"`;
    if (status === 401) return `Bearer ${presentedToken ? 'error="invalid_token", ' : ''}${metadata}`;
    if (status === 403 && error instanceof InsufficientScopeError) return `Bearer error="insufficient_scope", scope="${error.scope}", ${metadata}`;
    return undefined;
  }
}

/** The instance API's challenge: an instance API key in the `api-key` header, with the `instance-id` header. */
export const INSTANCE_KEY_CHALLENGE = 'InstanceKey realm="instance API", headers="instance-id api-key"';

export function isMcpPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp/') || path.startsWith('/mcp?');
}

/** Marks a route that takes credentials from the Authorization header only (never the cookie): `/mcp`. */
export const BEARER_ONLY_METADATA = 'svc:bearer-only';
export const BearerOnly = (): MethodDecorator & ClassDecorator => SetMetadata(BEARER_ONLY_METADATA, true);

/** RFC 9728 metadata of the app's two resources: `/mcp` and the REST API. */
@Controller('.well-known/oauth-protected-resource')
@Public()
@RawResponse()
export class ProtectedResourceMetadataController {
  constructor(@Inject(ResourceServerOptions) private readonly options: ResourceServerOptions) {}

  @Get('mcp')
  mcp() {
    return this.document(this.options.mcpResource, `${this.options.name} MCP endpoint`);
  }

  @Get()
  api() {
    return this.document(this.options.baseUrl, `${this.options.name} REST API`);
  }

  private document(resource: string, name: string) {
    return {
      resource,
      authorization_servers: [this.options.authorizationServer],
      scopes_supported: this.options.scopes,
      bearer_methods_supported: ['header'],
      resource_name: name,
      resource_documentation: `${this.options.baseUrl}/docs`,
    };
  }
}

/**
 * Browser origins allowed to call the app. A request whose `Origin` is not listed gets 403 (DNS
 * rebinding and cross-site use); a request without `Origin` (servers, CLIs) is not a browser call.
 */
export class OriginPolicy {
  constructor(readonly allowed: readonly string[]) {}

  allows(origin: string | undefined): boolean {
    return origin === undefined || this.allowed.includes(origin);
  }
}
