import type { Clock, IdGenerator, JobQueue, UnitOfWork } from '@svc/kernel';
import type { GetInstanceStep } from '@svc/workspace-core';
import type { ClaimStore, FullAuditScan, ScanSource, ScanStore } from './full-audit.ports';
import { FULL_AUDIT_SCAN, FullAuditSettings, settleDue } from './scan-settings';
import { StartFullAuditScan } from './scan.use-cases';

describe('settleDue: when incremental judgements call for the whole repository to be judged again', () => {
  it('a small repository settles after any change', () => {
    expect(settleDue({ changed: 1, documents: 60 })).toBe(true);
    expect(settleDue({ changed: 1, documents: 1 })).toBe(true);
  });

  it('a large one once the documents judged since the last full judgement reach the settle share', () => {
    const documents = 10_000;
    const share = Math.ceil(FULL_AUDIT_SCAN.settleShare * documents);
    expect(settleDue({ changed: share - 1, documents })).toBe(false);
    expect(settleDue({ changed: share, documents })).toBe(true);
  });

  it('nothing judged since: nothing to settle (also after the last document was deleted)', () => {
    expect(settleDue({ changed: 0, documents: 0 })).toBe(false);
    expect(settleDue({ changed: 0, documents: 500 })).toBe(false);
    expect(settleDue({ changed: 3, documents: 0 })).toBe(true);
  });
});

describe('StartFullAuditScan with reason settle', () => {
  const setup = (drift: { changed: number; documents: number }) => {
    const started: FullAuditScan[] = [];
    const queued: string[] = [];
    const start = new StartFullAuditScan(
      { execute: async () => 'RUNNING_PHASE' } as unknown as GetInstanceStep,
      { start: async (scan: FullAuditScan) => (started.push(scan), { started: true, scan }) } as unknown as ScanStore,
      { liveIds: async () => { throw new Error('a settle reads no document'); } } as unknown as ScanSource,
      { driftOf: async () => drift } as unknown as ClaimStore,
      new FullAuditSettings(24),
      { enqueue: async (name: string) => (queued.push(name), 'job_1') } as unknown as JobQueue,
      { next: () => 'fas_1' } as unknown as IdGenerator,
      { now: () => new Date('2026-11-26T12:00:00Z') } as Clock,
      { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork,
    );
    return { started, queued, run: () => start.execute({ instanceId: 'ki_1', reason: 'settle' }) };
  };

  it('judges the stored claims at once: a scan of no chunk over the documents with claims, no document read', async () => {
    const t = setup({ changed: 3, documents: 40 });
    expect(await t.run()).toBe('settling fas_1 40');
    expect(t.started).toEqual([expect.objectContaining({ reason: 'settle', total: 40, chunks: 0, state: 'RUNNING' })]);
    expect(t.queued).toEqual(['full-audit.judge']);
  });

  it('does nothing when a full judgement ran since the changes that called for it', async () => {
    const t = setup({ changed: 0, documents: 40 });
    expect(await t.run()).toBe('settled');
    expect([t.started, t.queued]).toEqual([[], []]);
  });
});
