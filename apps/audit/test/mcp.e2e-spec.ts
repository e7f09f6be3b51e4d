import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { RunningService, startService } from '@svc/test-kit';

/** The audit `/mcp` endpoint driven by the official MCP SDK client. */
describe('audit MCP endpoint', () => {
  let service: RunningService;
  const adminKey = generateApiKey();

  const connect = async (credential?: string) => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), {
      requestInit: { headers: credential ? { authorization: `Bearer ${credential}` } : {} },
    });
    await client.connect(transport);
    return client;
  };

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey });
  }, 90000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('initializes and lists tools derived from the catalogue with a raw organisation key', async () => {
    const client = await connect(adminKey);
    expect(client.getServerVersion()?.name).toBe('docaudit-audit');
    const { tools } = await client.listTools();
    // Only operations flagged as MCP tools in the spec are listed; none of the instance/user
    // operations is one, so the list grows as the conflict, question and document issues land.
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    expect(tools.map((t) => t.name).filter((n) => n.startsWith('audit_instance_') || n.startsWith('audit_user_'))).toEqual([]);
    await client.close();
  });

  it('answers an unknown tool with an isError result carrying the error body', async () => {
    const client = await connect(adminKey);
    const result = await client.callTool({ name: 'audit_does_not_exist', arguments: {} });
    expect(result.isError).toBe(true);
    const body = JSON.parse((result.content as { text: string }[])[0].text);
    expect(body).toMatchObject({ code: 'MCP.UNKNOWN_TOOL', status: 404 });
    await client.close();
  });

  it('refuses a connection without a credential (401 with WWW-Authenticate)', async () => {
    await expect(connect()).rejects.toThrow(/401/);
    const res = await fetch(`${service.urls.audit}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('answers GET and DELETE with 405 (stateless endpoint)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${service.urls.audit}/mcp`, { method, headers: { authorization: `Bearer ${adminKey}` } });
      expect(res.status).toBe(405);
    }
  });
});
