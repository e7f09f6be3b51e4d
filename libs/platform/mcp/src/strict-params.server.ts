import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describeSchemaIssues, SchemaIssue } from '@svc/kernel';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK's `Server`, except that a request whose params do not match the method's schema
 * (`tools/call` with `arguments: null`, `initialize` with a numeric protocol version) is answered
 * -32602 Invalid params with a readable sentence, instead of -32603 Internal error carrying the
 * schema library's raw dump. Every handler, the SDK's own `initialize` included, is wrapped as it is
 * registered.
 */
export class StrictParamsServer extends Server {
  override setRequestHandler(...args: Parameters<Server['setRequestHandler']>): void {
    super.setRequestHandler(...args);
    const handlers = (this as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
    for (const [method, handler] of handlers) {
      if (WRAPPED.has(handler)) continue;
      const wrapped: RequestHandler = async (request, extra) => {
        try {
          return await handler(request, extra);
        } catch (error) {
          const issues = (error as { issues?: SchemaIssue[] })?.issues;
          if (!Array.isArray(issues)) throw error;
          throw new InvalidParams(`Invalid params for ${method}: ${describeSchemaIssues(issues)}.`);
        }
      };
      WRAPPED.add(wrapped);
      handlers.set(method, wrapped);
    }
  }
}

const WRAPPED = new WeakSet<RequestHandler>();

/** What the SDK turns into a JSON-RPC error: its `code` and its `message` as they are (McpError would prefix "MCP error -32602: "). */
class InvalidParams extends Error {
  readonly code = ErrorCode.InvalidParams;
}
