import { generateApiKey } from '@svc/identity-core';
import { Json, post, RunningService, startService } from '@svc/test-kit';
import { decodeJwt } from 'jose';

/**
 * Ports moved, public URLs left unset (issue 28): what an MCP client is told at every step of its discovery
 * names the ports the apps listen on, not 3000–3002. The 401 challenge points at the protected-resource
 * metadata, which names the `/mcp` resource and the authorization server, whose metadata names its endpoints;
 * an exchanged token's issuer is that same URL and the audit app accepts it.
 */
describe('public URLs derived from moved ports (embedded)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  const publicUrl = (listening: string) => `http://localhost:${new URL(listening).port}`;

  beforeAll(async () => {
    // The harness listens on free ports; empty PUBLIC_*_URL values count as unset.
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, PUBLIC_AUTH_URL: '', PUBLIC_AUDIT_URL: '', PUBLIC_RETRIEVAL_URL: '' });
  }, 90000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('the challenge, the protected-resource metadata of audit and retrieval, and the authorization-server metadata name the moved ports', async () => {
    const auth = publicUrl(service.urls.auth);
    expect(new URL(auth).port).not.toBe('3000');
    for (const app of ['audit', 'retrieval'] as const) {
      const base = publicUrl(service.urls[app]);
      const challenge = await post(`${service.urls[app]}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, undefined, { accept: 'application/json, text/event-stream' });
      expect(challenge.status).toBe(401);
      expect(challenge.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
      const resource = (await (await fetch(`${service.urls[app]}/.well-known/oauth-protected-resource/mcp`)).json()) as Json;
      expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [auth], resource_documentation: `${base}/docs` });
    }
    const metadata = (await (await fetch(`${service.urls.auth}/.well-known/oauth-authorization-server`)).json()) as Json;
    expect(metadata).toMatchObject({
      issuer: auth,
      authorization_endpoint: `${auth}/authorize`,
      token_endpoint: `${auth}/token`,
      registration_endpoint: `${auth}/register`,
      jwks_uri: `${auth}/.well-known/jwks.json`,
    });
  });

  it("an exchanged token's issuer is the derived URL, and the audit app accepts it", async () => {
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token as string;
    expect(decodeJwt(token).iss).toBe(publicUrl(service.urls.auth));
    expect((await post(`${service.urls.audit}/audit/instance/list-instances-for-user`, {}, token)).status).toBe(200);
  });
});
