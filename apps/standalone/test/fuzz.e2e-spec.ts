import { generateApiKey } from '@svc/identity-core';
import { Json, post, RunningService, startService } from '@svc/test-kit';

/**
 * Hostile input against every route of the three apps, read from their OpenAPI documents (so every new
 * operation is covered as it arrives), plus the OAuth endpoints and `/mcp`. Each field of each
 * operation gets every hostile value while the others stay plausible, and each route gets whole bodies
 * no operation accepts. Nothing may answer 5xx; every refusal has the error shape.
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  minimum?: number;
}

interface Route {
  app: 'auth' | 'audit' | 'retrieval';
  path: string;
  schema: Schema;
  instanceApi: boolean;
  public: boolean;
}

const nested = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i += 1) value = i % 2 ? { a: value } : [value];
  return value;
};

/** Values no field should turn into a 500. */
const HOSTILE_VALUES: unknown[] = [
  null, 0, -1, 1.5, 1e308, -1e308, true, '', ' ', 'x'.repeat(100_000), 'a\u0000b', '\ud800', '😀'.repeat(2000),
  "' OR '1'='1' --", '../../../../etc/passwd', '<script>alert(1)</script>', 'javascript:alert(1)', '%00', '${jndi:ldap://x}',
  [], [null], ['x'.repeat(10)], Array.from({ length: 5000 }, (_, i) => `v${i}`), {}, { $ne: '' }, nested(40),
  'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'fc_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'AAAA', '2026-13-45',
];

/** Whole raw bodies, sent as application/json. */
const HOSTILE_BODIES: string[] = [
  '', 'null', '[]', '"text"', '42', 'true', '{', '{"a":1', '{"a":1}}', '\u0000', '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}', `${'['.repeat(5000)}${']'.repeat(5000)}`, `${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`,
  '{"a":"\\ud800"}', '{"a":"\\u0000"}', JSON.stringify({ x: 'y'.repeat(3_000_000) }),
];

