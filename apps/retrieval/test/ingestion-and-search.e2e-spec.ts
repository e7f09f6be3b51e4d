import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, buildDocx, buildPdf, Json, post, RunningService, startService } from '@svc/test-kit';

/**
 * Documents in through the instance API, indexed by the workers, found again by hybrid search. Both modes (BOTH_MODES):
 * indexing jobs (in-process or BullMQ, one at a time or concurrently), the vector store (exact scan on PGlite, pgvector
 * on PostgreSQL when installed) and the apps' start (value models loaded before requests, per process).
 */
describe.each(BOTH_MODES)('ingestion and semantic search (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let instanceKey: string;

  const api = (path: string, body: unknown, headers: Record<string, string> = { 'instance-id': instanceId, 'api-key': instanceKey }) =>
    post(`${service.urls.retrieval}${path}`, body, undefined, headers);
  const search = (query: string, credential = adminKey) => post(`${service.urls.retrieval}/retrieval/semantic-nodes/search`, { query, instance_id: instanceId }, credential);

  async function settled(): Promise<Json[]> {
    for (const deadline = Date.now() + 60000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      const list = await api('/api/documents/list', { limit: 100 });
      const items: Json[] = list.body.response.items;
      if (items.every((d) => !['PENDING', 'PARSING'].includes(d.state))) return items;
    }
    throw new Error('documents still pending after 60 s');
  }

  beforeAll(async () => {
    // Info: the start's "value models loaded" line is asserted below.
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, INGESTION_MAX_INSTANCE_BYTES: '300000', LOG_LEVEL: 'info', TEXT_PRELOAD_LANGUAGES: 'en' });
    // The value models were built before the apps took requests (the retrieval and workers processes, or the standalone).
    expect(service.output()).toMatch(/"milliseconds":\{"en":\d+\}.*"msg":"value models loaded"/u);
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Handbook' }, adminKey)).body.response.instance_id;
    instanceKey = (await post(`${service.urls.audit}/audit/instance/get-svc-instances`, { instance_id: instanceId }, adminKey)).body.response[0].api_key;
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('ingests Markdown, HTML and text, and marks a broken PDF PARSING_ERROR without stopping the others', async () => {
    const refunds = await api('/api/documents/upsert', {
      external_id: 'policies/refunds.md',
      name: 'refunds.md',
      url: 'https://intranet.example/refunds',
      owner: 'finance',
      extraproperties: { team: 'billing' },
      content_text: '# Refund policy\n\n## Deadlines\n\nRefunds are processed within 30 days of the request.\n\n- Card payments are refunded to the card.\n- Transfers are refunded by transfer.\n',
    });
    expect(refunds.status).toBe(200);
    expect(refunds.body.response).toMatchObject({ external_id: 'policies/refunds.md', state: 'PENDING', media_type: 'text/markdown', reindexing: true, extraproperties: { team: 'billing' } });
    expect(refunds.body.response.id).toMatch(/^kd_/);
    expect((await api('/api/documents/upsert', { external_id: 'cafeteria.html', name: 'cafeteria.html', content_text: '<html><head><title>Cafeteria</title></head><body><h1>Cafeteria</h1><p>The cafeteria opens at noon and closes at 3 pm.</p><script>alert(1)</script></body></html>' })).status).toBe(200);
    expect((await api('/api/documents/upsert', { external_id: 'notes.txt', name: 'notes.txt', content_text: 'Parking is free for employees.\n\nVisitors pay at the gate.' })).status).toBe(200);
    expect((await api('/api/documents/upsert', { external_id: 'broken.pdf', name: 'broken.pdf', content_base64: Buffer.from('%PDF-1.4 this is not really a pdf').toString('base64') })).status).toBe(200);
    const pdf = buildPdf([['Warranty terms', 'Tents are covered for two years against manufacturing defects.']], { title: 'Warranty' });
    expect((await api('/api/documents/upsert', { external_id: 'warranty.pdf', name: 'warranty.pdf', content_base64: pdf.toString('base64') })).status).toBe(200);
    const docx = await buildDocx();
    expect((await api('/api/documents/upsert', { external_id: 'handbook.docx', name: 'handbook.docx', content_base64: docx.toString('base64') })).status).toBe(200);
    expect((await api('/api/documents/upsert', { external_id: 'broken.docx', name: 'broken.docx', content_base64: Buffer.from('PK not a zip at all').toString('base64') })).status).toBe(200);

    const documents = await settled();
    const progress = await api('/api/documents/progress', {});
    expect(progress.body.response).toMatchObject({ instance_id: instanceId, total: 7, percent_done: 100, done: true, by_state: { INDEXED: 5, PARSING_ERROR: 2 } });
    const viaBearer = await post(`${service.urls.retrieval}/retrieval/instances/indexation-progress`, { instance_id: instanceId }, adminKey);
    expect(viaBearer.body.response.done).toBe(true);
    const state = (id: string) => documents.find((d) => d.external_id === id);
    expect(state('policies/refunds.md')).toMatchObject({ state: 'INDEXED', failure_reason: null });
    expect(state('cafeteria.html')).toMatchObject({ state: 'INDEXED' });
    expect(state('notes.txt')).toMatchObject({ state: 'INDEXED' });
    expect(state('broken.pdf')).toMatchObject({ state: 'PARSING_ERROR', failure_reason: expect.any(String) });
    expect(state('warranty.pdf')).toMatchObject({ state: 'INDEXED', media_type: 'application/pdf' });
    expect(state('handbook.docx')).toMatchObject({ state: 'INDEXED' });
    expect(state('broken.docx')).toMatchObject({ state: 'PARSING_ERROR', failure_reason: expect.any(String) });
    // PDF and DOCX text is searchable like any other.
    expect((await search('tent warranty manufacturing defects')).body.response.documents_contents[0].document_name).toBe('warranty.pdf');
    expect((await search('what to keep for a refund receipt')).body.response.documents_contents.map((d: Json) => d.document_name)).toContain('handbook.docx');
  });

  it('finds the answering excerpt first with hybrid search, grouped by document', async () => {
    const res = await search('how long do refunds take?');
    expect(res.status).toBe(200);
    const first = res.body.response.semantic_nodes[0];
    expect(first).toMatchObject({ id: expect.stringMatching(/^kn_/), document_id: expect.stringMatching(/^kd_/), position: expect.any(Number), score: expect.any(Number) });
    expect(first.text).toContain('30 days');
    // refunds.md and the DOCX handbook both say 30 days.
    expect(res.body.response.documents_contents.find((d: Json) => d.document_name === 'refunds.md')).toMatchObject({ document_url: 'https://intranet.example/refunds', excerpts: expect.arrayContaining([expect.stringContaining('30 days')]) });
    const cafeteria = await search('when does the cafeteria open');
    expect(cafeteria.body.response.semantic_nodes[0].text).toContain('noon');
    expect(cafeteria.body.response.semantic_nodes.map((n: Json) => n.text).join(' ')).not.toContain('alert(1)');
  });

  it('does not re-index unchanged content, and replaces changed content under the same external id', async () => {
    const listBefore = await api('/api/documents/list', {});
    const same = await api('/api/documents/upsert', { external_id: 'notes.txt', name: 'notes.txt', content_text: 'Parking is free for employees.\n\nVisitors pay at the gate.' });
    expect(same.body.response).toMatchObject({ reindexing: false, state: 'INDEXED' });
    const changed = await api('/api/documents/upsert', { external_id: 'notes.txt', name: 'notes.txt', content_text: 'Parking costs 5 euros a day for employees.' });
    expect(changed.body.response).toMatchObject({ reindexing: true, state: 'PENDING', id: same.body.response.id });
    await settled();
    expect((await api('/api/documents/list', {})).body.response.total).toBe(listBefore.body.response.total);
    const parking = await search('parking price for employees');
    expect(parking.body.response.semantic_nodes[0].text).toContain('5 euros');
  });

  it('re-indexes one document or the whole instance on request, a broken file failing again with its reason', async () => {
    const before = await settled();
    const refunds = before.find((d) => d.external_id === 'policies/refunds.md');
    const one = await api('/api/documents/reindex', { document_id: refunds.id });
    expect(one.body).toEqual({ response: { queued: 1 } });
    expect((await api('/api/documents/get', { document_id: refunds.id })).body.response.state).toMatch(/^(PENDING|PARSING|INDEXED)$/);
    const all = await api('/api/documents/reindex', {});
    expect(all.body).toEqual({ response: { queued: before.length } });
    const after = await settled();
    expect(Object.fromEntries(after.map((d) => [d.external_id, d.state]))).toEqual(Object.fromEntries(before.map((d) => [d.external_id, d.state])));
    expect(after.find((d) => d.external_id === 'broken.pdf')).toMatchObject({ state: 'PARSING_ERROR', failure_reason: expect.any(String) });
    expect((await search('how long do refunds take?')).body.response.semantic_nodes[0].text).toContain('30 days');
    expect((await api('/api/documents/reindex', { document_id: 'kd_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status).toBe(404);
  });

  it('answers questions on the instance API from the repository, logs every search and counts them', async () => {
    const firstDay = new Date().toISOString().slice(0, 10);
    const answered = await api('/api/search/query', { query: 'How long do refunds take?', user: 'alice' });
    expect(answered.status).toBe(200);
    expect(answered.body.response).toMatchObject({ query: 'How long do refunds take?', got_answer: true, answer: expect.stringContaining('30 days'), reason: expect.any(String) });
    expect(answered.body.response.confident_rate).toBeGreaterThanOrEqual(0.5);
    expect(answered.body.response.documents).toEqual(expect.arrayContaining([{ id: expect.stringMatching(/^kd_/), name: 'refunds.md', url: 'https://intranet.example/refunds' }]));
    const unanswered = await api('/api/search/query', { query: 'Who won the football world cup in 1954?', user: 'bob' });
    expect(unanswered.body.response).toMatchObject({ got_answer: false, answer: '', confident_rate: 0, documents: [] });

    expect((await api('/api/search/stats/count-search', {})).body).toEqual({ response: 2 });
    // The spec's count endpoints take no body: a bare POST works too.
    const bare = await fetch(`${service.urls.retrieval}/api/search/stats/count-answered-search`, { method: 'POST', headers: { 'instance-id': instanceId, 'api-key': instanceKey } });
    expect([bare.status, await bare.json()]).toEqual([200, { response: 1 }]);
    expect((await api('/api/search/stats/count-answered-search', {})).body).toEqual({ response: 1 });
    // From the day the first search was made to today (the same day, unless the test runs over midnight UTC).
    const today = new Date().toISOString().slice(0, 10);
    expect((await api('/api/search/stats/count-search-by-date', { begin_date: firstDay, end_date: today })).body).toEqual({ response: 2 });
    expect((await api('/api/search/stats/count-answered-search-by-date', { begin_date: firstDay, end_date: today })).body).toEqual({ response: 1 });
    expect((await api('/api/search/stats/count-search-by-date', { begin_date: '2001-01-01', end_date: '2001-01-31' })).body).toEqual({ response: 0 });
    expect((await api('/api/search/stats/count-search-by-date', { begin_date: 'soon', end_date: today })).status).toBe(400);
    const logged = await api('/api/search/stats/list-search', { offset: 0, limit: 10 });
    expect(logged.body.response).toEqual([
      { id: expect.stringMatching(/^sl_/), answer_text: expect.stringContaining('30 days'), query: 'How long do refunds take?', user_id: 'alice', date: expect.any(String) },
      { id: expect.stringMatching(/^sl_/), answer_text: '', query: 'Who won the football world cup in 1954?', user_id: 'bob', date: expect.any(String) },
    ]);
    expect((await api('/api/search/query', { query: 'x', user: 'alice' }, {})).status).toBe(401);
  });

  it('serves the retrieval tools on its /mcp endpoint (official SDK client)', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.retrieval}/mcp`), { requestInit: { headers: { authorization: `Bearer ${adminKey}` } } }));
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['retrieval_documents_get', 'retrieval_documents_get_by_ids', 'retrieval_documents_list', 'retrieval_instances_list', 'retrieval_semantic_nodes_search']);
    const instances = await client.callTool({ name: 'retrieval_instances_list', arguments: {} });
    expect((instances.structuredContent as Json).response.items.map((i: Json) => i.instance_id)).toContain(instanceId);
    const result = await client.callTool({ name: 'retrieval_semantic_nodes_search', arguments: { query: 'refund deadline', instance_id: instanceId } });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as Json;
    expect(body.response.semantic_nodes[0].text).toContain('30 days');
    const refused = await client.callTool({ name: 'retrieval_documents_list', arguments: { instance_id: 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV' } });
    expect(refused.isError).toBe(true);
    await client.close();
  });

  it('removes a deleted document from search at once', async () => {
    const cafeteria = (await api('/api/documents/list', {})).body.response.items.find((d: Json) => d.external_id === 'cafeteria.html');
    expect((await api('/api/documents/delete', { document_id: cafeteria.id })).body).toEqual({ response: true });
    const res = await search('when does the cafeteria open');
    expect(res.body.response.semantic_nodes.map((n: Json) => n.document_id)).not.toContain(cafeteria.id);
    expect((await api('/api/documents/get', { document_id: cafeteria.id })).body.response.state).toBe('DELETED');
  });

  it('refuses bad input and bad credentials', async () => {
    expect((await api('/api/documents/upsert', { external_id: 'x', name: 'slides.pptx', content_text: 'x' })).status).toBe(400);
    expect((await api('/api/documents/upsert', { external_id: 'x', name: 'x.md' })).status).toBe(400);
    // A link is followed by people and assistants: http: and https: only (javascript: would be stored and returned as web_url).
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', 'https://', 'http://a b/']) {
      const res = await api('/api/documents/upsert', { external_id: 'link', name: 'link.md', content_text: 'x', url });
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({ url, status: 400, errors: [expect.objectContaining({ field: 'url' })] });
    }
    expect((await api('/api/documents/upsert', { external_id: 'link', name: 'link.md', content_text: 'Link', url: 'http://intranet:8080/wiki/Link?x=1#top' })).status).toBe(200);
    const tooBig = await api('/api/documents/upsert', { external_id: 'big', name: 'big.txt', content_base64: Buffer.alloc(10 * 1024 * 1024 + 1, 97).toString('base64') });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('REPOSITORY.FILE_TOO_LARGE');
    // The instance's total: this instance may hold 300,000 bytes of documents here.
    const filler = 'Lorem ipsum dolor sit amet. '.repeat(6000);
    expect((await api('/api/documents/upsert', { external_id: 'filler-1.txt', name: 'filler-1.txt', content_text: filler })).status).toBe(200);
    const over = await api('/api/documents/upsert', { external_id: 'filler-2.txt', name: 'filler-2.txt', content_text: filler });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe('REPOSITORY.INSTANCE_QUOTA_EXCEEDED');
    // Replacing a document counts its new size instead of adding to the old one.
    expect((await api('/api/documents/upsert', { external_id: 'filler-1.txt', name: 'filler-1.txt', content_text: `${filler} v2` })).status).toBe(200);
    expect((await api('/api/documents/delete', { document_id: (await api('/api/documents/list', {})).body.response.items.find((d: Json) => d.external_id === 'filler-1.txt').id })).status).toBe(200);
    const wrongKey = await api('/api/documents/list', {}, { 'instance-id': instanceId, 'api-key': 'svc_ins_wrong' });
    expect(wrongKey.status).toBe(401);
    // The instance API takes instance-id + api-key, not Bearer tokens: its challenge says so, and no OAuth one points there.
    expect(wrongKey.headers.get('www-authenticate')).toBe('InstanceKey realm="instance API", headers="instance-id api-key"');
    expect((await api('/api/documents/list', {}, {})).status).toBe(401);
    expect((await post(`${service.urls.retrieval}/api/documents/list`, {}, adminKey)).status).toBe(401);
    const otherInstance = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Other' }, adminKey)).body.response.instance_id;
    expect((await api('/api/documents/list', {}, { 'instance-id': otherInstance, 'api-key': instanceKey })).status).toBe(401);
    expect((await search('anything', 'garbage')).status).toBe(401);
    const billing = await post(`${service.urls.auth}/core/organization/api-keys/create`, { name: 'billing', roles: ['BILLING'] }, (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token);
    expect((await search('refunds', billing.body.response.api_key)).status).toBe(403);
  });
});
