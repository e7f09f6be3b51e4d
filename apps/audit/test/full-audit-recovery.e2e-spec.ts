import { generateApiKey } from '@svc/identity-core';
import { Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

/**
 * A full scan survives its worker: the workers process is killed (SIGKILL) while the scan's chunks
 * are being read; after the restart the scan resumes from the chunks not done, completes, and raises
 * each contradiction once. Distributed mode (PostgreSQL, Redis/BullMQ), one worker process; small
 * chunks so the scan is long enough to be caught in the middle.
 */
describe('full audit: a worker killed in the middle of a full scan (distributed)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let instanceKey: string;
  const DOCUMENTS = 120;

  const audit = (path: string, body: unknown) => post(`${service.urls.audit}${path}`, body, adminKey);
  const progress = async () => (await audit('/audit/full-audit/have-to-show', { instance_id: instanceId })).body.response as { show: boolean; scan: Json | null };

  beforeAll(async () => {
    service = await startService('distributed', { BOOTSTRAP_ADMIN_API_KEY: adminKey, FULL_AUDIT_CHUNK_DOCUMENTS: '2', JOBS_LEASE_SECONDS: '5' });
    instanceId = (await audit('/audit/instance/create', { name: 'Recovery' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('the scan completes after the restart, with every chunk read once and no finding doubled', async () => {
    // Documents arrive (each one rescanned incrementally as it is indexed), then the instance is walked
    // through its steps again: reaching RUNNING_PHASE starts a full scan of all of them (the on-demand path).
    const topics = ['canteen', 'library', 'archive', 'garden', 'studio', 'lounge'];
    for (let i = 0; i < DOCUMENTS; i++) {
      const topic = topics[i % topics.length];
      const body = i === 0 ? 'Visitor parking costs 4 EUR per hour.' : i === 1 ? 'Visitor parking costs 6 EUR per hour.' : `The ${topic} number ${i} is on floor ${(i % 5) + 1} of building ${String.fromCharCode(65 + (i % 7))}.`;
      const res = await post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: `doc-${i}.md`, name: `doc-${i}.md`, content_text: `# Note ${i}\n\n${body}` }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
      expect(res.status).toBe(200);
    }
    await waitFor(async () => ((await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' })).body.response === DOCUMENTS ? true : undefined), 120000, 'documents indexed');
    await waitFor(async () => ((await progress()).show ? true : undefined), 60000, 'the first scan');
    expect((await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'INIT' })).status).toBe(200);
    const running = await waitFor(async () => {
      const { scan } = await progress();
      return scan && scan.state === 'RUNNING' && scan.documents === DOCUMENTS && scan.chunks_done >= 1 ? scan : undefined;
    }, 120000, 'the full scan reading its chunks');
    expect(running).toMatchObject({ reason: 'instance', documents: DOCUMENTS, chunks: DOCUMENTS / 2 });
    process.kill(service.pids().workers, 'SIGKILL');
    const stopped = (await progress()).scan!;
    expect(stopped.state).toBe('RUNNING');
    expect(stopped.chunks_done).toBeLessThan(stopped.chunks);
    await service.restart();
    const done = await waitFor(async () => {
      const p = await progress();
      return p.show && p.scan?.state === 'COMPLETED' && p.scan.documents === DOCUMENTS ? p : undefined;
    }, 180000, 'the scan to complete after the restart');
    expect(done.scan).toMatchObject({ state: 'COMPLETED', chunks: DOCUMENTS / 2, chunks_done: DOCUMENTS / 2, findings: 1 });
    const listed = (await audit('/audit/full-audit/list', { instance_id: instanceId, state_in: [] })).body.response;
    expect(listed.total).toBe(1);
    expect(listed.items[0].excerpts.map((e: Json) => e.value).sort()).toEqual(['4 EUR', '6 EUR']);
  }, 420000);
});
