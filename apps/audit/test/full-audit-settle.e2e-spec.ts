import { generateApiKey } from '@svc/identity-core';
import { BOTH_MODES, Json, RunningService, startService, waitFor } from '@svc/test-kit';
import { FullAuditInstance, officeNotices } from './full-audit-instance';

/**
 * The full audit settles (ADR 0040): an incremental judgement revisits only the pairs touching the
 * changed documents, while the judge's word statistics (how common each stem is) belong to the whole
 * repository. Once documents changed, the stored claims are judged again as a whole, so the findings
 * do not depend on the order the documents arrived in. Here a third document makes "period" a common
 * word, which parts two toaster-warranty statements that only "period" and two other words joined:
 * their contradiction goes when it arrives and comes back when it is deleted, although neither
 * change touches the two statements. Both modes: the settle is a delayed, deduplicated job.
 */
describe.each(BOTH_MODES)('full audit settles after changes (%s)', (mode) => {
  let service: RunningService;
  const adminKey = generateApiKey();
  let instance: FullAuditInstance;

  const warrantyConflict = async (states: string[]) =>
    (await instance.audit('/audit/full-audit/list', { instance_id: instance.instanceId, state_in: states, limit: 100 })).body.response.items.find((c: Json) => c.attribute === 'duration' && /toaster|warranty/u.test(c.subject)) as Json | undefined;
  const progress = async () => (await instance.panel()).scan;

  beforeAll(async () => {
    service = await startService(mode, { BOOTSTRAP_ADMIN_API_KEY: adminKey, FULL_AUDIT_SETTLE_SECONDS: '1', FULL_AUDIT_SWEEP_SECONDS: '1' });
    instance = await FullAuditInstance.create(service, adminKey, 'Settle');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('a contradiction goes when another document makes its shared word common, and comes back when that document is deleted', async () => {
    await instance.ingest('toaster-warranty.md', '# Toaster warranty\n\nThe warranty period of the toaster is 2 years.');
    await instance.ingest('toaster-leaflet.md', '# Toaster warranty\n\nThe warranty period of the toaster is 3 years.');
    const conflict = await waitFor(() => warrantyConflict(['DETECTED']), 90000, 'the warranty contradiction');
    expect(conflict.explanation).toMatch(/2 years/u);
    expect(conflict.explanation).toMatch(/3 years/u);

    const notices = await instance.ingest('office-notices.md', officeNotices());
    await waitFor(async () => ((await instance.audit('/audit/full-audit/detail', { instance_id: instance.instanceId, conflict_id: conflict.id })).body.response.state === 'DISAPPEARED' ? true : undefined), 90000, 'the contradiction gone');
    // Settled: the stored claims judged as a whole, no document read again.
    expect(await progress()).toMatchObject({ reason: 'settle', state: 'COMPLETED', chunks: 0, documents: 3 });
    expect(await warrantyConflict(['DETECTED'])).toBeUndefined();

    expect((await instance.retrieval('/api/documents/delete', { document_id: notices })).status).toBe(200);
    const back = await waitFor(() => warrantyConflict(['DETECTED']), 90000, 'the contradiction back');
    expect(back.id).toBe(conflict.id);
    expect(await progress()).toMatchObject({ reason: 'settle', state: 'COMPLETED', documents: 2 });
  }, 240000);
});
