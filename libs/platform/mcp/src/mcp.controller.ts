import { Controller, Delete, Get, HttpCode, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_VERSION } from '@svc/contracts';
import { BearerOnly, errorBody, ResourceServerOptions, jsonSchemaOf, OperationAuthorizer, OperationRegistry, PlatformRequest, Public, RawResponse, RegisteredOperation, toDomainError } from '@svc/http';
import { assertScope, DomainError, Principal, requiredScope } from '@svc/kernel';
import type { Response } from 'express';
import { StrictParamsServer } from './strict-params.server';

export interface McpOptions {
  /** Reported to clients at initialisation. Tools are this app's catalogued operations flagged `mcp`. */
  serverName: string;
}
export const MCP_OPTIONS = Symbol('MCP_OPTIONS');

/**
 * `/mcp`: MCP over Streamable HTTP, stateless (a new server and transport per request) with JSON
 * responses. Tools are the catalogue's MCP operations: same names, same input schemas, same
 * authorization, same use cases as REST. A failing call is a tool result with `isError: true`
 * carrying the same error body as REST.
 */
@Controller('mcp')
@RawResponse()
@BearerOnly()
export class McpController {
  constructor(
    private readonly registry: OperationRegistry,
    private readonly authorizer: OperationAuthorizer,
    @Inject(MCP_OPTIONS) private readonly options: McpOptions,
    @Optional() private readonly resourceServer?: ResourceServerOptions,
  ) {}

  @Post()
  async handle(@Req() req: PlatformRequest, @Res() res: Response): Promise<void> {
    const principal = req.principal;
    if (!principal) throw DomainError.unauthenticated('AUTH.MISSING_CREDENTIAL', 'A credential is required.');
    this.assertScopes(principal, req.body);
    const server = this.buildServer(principal, req.requestId ?? '');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  @Get()
  @Public()
  @HttpCode(405)
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  @Delete()
  @Public()
  @HttpCode(405)
  delete(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  /**
   * OAuth tokens are scope-limited: connecting needs the API's read scope, and a tool call needs its
   * operation's scope. Refusals are HTTP 403 with an `insufficient_scope` challenge (MCP authorization
   * spec), so clients can ask the user for more.
   */
  private assertScopes(principal: Principal, body: unknown): void {
    if (!principal.scopes) return;
    if (this.resourceServer) assertScope(principal, this.resourceServer.readScope);
    const operations = this.tools();
    for (const message of Array.isArray(body) ? body : [body]) {
      const call = message as { method?: unknown; params?: { name?: unknown } } | null;
      if (call?.method !== 'tools/call') continue;
      const operation = operations.find((op) => op.definition.name === call.params?.name);
      if (operation) assertScope(principal, requiredScope(operation.definition.name, operation.definition.permission));
    }
  }

  private tools(): RegisteredOperation[] {
    return this.registry
      .all()
      .filter((op) => op.definition.mcp)
      .sort((a, b) => a.definition.name.localeCompare(b.definition.name));
  }

  private buildServer(principal: Principal, requestId: string): Server {
    const server = new StrictParamsServer({ name: this.options.serverName, version: SERVICE_VERSION }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.tools().map(({ definition }) => ({
        name: definition.name,
        description: definition.description,
        inputSchema: jsonSchemaOf(definition.input) as { type: 'object'; properties?: Record<string, object> },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const operation = this.tools().find((op) => op.definition.name === request.params.name);
      if (!operation) {
        return toolError(DomainError.notFound('MCP.UNKNOWN_TOOL', `No tool named ${request.params.name}.`), requestId);
      }
      try {
        const args = request.params.arguments ?? {};
        const { input, access } = await this.authorizer.admit(principal, operation.definition, args);
        const result = await operation.invoke(input, principal, access);
        const body = { response: result === undefined ? true : result };
        return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
      } catch (error) {
        return toolError(toDomainError(error), requestId);
      }
    });
    return server;
  }
}

function toolError(error: DomainError, requestId: string): CallToolResult {
  const body = errorBody(error, requestId);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { ...body } };
}

function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' }, id: null });
}
