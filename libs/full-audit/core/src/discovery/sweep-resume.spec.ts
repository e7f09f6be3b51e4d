import type { Clock, JobQueue, UnitOfWork } from '@svc/kernel';
import type { ClaimStore, ModelBatchStore, ScanStore } from '../full-audit.ports';
import { FULL_AUDIT_SCAN, FullAuditSettings } from '../scan-settings';
import { SweepFullAudit } from '../scan.use-cases';
import type { ScanModelLedger } from './discovery.ports';
import { DiscoverySettings } from './model-discovery';
import type { DiscoveryJudge } from './discovery-judge';
import type { StatementExtractor } from './statement-extractor';

describe('SweepFullAudit: a scan an outage of the model stopped is resumed', () => {
  const setup = (discovery: DiscoverySettings, scheduled: string[] = []) => {
    const queued: { name: string; payload: unknown }[] = [];
    const asked: Date[] = [];
    const now = new Date('2026-11-28T08:00:00Z');
    const sweep = new SweepFullAudit(
      { instancesWithDirty: async () => [] } as unknown as ClaimStore,
      { readToJudge: async () => [], abandonStale: async () => 0, dueForRescan: async () => scheduled } as unknown as ScanStore,
      { pendingSince: async () => [] } as unknown as ModelBatchStore,
      new FullAuditSettings(24),
      { enqueue: async (name: string, payload: unknown) => (queued.push({ name, payload }), 'job_1') } as unknown as JobQueue,
      { now: () => now } as Clock,
      { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork,
      discovery,
      { stoppedByOutage: async (before: Date) => (asked.push(before), ['ki_down', 'ki_both']) } as unknown as ScanModelLedger,
    );
    return { queued, asked, now, run: () => sweep.execute() };
  };
  const withModel = new DiscoverySettings({} as StatementExtractor, {} as DiscoveryJudge, 100);

  it('with discovery: a full scan is queued for each instance whose last scan an outage stopped, some minutes after it ended; once per instance', async () => {
    const t = setup(withModel, ['ki_both']);
    expect(await t.run()).toEqual({ judged: 0, rescans: 1, abandoned: 0, polled: 0, resumed: 1 });
    expect(t.asked).toEqual([new Date(t.now.getTime() - FULL_AUDIT_SCAN.outageResumeMinutes * 60_000)]);
    expect(t.queued).toEqual([
      { name: 'full-audit.scan', payload: { instanceId: 'ki_both', reason: 'schedule' } },
      { name: 'full-audit.scan', payload: { instanceId: 'ki_down', reason: 'schedule' } },
    ]);
  });

  it('offline: nothing is asked', async () => {
    const t = setup(new DiscoverySettings(null, null));
    expect(await t.run()).toMatchObject({ resumed: 0 });
    expect([t.asked, t.queued]).toEqual([[], []]);
  });
});