describe('hostile input on every route (standalone, embedded)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let token: string;
  let instanceId: string;
  let instanceKey: string;
  let documentId: string;
  const statuses = new Map<number, number>();
  const fiveHundreds: string[] = [];
  let sent = 0;

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, LOG_LEVEL: 'warn' });
    token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Fuzz' }, adminKey)).body.response.instance_id;
    instanceKey = (await post(`${service.urls.retrieval}/retrieval/instances/api-keys/create`, { instance_id: instanceId, name: 'fuzz' }, adminKey)).body.response.api_key;
    const upsert = await post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: 'refunds.md', name: 'refunds.md', content_text: 'Refunds take 30 days.' }, undefined, {
      'instance-id': instanceId,
      'api-key': instanceKey,
    });
    documentId = upsert.body.response.id;
  }, 90000);

  const fuzzed = new Set<string>();

  beforeEach(() => {
    fiveHundreds.length = 0;
  });

  afterAll(async () => {
    await service?.destroy();
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`fuzz: ${sent} requests over ${fuzzed.size} routes; statuses ${summary}; 5xx: ${fiveHundreds.length}`);
  });

  /** Sends one request and records its status; a 5xx is remembered with what caused it. */
  async function send(url: string, body: string | Buffer, headers: Record<string, string>, label: string): Promise<{ status: number; json: Json }> {
    sent += 1;
    const res = await fetch(url, { method: 'POST', headers, body });
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) fiveHundreds.push(`${res.status} ${label}: ${text.slice(0, 300)}`);
    let json: Json = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    if (res.status >= 400 && res.status < 500 && res.status !== 404) {
      // Every refusal of ours has the error shape (OAuth endpoints answer RFC 6749's).
      if (!(typeof json === 'object' && json !== null && ('code' in json || 'error' in json))) fiveHundreds.push(`shapeless ${res.status} ${label}: ${text.slice(0, 200)}`);
    }
    return { status: res.status, json };
  }

  async function routes(): Promise<Route[]> {
    const found: Route[] = [];
    for (const app of ['auth', 'audit', 'retrieval'] as const) {
      const document = (await (await fetch(`${service.urls[app]}/openapi.json`)).json()) as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: Schema }> }; security?: unknown[] } }> };
      for (const [path, item] of Object.entries(document.paths)) {
        if (!item.post) continue;
        const schema = item.post.requestBody?.content['application/json']?.schema ?? {};
        found.push({ app, path, schema, instanceApi: path.startsWith('/api/'), public: (item.post.security ?? [{}]).length === 0 });
      }
    }
    // Operations that take things away run last, so the others still find what they name.
    const destructive = (r: Route) => /delete|revoke|remove|withdraw/.test(r.path);
    return found.sort((a, b) => Number(destructive(a)) - Number(destructive(b)));
  }

  /** A value the field would plausibly accept, so that the other fields' hostile values reach deep. */
  function plausible(name: string, schema: Schema): unknown {
    if (schema.enum?.length) return schema.enum[0];
    if (name === 'instance_id') return instanceId;
    if (name === 'document_id') return documentId;
    if (name === 'document_ids') return [documentId];
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'integer':
      case 'number':
        return schema.minimum ?? 1;
      case 'boolean':
        return true;
      case 'array':
        return schema.items ? [plausible(name, schema.items)] : [];
      case 'object':
        return {};
      default:
        if (/email/.test(name)) return 'fuzz@example.com';
        if (/url/.test(name)) return 'https://intranet.example/x';
        if (/base64/.test(name)) return Buffer.from('hello').toString('base64');
        return 'fuzz';
    }
  }

  it('never answers 5xx to hostile fields or bodies on any operation of the three apps', async () => {
    const all = await routes();
    // The three apps' catalogued operations: today at least the platform, instance, user, document and retrieval ones.
    expect(all.filter((r) => r.app === 'auth').length).toBeGreaterThanOrEqual(5);
    expect(all.filter((r) => r.app === 'audit').length).toBeGreaterThanOrEqual(17);
    expect(all.filter((r) => r.instanceApi).length).toBeGreaterThanOrEqual(5);
    for (const route of all) {
      const url = `${service.urls[route.app]}${route.path}`;
      fuzzed.add(url);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (route.instanceApi) Object.assign(headers, { 'instance-id': instanceId, 'api-key': instanceKey });
      else if (!route.public) headers.authorization = `Bearer ${token}`;
      const properties = route.schema.properties ?? {};
      const base = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, plausible(name, schema)]));
      for (const [name] of Object.entries(properties)) {
        for (const value of HOSTILE_VALUES) {
          await send(url, JSON.stringify({ ...base, [name]: value }), headers, `${route.path} ${name}=${JSON.stringify(value)?.slice(0, 60)}`);
        }
      }
      await send(url, JSON.stringify({ ...base, unknown_field: 1 }), headers, `${route.path} unknown field`);
      for (const body of HOSTILE_BODIES) await send(url, body, headers, `${route.path} body ${body.slice(0, 60)}`);
      await send(url, 'a=1', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, `${route.path} form body`);
      // The same without any credential.
      await send(url, JSON.stringify(base), { 'content-type': 'application/json' }, `${route.path} anonymous`);
      await send(url, `${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`, { 'content-type': 'application/json' }, `${route.path} anonymous deep`);
    }
    expect(fiveHundreds).toEqual([]);
  }, 600000);

  it('never answers 5xx on the OAuth endpoints, whatever the form', async () => {
    // Raw form bodies: a lone surrogate cannot even be URL-encoded by a well-behaved client.
    const forms = [
      '', 'grant_type=authorization_code', `grant_type=${'x'.repeat(100_000)}`, 'client_id=a%00b', 'client_id=%ED%A0%80', 'client_id=%E0%A4%A',
      'grant_type=authorization_code&client_id=nope&code=x&code_verifier=y&redirect_uri=javascript%3Aalert(1)',
      "grant_type=refresh_token&client_id=nope&refresh_token=' OR 1=1", 'token=x&client_id=', '__proto__=x&constructor=y', 'client_id=a&client_id=b',
    ];
    const jsonForms: unknown[] = [{ client_id: 'a\u0000b' }, { client_id: '\ud800' }, { client_id: ['a', 'b'] }, { client_id: null }, { grant_type: { $ne: 1 } }];
    const dumps: string[] = [];
    const described = ({ json }: { json: Json }) => {
      const description = (json as { error_description?: unknown } | undefined)?.error_description;
      if (typeof description === 'string' && /^\s*[[{]/.test(description)) dumps.push(description.slice(0, 120));
    };
    for (const path of ['/token', '/revoke', '/register', '/authorize']) {
      for (const body of forms) {
        described(await send(`${service.urls.auth}${path}`, body, { 'content-type': 'application/x-www-form-urlencoded' }, `${path} form ${body.slice(0, 60)}`));
      }
      described(await send(`${service.urls.auth}${path}`, JSON.stringify({ redirect_uris: 5, client_name: ['x'] }), { 'content-type': 'application/json' }, `${path} bad metadata`));
      for (const form of jsonForms) await send(`${service.urls.auth}${path}`, JSON.stringify(form), { 'content-type': 'application/json' }, `${path} json ${JSON.stringify(form)}`);
      for (const body of HOSTILE_BODIES) await send(`${service.urls.auth}${path}`, body, { 'content-type': 'application/json' }, `${path} body ${body.slice(0, 60)}`);
      const query = await fetch(`${service.urls.auth}${path}?client_id=a%00b&redirect_uri=%ud800`, { redirect: 'manual' });
      sent += 1;
      if (query.status >= 500) fiveHundreds.push(`${query.status} GET ${path} with a NUL query`);
    }
    expect(fiveHundreds).toEqual([]);
    // OAuth errors describe the problem in a sentence, never as a schema library's JSON dump.
    expect(dumps).toEqual([]);
    const registration = await send(`${service.urls.auth}/register`, JSON.stringify({ redirect_uris: 5 }), { 'content-type': 'application/json' }, 'bad registration');
    expect(registration).toMatchObject({ status: 400, json: { error: 'invalid_client_metadata', error_description: expect.stringMatching(/^Invalid request: redirect_uris: .+\.$/) } });
  }, 300000);

  it('never answers 5xx, nor an internal JSON-RPC error, on /mcp', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
    const messages: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'audit_instance_list_instances_for_user', arguments: null } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'audit_instance_list_instances_for_user', arguments: 'x' } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: null },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 42 } },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: null },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: { $ne: 1 } } },
      { jsonrpc: '1.0', id: null, method: 42 },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, null],
    ];
    const internal: string[] = [];
    for (const app of ['audit', 'retrieval'] as const) {
      for (const message of messages) {
        const { status, json } = await send(`${service.urls[app]}/mcp`, JSON.stringify(message), headers, `${app} /mcp ${JSON.stringify(message).slice(0, 80)}`);
        if (status === 200 && (json as { error?: { code?: number } })?.error?.code === -32603) internal.push(`${app} ${JSON.stringify(message)}`);
      }
      for (const body of HOSTILE_BODIES) await send(`${service.urls[app]}/mcp`, body, headers, `${app} /mcp body ${body.slice(0, 60)}`);
    }
    expect(fiveHundreds).toEqual([]);
    expect(internal).toEqual([]);
    // Bad params are the caller's mistake, said in a sentence (not a schema library's dump).
    const nullArguments = await send(`${service.urls.audit}/mcp`, JSON.stringify(messages[0]), headers, 'null arguments');
    expect(nullArguments.json).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringMatching(/^Invalid params for tools\/call: params\.arguments: .+\.$/) } });
    expect((nullArguments.json as { error: { message: string } }).error.message).not.toMatch(/[[{]/);
  }, 300000);
});
