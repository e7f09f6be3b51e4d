import type { OperationDefinition } from './operation.decorator';
import { jsonSchemaOf } from './json-schema';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail', 'code', 'status', 'request_id'],
  properties: {
    detail: { type: 'string' },
    code: { type: 'string' },
    status: { type: 'integer' },
    hint: { type: 'string' },
    request_id: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
  },
};

/** An OpenAPI 3.1 document derived from the operations an app serves. */
export function openApiDocument(title: string, version: string, operations: OperationDefinition[]): object {
  const paths: Record<string, object> = {};
  for (const op of [...operations].sort((a, b) => a.path.localeCompare(b.path))) {
    const errorRef = { $ref: '#/components/responses/Error' };
    paths[op.path] = {
      post: {
        operationId: op.name,
        summary: op.description,
        tags: [op.path.split('/')[2] ?? 'default'],
        'x-permission': op.permission,
        'x-mcp-tool': op.mcp,
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(op.input) } } },
        responses: {
          '200': { description: 'Success', content: { 'application/json': { schema: { type: 'object', required: ['response'], properties: { response: op.output }, additionalProperties: false } } } },
          '400': errorRef, '401': errorRef, '403': errorRef, '404': errorRef, '409': errorRef, '413': errorRef, '429': errorRef, '503': errorRef,
        },
        security: op.public ? [] : [{ bearer: [] }],
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title, version },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Organisation API key (svc_org_...), exchanged token, or OAuth access token' } },
      responses: { Error: { description: 'Error', content: { 'application/json': { schema: ERROR_SCHEMA } } } },
    },
  };
}

/** A self-contained docs page (no CDN: the service runs without internet). */
export function docsPage(title: string, operations: OperationDefinition[]): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows = [...operations]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((op) => `<section><h2><code>POST ${esc(op.path)}</code></h2><p><strong>${esc(op.name)}</strong>${op.mcp ? ' · MCP tool' : ''} · permission <em>${esc(op.permission)}</em></p><p>${esc(op.description)}</p><h3>Input</h3><pre>${esc(JSON.stringify(jsonSchemaOf(op.input), null, 2))}</pre><h3>Response</h3><pre>${esc(JSON.stringify(op.output, null, 2))}</pre></section>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.75rem;overflow:auto}</style></head><body><h1>${esc(title)}</h1><p>Every operation is a POST with a JSON body and answers <code>{"response": ...}</code>. Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>${rows}</body></html>`;
}
