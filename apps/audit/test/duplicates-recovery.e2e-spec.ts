import { generateApiKey } from '@svc/identity-core';
import { Client as PgClient } from 'pg';
import { Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

const PLACES = ['canteen', 'library', 'archive', 'garden', 'studio', 'lounge', 'workshop', 'gym'];
const THINGS = ['printer', 'kettle', 'projector', 'bicycle rack', 'locker', 'plant', 'whiteboard', 'sofa', 'piano', 'aquarium', 'clock'];
const COLOURS = ['red', 'blue', 'green', 'yellow', 'grey', 'white', 'black'];

/** A note of its own: no two generated notes are near-duplicates. */
function note(i: number): string {
  const place = PLACES[i % PLACES.length];
  const thing = THINGS[i % THINGS.length];
  const colour = COLOURS[i % COLOURS.length];
  return `# Note ${i}\n\nThe ${place} of building ${String.fromCharCode(65 + (i % 9))} keeps a ${colour} ${thing} near door ${i}. It is cleaned every ${(i % 6) + 1} days by team ${i * 7}.`;
}

const HANDBOOK = [
  '# Visitor handbook',
  '',
  'Visitors sign in at the reception desk and wear their badge at all times.',
  'A member of staff accompanies visitors outside the meeting rooms on the ground floor.',
  'Photographs are not allowed in the laboratories or in the server room.',
  'In case of fire, visitors follow their host to the assembly point in the north car park.',
  'Lost badges are reported to the reception desk on the same day.',
].join('\n');

const PARKING = [
  '# Parking',
  '',
  'Staff park in the east car park and leave the north car park to visitors and deliveries.',
  'Electric cars charge at the six bays next to the bicycle shelter, for four hours at most.',
  'Parking permits are renewed every January through the facilities portal.',
  'Visitor parking is free for the first two hours.',
].join('\n');

/**
 * Duplicate identification survives its worker: the workers process is killed (SIGKILL) while the
 * whole-repository identification is reading documents (one per step here, so the run is long enough
 * to be caught); after the restart the job runs again, the instance reaches RUNNING_PHASE and the
 * clusters are the same ones, same ids. Distributed mode (PostgreSQL, Redis/BullMQ), one worker process.
 */
describe('duplicates: a worker killed during duplicate identification (distributed)', () => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instanceId: string;
  let instanceKey: string;
  const DOCUMENTS = 150;

  const audit = (path: string, body: unknown) => post(`${service.urls.audit}${path}`, body, adminKey);
  const clusters = async () =>
    ((await audit('/audit/duplicate/list-duplicates-for-instance', { instance_id: instanceId, limit: 100 })).body.response.items as Json[])
      .map((c) => ({ id: c.id, state: c.state, exact: c.exact, documents: c.documents.map((d: Json) => d.document_name).sort() }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));

  beforeAll(async () => {
    service = await startService('distributed', { BOOTSTRAP_ADMIN_API_KEY: adminKey, DUPLICATES_PAGE_DOCUMENTS: '1', JOBS_LEASE_SECONDS: '5' });
    instanceId = (await audit('/audit/instance/create', { name: 'Duplicates recovery' })).body.response.instance_id;
    instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('the identification completes after the restart: RUNNING_PHASE again, the same clusters with the same ids', async () => {
    const texts: Record<string, string> = {};
    for (let i = 0; i < DOCUMENTS; i++) texts[`doc-${i}.md`] = note(i);
    // Planted: an exact copy, and a near copy (one sentence changed).
    texts['doc-0.md'] = HANDBOOK;
    texts['doc-1.md'] = HANDBOOK.replace(/\n/g, '\n\n');
    texts['doc-2.md'] = PARKING;
    texts['doc-3.md'] = PARKING.replace('renewed every January', 'renewed every February');
    for (const [name, content_text] of Object.entries(texts)) {
      const res = await post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, content_text }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
      expect(res.status).toBe(200);
    }
    await waitFor(async () => ((await audit('/audit/document/count', { instance_id: instanceId, state: 'INDEXED' })).body.response === DOCUMENTS ? true : undefined), 120000, 'documents indexed');
    // Checked one by one as they were indexed.
    const before = await waitFor(async () => {
      const found = await clusters();
      return found.length === 2 ? found : undefined;
    }, 90000, 'the two planted clusters');
    expect(before.map((c) => c.documents)).toEqual(expect.arrayContaining([['doc-0.md', 'doc-1.md'], ['doc-2.md', 'doc-3.md']]));

    const pg = new PgClient({ connectionString: service.env.DATABASE_URL });
    await pg.connect();
    try {
      const run = async () => (await pg.query(`SELECT state, documents, read FROM duplicates.identification_runs WHERE instance_id = $1`, [instanceId])).rows[0] as { state: string; documents: number; read: number };
      expect((await audit('/audit/instance/update-instance-step', { instance_id: instanceId, step: 'LAUNCH_DUPLICATE_IDENTIFICATION' })).status).toBe(200);
      const reading = await waitFor(
        async () => {
          const r = await run();
          return r?.state === 'RUNNING' && r.documents === DOCUMENTS && r.read >= 1 && r.read < DOCUMENTS ? r : undefined;
        },
        60000,
        'the identification reading documents',
        5,
      );
      expect(reading.read).toBeLessThan(DOCUMENTS);
      process.kill(service.pids().workers, 'SIGKILL');
      const stopped = await run();
      expect(stopped.state).toBe('RUNNING');
      expect(stopped.read).toBeLessThan(DOCUMENTS);
      expect((await audit('/audit/instance/get-instance', { instance_id: instanceId })).body.response.step).toBe('ON_DUPLICATE_IDENTIFICATION');

      await service.restart();
      await waitFor(async () => ((await audit('/audit/instance/get-instance', { instance_id: instanceId })).body.response.step === 'RUNNING_PHASE' ? true : undefined), 180000, 'RUNNING_PHASE after the restart');
      expect(await run()).toEqual({ state: 'COMPLETED', documents: DOCUMENTS, read: DOCUMENTS });
      expect(await clusters()).toEqual(before);
    } finally {
      await pg.end();
    }
  }, 420000);
});
