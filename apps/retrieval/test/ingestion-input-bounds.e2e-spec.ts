import { randomBytes } from 'node:crypto';
import { generateApiKey } from '@svc/identity-core';
import { Json, post, RunningService, startService } from '@svc/test-kit';

/** The documented limits of document ingestion (`INGESTION_LIMITS`): 10 MiB per file, 15 MiB per request. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_REQUEST_BYTES = 15 * 1024 * 1024;

/**
 * Issue 28: uploads at the documented limits, null contents, and names, queries and links holding
 * what a terminal, a log or a page would read as something else (ADR 0044). Every refusal is a 400
 * naming the field; the service logs no error for any of them.
 */
describe('ingestion and text input bounds (embedded)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let headers: Record<string, string>;

  const api = (path: string, body: unknown) => post(`${service.urls.retrieval}${path}`, body, undefined, headers);
  const raw = async (path: string, body: string) => {
    const res = await fetch(`${service.urls.retrieval}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const refusedField = (res: { status: number; body: Json }) => ({ status: res.status, field: res.body?.errors?.[0]?.field });

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, LOG_LEVEL: 'warn' });
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Bounds' }, adminKey)).body.response.instance_id;
    const instanceKey = (await post(`${service.urls.audit}/audit/instance/get-svc-instances`, { instance_id: instanceId }, adminKey)).body.response[0].api_key;
    headers = { 'instance-id': instanceId, 'api-key': instanceKey };
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('takes a 10 MiB file as base64 and refuses hostile base64 of that size with 400 naming content_base64', async () => {
    const valid = randomBytes(MAX_FILE_BYTES).toString('base64');
    const accepted = await api('/api/documents/upsert', { external_id: 'big.pdf', name: 'big.pdf', content_base64: valid });
    expect([accepted.status, accepted.body.response?.size_bytes]).toEqual([200, MAX_FILE_BYTES]);
    const half = valid.length / 2;
    const variants: Record<string, string> = {
      'a long valid prefix, then an invalid character': `${valid.slice(0, -4)}AA!A`,
      'line breaks every 76 characters (MIME)': valid.replace(/(.{76})/g, '$1\n').slice(0, valid.length),
      'CRLF line breaks': valid.replace(/(.{76})/g, '$1\r\n'),
      'spaces mixed in': valid.replace(/(.{1000})/g, '$1 '),
      "'=' in the middle": `${valid.slice(0, half)}==${valid.slice(half + 2)}`,
      'the URL-safe alphabet': valid.replace(/\+/g, '-').replace(/\//g, '_'),
      'a non-ASCII character at the end': `${valid.slice(0, -1)}é`,
    };
    for (const [variant, content] of Object.entries(variants)) {
      const res = await api('/api/documents/upsert', { external_id: 'hostile.pdf', name: 'hostile.pdf', content_base64: content });
      expect({ variant, ...refusedField(res) }).toEqual({ variant, status: 400, field: 'content_base64' });
    }
  }, 120000);

  it('reads a request of exactly 15 MiB and answers one byte more with 413 before reading it', async () => {
    const body = (bytes: number) => {
      const head = '{"external_id":"limit.pdf","name":"limit.pdf","content_base64":"';
      const room = bytes - head.length - 2;
      const base64 = 'A'.repeat(room - (room % 4));
      return `${head}${base64}"${' '.repeat(room % 4)}}`;
    };
    expect(Buffer.byteLength(body(MAX_REQUEST_BYTES))).toBe(MAX_REQUEST_BYTES);
    const atLimit = await raw('/api/documents/upsert', body(MAX_REQUEST_BYTES));
    // Read and validated: its content decodes to more than 10 MiB, which the use case refuses.
    expect([atLimit.status, atLimit.body.code]).toEqual([413, 'REPOSITORY.FILE_TOO_LARGE']);
    const over = await raw('/api/documents/upsert', body(MAX_REQUEST_BYTES + 1));
    expect([over.status, over.body.code]).toEqual([413, 'REQUEST.TOO_LARGE']);
  }, 60000);

  it('answers content_base64: null and content_text: null with 400 naming the field', async () => {
    expect(refusedField(await api('/api/documents/upsert', { external_id: 'n.pdf', name: 'n.pdf', content_base64: null }))).toEqual({ status: 400, field: 'content_base64' });
    expect(refusedField(await api('/api/documents/upsert', { external_id: 'n.md', name: 'n.md', content_text: null }))).toEqual({ status: 400, field: 'content_text' });
    expect(refusedField(await api('/api/documents/upsert', { external_id: 'n.md', name: 'n.md', content_text: 'x', content_base64: null }))).toEqual({ status: 400, field: 'content_base64' });
  });

  it('refuses control characters, ANSI escapes and bidi overrides in names and queries with 400 naming the field', async () => {
    const document = (fields: Json) => api('/api/documents/upsert', { external_id: 'doc.md', name: 'doc.md', content_text: 'Refunds take 30 days.', ...fields });
    expect(refusedField(await document({ name: 'report\u001b[31m.md' }))).toEqual({ status: 400, field: 'name' });
    expect(refusedField(await document({ name: 'gpj.\u202eexe.md' }))).toEqual({ status: 400, field: 'name' });
    expect(refusedField(await document({ external_id: 'a\nb' }))).toEqual({ status: 400, field: 'external_id' });
    expect(refusedField(await document({ owner: 'ops\u0007' }))).toEqual({ status: 400, field: 'owner' });
    expect(refusedField(await post(`${service.urls.audit}/audit/instance/create`, { name: 'Hand\u202ebook' }, adminKey))).toEqual({ status: 400, field: 'name' });
    expect(refusedField(await post(`${service.urls.retrieval}/retrieval/instances/api-keys/create`, { instance_id: instanceId, name: 'key\u009b' }, adminKey))).toEqual({ status: 400, field: 'name' });
    expect(refusedField(await api('/api/search/query', { query: 'refunds \u001b[2J', user: 'alice' }))).toEqual({ status: 400, field: 'query' });
    expect(refusedField(await api('/api/search/query', { query: 'refunds', user: 'al\u202eice' }))).toEqual({ status: 400, field: 'user' });
    expect(refusedField(await post(`${service.urls.retrieval}/retrieval/semantic-nodes/search`, { query: 'refunds\u2066', instance_id: instanceId }, adminKey))).toEqual({ status: 400, field: 'query' });
    const named = await api('/api/documents/upsert', { external_id: 'doc.md', name: 'Remboursements – été 2026 😀.md', content_text: 'Refunds take 30 days.' });
    expect(named.status).toBe(200);
    const multiLine = await post(`${service.urls.retrieval}/retrieval/semantic-nodes/search`, { query: 'How long\ndo refunds take?', instance_id: instanceId }, adminKey);
    expect(multiLine.status).toBe(200);
    const message = (await document({ name: 'x\u001b.md' })).body.errors[0].message;
    expect(message).toBe('name must not contain control characters or bidirectional overrides (it holds U+001B, a control character)');
  });

  it('stores a document link in its serialised, percent-encoded form', async () => {
    const res = await api('/api/documents/upsert', { external_id: 'link.md', name: 'link.md', content_text: 'Link', url: 'https://Intranet.example/wiki/"quoted"<b>?q="x"<y>#<top>' });
    expect(res.status).toBe(200);
    const stored = 'https://intranet.example/wiki/%22quoted%22%3Cb%3E?q=%22x%22%3Cy%3E#%3Ctop%3E';
    expect(res.body.response.url).toBe(stored);
    expect((await api('/api/documents/get', { document_id: res.body.response.id })).body.response.url).toBe(stored);
  });

  it('logged no error for any of the refusals above', () => {
    expect(service.output().split('\n').filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
