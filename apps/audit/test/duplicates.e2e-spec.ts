import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateApiKey } from '@svc/identity-core';
import { Client as PgClient } from 'pg';
import { BOTH_MODES, Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

const TRAVEL = [
  '# Travel policy',
  '',
  'Employees book business travel through the travel desk at least ten working days before departure.',
  'Train travel is the default for journeys under four hours; flights need the approval of the budget holder.',
  'Economy class is used for flights under six hours, and premium economy may be booked for longer flights.',
  'Hotels are booked through the travel desk and must be within walking distance of the meeting venue when possible.',
  'Meals during travel are reimbursed against receipts, up to the daily allowance of the destination country.',
  'Taxis may be used late in the evening or when no public transport serves the destination.',
  'Mileage for private cars is reimbursed at the rate published by the finance team each January.',
  'Travel insurance is provided by the company and covers medical costs, cancellations and lost luggage.',
  'Expense reports are submitted within thirty days of the return, with every receipt attached.',
].join('\n');
// The older copy: one sentence differs.
const TRAVEL_OLD = TRAVEL.replace('at least ten working days before departure', 'at least five working days before departure');

const tent = (name: string, weight: string, fabric: string, price: string, persons: string, poles: string) =>
  `# ${name} tent: product sheet\n\n${name} is a ${persons} tent for backpacking.\n\n| Property | Value |\n| --- | --- |\n| Packed weight | ${weight} |\n| Flysheet | ${fabric} |\n| Poles | ${poles} |\n\nRecommended retail price: ${price}, including VAT.`;

/**
 * Duplicates over HTTP: documents arriving in RUNNING_PHASE are checked one by one (exact copies
 * whatever their markup, near copies with their similarity, look-alikes left out), rerunning the
 * step machine's identification keeps the clusters, set-managed queues a verification that reads the
 * repository again, every refusal, owner visibility, and the operations are not MCP tools (spec).
 * Distributed mode: PostgreSQL, Redis/BullMQ and the HTTP repository client.
 */
describe.each(BOTH_MODES)('duplicates (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let instanceKey: string;
  const people: Record<'steward' | 'consumer' | 'billing' | 'outsider', { id: string; key: string }> = {} as never;
  const docs: Record<string, string> = {};

  const audit = (path: string, body: unknown, credential = adminKey) => post(`${service.urls.audit}${path}`, body, credential);
  const repositoryApi = (path: string, body: unknown) => post(`${service.urls.retrieval}${path}`, body, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
  const ingest = async (name: string, content_text: string): Promise<string> => {
    const res = await repositoryApi('/api/documents/upsert', { external_id: name, name, url: `https://intranet.example/${name}`, content_text });
    expect(res.status).toBe(200);
    return res.body.response.id;
  };
  const list = async (key = adminKey) => (await audit('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId, limit: 100 }, key)).body.response as { items: Json[]; total: number };
  const members = (c: Json) => c.documents.map((d: Json) => d.document_id).sort();
  const clusterOf = (...ids: string[]) => waitFor(async () => (await list()).items.find((c) => JSON.stringify(members(c)) === JSON.stringify([...ids].sort())), 90000, `a cluster of ${ids.join(', ')}`);
  const clusterState = (id: string, test: (c: Json) => boolean, what: string) =>
    waitFor(async () => {
      const c = (await list()).items.find((x) => x.id === id);
      return c && test(c) ? c : undefined;
    }, 90000, `cluster ${id} ${what}`);
  const step = async () => (await audit('/audit/instance/get-instance', { instance_id: instanceId })).body.response.step as string;

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, ...(mode === 'distributed' ? { REPOSITORY_CLIENT: 'http' } : {}) });
    const token = (await post(`${service.urls.auth}/core/api-key/token`, { api_key: adminKey })).body.response.access_token;
    for (const [name, role] of Object.entries({ steward: 'STEWARD', consumer: 'CONSUMER', billing: 'BILLING', outsider: 'STEWARD' })) {
      const member = await post(`${service.urls.auth}/core/organization/members/create`, { email: `${name}@example.com`, name, roles: [role] }, token);
      const key = await post(`${service.urls.auth}/core/organization/api-keys/create`, { name, roles: [role], user_id: member.body.response.id }, token);
      people[name as keyof typeof people] = { id: member.body.response.id, key: key.body.response.api_key };
    }
    instanceId = (await audit('/audit/instance/create', { name: 'Duplicates' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    for (const who of ['steward', 'consumer', 'billing'] as const) await audit('/audit/user/add-user-to-instance', { instance_id: instanceId, user_id: people[who].id });
    await waitFor(async () => ((await step()) === 'RUNNING_PHASE' ? true : undefined), 30000, 'RUNNING_PHASE');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('documents arriving in RUNNING_PHASE are checked one by one: an exact copy (other markup and spacing) and a near copy are clustered, a look-alike and an unrelated document are not', async () => {
    docs.remote = await ingest('remote-work.md', '# Remote work\n\nEmployees may work remotely up to three days per week, in agreement with their manager.\nEquipment for the home office is provided by IT.');
    docs.remoteCopy = await ingest('remote-work-copy.md', '## Remote   work\n\n*Employees* may work remotely up to three days per week, in agreement with their manager.\n\nEquipment for the home office is provided by **IT**.');
    docs.travel = await ingest('travel-policy.md', TRAVEL);
    docs.travelOld = await ingest('travel-policy-2022.md', TRAVEL_OLD);
    docs.tentA = await ingest('trailhead-2.md', tent('Trailhead 2', '2.1 kg', '20D ripstop nylon', '349 EUR', 'two-person', 'aluminium DAC'));
    docs.tentB = await ingest('basecamp-4.md', tent('Basecamp 4', '6.8 kg', '75D polyester taffeta', '599 EUR', 'four-person', 'steel and fibreglass'));
    docs.canteen = await ingest('canteen.md', '# Canteen\n\nThe canteen opens at noon and serves soup on Mondays.');

    const exact = await clusterOf(docs.remote, docs.remoteCopy);
    expect(exact).toMatchObject({ id: expect.stringMatching(/^dup_/), instance_id: instanceId, state: 'DETECTED', exact: true, similarity: 1, canonical_hash: expect.stringMatching(/^[0-9a-f]{64}$/), managed_at: null, last_verification_at: null });
    expect(exact.documents).toEqual(
      expect.arrayContaining([{ document_id: docs.remoteCopy, document_name: 'remote-work-copy.md', document_url: 'https://intranet.example/remote-work-copy.md' }]),
    );
    const near = await clusterOf(docs.travel, docs.travelOld);
    expect(near).toMatchObject({ state: 'DETECTED', exact: false });
    expect(near.similarity).toBeGreaterThanOrEqual(0.7);
    expect(near.similarity).toBeLessThan(1);
    // Every change has been checked once the look-alike pair and the canteen are indexed: still exactly two clusters.
    await waitFor(async () => ((await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' })).body.response === 7 ? true : undefined), 60000, 'all indexed');
    const all = await list(people.consumer.key);
    expect(all.total).toBe(2);
    expect(all.items.flatMap(members)).not.toEqual(expect.arrayContaining([docs.tentA]));
    expect(all.items.flatMap(members)).not.toEqual(expect.arrayContaining([docs.canteen]));
  }, 150000);

  it('audit_instance_update_step back to LAUNCH_DUPLICATE_IDENTIFICATION reruns the identification over the whole repository: back in RUNNING_PHASE with the same clusters, same ids', async () => {
    const before = (await list()).items.map((c) => ({ id: c.id, members: members(c), state: c.state })).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect((await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'LAUNCH_DUPLICATE_IDENTIFICATION' })).status).toBe(200);
    await waitFor(async () => ((await step()) === 'RUNNING_PHASE' ? true : undefined), 60000, 'RUNNING_PHASE again');
    const after = (await list()).items.map((c) => ({ id: c.id, members: members(c), state: c.state })).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(after).toEqual(before);
    if (mode === 'distributed') {
      const pg = new PgClient({ connectionString: service.env.DATABASE_URL });
      await pg.connect();
      try {
        const run = (await pg.query(`SELECT state, documents, clusters FROM duplicates.identification_runs WHERE instance_id = $1`, [instanceId])).rows[0];
        expect(run).toEqual({ state: 'COMPLETED', documents: 7, clusters: 2 });
        const steps = (await pg.query(`SELECT after FROM activity.entries WHERE subject_id = $1 AND action = 'workspace.step_advanced' ORDER BY occurred_at, id`, [instanceId])).rows.map((r: Json) => r.after.step);
        expect(steps.slice(-3)).toEqual(['ON_DUPLICATE_IDENTIFICATION', 'DUPLICATE_IDENTIFICATION_DONE', 'RUNNING_PHASE']);
      } finally {
        await pg.end();
      }
    }
  }, 120000);

  it('audit_duplicate_set_managed queues a verification: copies still there put the cluster back to DETECTED with last_verification_at; once one copy is deleted the cluster is RESOLVED', async () => {
    const exact = await clusterOf(docs.remote, docs.remoteCopy);
    const res = await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: exact.id }, people.steward.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ response: true });
    const verified = await clusterState(exact.id, (c) => c.last_verification_at !== null, 'verified');
    expect(verified).toMatchObject({ state: 'DETECTED', managed_at: expect.any(String) });

    expect((await repositoryApi('/api/documents/delete', { document_id: docs.remoteCopy })).status).toBe(200);
    const resolved = await clusterState(exact.id, (c) => c.state === 'RESOLVED', 'RESOLVED');
    expect(resolved.last_verification_at).toEqual(expect.any(String));
    // Set-managed is allowed from any state; its verification finds one copy left.
    expect((await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: exact.id })).status).toBe(200);
    await clusterState(exact.id, (c) => c.state === 'RESOLVED' && c.last_verification_at > resolved.last_verification_at, 'verified again');
  }, 150000);

  it('a near copy rewritten so that it is no longer a duplicate resolves its cluster; copied again, the same cluster is reopened', async () => {
    const near = await clusterOf(docs.travel, docs.travelOld);
    await ingest('travel-policy-2022.md', '# Travel policy 2022\n\nThis policy was withdrawn; see the current travel policy.');
    await clusterState(near.id, (c) => c.state === 'RESOLVED', 'RESOLVED');
    await ingest('travel-policy-2022.md', TRAVEL_OLD);
    const reopened = await clusterState(near.id, (c) => c.state === 'DETECTED', 'DETECTED again');
    expect(members(reopened)).toEqual([docs.travel, docs.travelOld].sort());
    expect((await list()).items.filter((c) => c.state !== 'RESOLVED')).toHaveLength(1);
  }, 150000);

  // Refusals of the HTTP layer (validation, guards, envelopes), the same code in either mode: embedded only (the rule
  // at BOTH_MODES in @svc/test-kit).
  if (mode === 'embedded') {
    it('refuses: 400 for a wrong prefix, a missing or unknown field; 404 for an unknown cluster; 401; 403 by role and for non-members', async () => {
      const near = await clusterOf(docs.travel, docs.travelOld);
      const wrong = await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: `fc_${UNKNOWN}` });
      expect(wrong.status).toBe(400);
      expect(wrong.body.detail).toMatch(/cluster_id/);
      expect((await audit('/audit/duplicate/set-managed', { instance_id: instanceId })).status).toBe(400);
      expect((await audit('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId, bogus: 1 })).status).toBe(400);
      expect((await audit('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId, limit: 0 })).status).toBe(400);
      const unknown = await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: `dup_${UNKNOWN}` });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('DUPLICATES.NOT_FOUND');
      expect((await post(`${service.urls.audit}/audit/duplicate/list-duplicates-for-instance`, { instance_id: instanceId })).status).toBe(401);
      expect((await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: near.id }, people.consumer.key)).status).toBe(403);
      expect((await audit('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId }, people.billing.key)).status).toBe(403);
      const outsider = await audit('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId }, people.outsider.key);
      expect(outsider.status).toBe(403);
      expect(outsider.body.code).toBe('WORKSPACE.NOT_A_MEMBER');
      expect((await list()).items.find((c) => c.id === near.id)?.state).toBe('DETECTED');
    });
  }

  it('owner flag on: a member sees only the clusters holding a document they own (with every copy), and set-managed answers 404 on the others', async () => {
    const near = await clusterOf(docs.travel, docs.travelOld);
    const setOwner = (documentId: string, owner: string | null) => audit('/audit/document/set-owner', { instance_id: instanceId, document_id: documentId, owner_user_id: owner });
    await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: true });
    try {
      expect((await list(people.steward.key)).total).toBe(0);
      expect((await audit('/audit/duplicate/set-managed', { instance_id: instanceId, cluster_id: near.id }, people.steward.key)).status).toBe(404);
      expect((await setOwner(docs.travelOld, people.steward.id)).status).toBe(200);
      const seen = await list(people.steward.key);
      expect(seen.items.map((c) => c.id)).toEqual([near.id]);
      expect(members(seen.items[0])).toEqual([docs.travel, docs.travelOld].sort());
      expect((await list()).total).toBeGreaterThanOrEqual(2);
    } finally {
      await setOwner(docs.travelOld, null);
      await audit('/audit/instance/update-configuration', { instance_id: instanceId, need_detect_owner_document_feature: false });
    }
  });

  it('one document ingested as Markdown and as the HTML page that publishes it (title without head, navigation, entities, typographic punctuation) is an exact copy', async () => {
    const markdown = [
      '# Parental leave',
      '',
      'Parents may take up to **sixteen weeks** of paid leave after a birth or an adoption -- see [the HR portal](https://hr.example/leave) for the form.',
      '',
      '## Who is eligible',
      '',
      "- Employees with at least six months' service.",
      '- Apprentices, after their trial period:',
      '  1. ask your manager;',
      '  2. send the form to HR.',
      '',
      '| Leave | Paid weeks |',
      '| --- | ---: |',
      '| Birth parent | 16 |',
      '| Second parent | 4 |',
      '',
      '> The "keep in touch" days do not end the leave.',
    ].join('\n');
    const html = `<!DOCTYPE html>
<title>Parental leave</title>
<link rel="stylesheet" href="/site.css">
<nav><a href="/">Intranet</a> &rsaquo; <a href="/hr">HR</a></nav>
<h1>Parental leave</h1>
<p>Parents may take up to <strong>sixteen weeks</strong> of paid leave after a birth or an adoption &ndash; see <a href="https://hr.example/leave">the HR portal</a> for the form.</p>
<h2>Who is eligible</h2>
<ul>
  <li>Employees with at least six months&rsquo; service.</li>
  <li>Apprentices, after their trial period:
    <ol><li>ask your manager;</li><li>send the form to HR.</li></ol>
  </li>
</ul>
<table>
  <thead><tr><th>Leave</th><th style="text-align: right">Paid weeks</th></tr></thead>
  <tbody><tr><td>Birth parent</td><td>16</td></tr><tr><td>Second parent</td><td>4</td></tr></tbody>
</table>
<blockquote><p>The &ldquo;keep in touch&rdquo; days do not end the leave.</p></blockquote>
<footer>&copy; 2025 Example Outdoor</footer>`;
    docs.leaveMarkdown = await ingest('parental-leave.md', markdown);
    docs.leaveHtml = await ingest('parental-leave.html', html);
    const cluster = await clusterOf(docs.leaveMarkdown, docs.leaveHtml);
    expect(cluster).toMatchObject({ state: 'DETECTED', exact: true, similarity: 1 });
  }, 150000);

  // The MCP catalogue is the same in either mode: embedded only (the rule at BOTH_MODES in @svc/test-kit).
  if (mode === 'embedded') {
    it('the duplicate operations are REST only: the audit MCP server does not list them (spec part 4)', async () => {
      const client = new Client({ name: 'duplicates-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${service.urls.audit}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${adminKey}` } } }));
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toContain('audit_full_audit_conflict_list');
        expect(names.filter((n) => n.startsWith('audit_duplicate'))).toEqual([]);
      } finally {
        await client.close();
      }
    });
  }
});
