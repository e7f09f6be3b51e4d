import type { Clock, JobQueue, UnitOfWork } from '@svc/kernel';
import type { GetInstanceStep } from '@svc/workspace-core';
import type { FullAuditConflict, FullAuditFinding } from './full-audit-conflict';
import type { ClaimStore, FullAuditConflictRepository, ModelBatchStore, ModelRejections, PendingModelBatch } from './full-audit.ports';
import type { ClaimJudge } from './judge/claim-judge';
import type { ScanStep } from './scan-plan';
import { CollectModelBatch } from './collect-model-batch.use-case';
import { FULL_AUDIT_SCAN } from './scan-settings';
import type { ScanStepWriter } from './scan-step-writer';

const finding = (fingerprint: string, documentIds: string[]): FullAuditFinding => ({ fingerprint, pairs: [], attribute: 'duration', subject: fingerprint, explanation: '', compagnonQuestions: [], excerpts: [], documentIds });

/** CollectModelBatch over small in-memory ports (the stores and the transport have their own tests). */
function setup(options: { verdict: Set<string> | null | Error; submittedHoursAgo?: number; stored?: Partial<FullAuditConflict>[]; currentHashes?: Record<string, string> }) {
  const now = new Date('2026-11-26T12:00:00Z');
  const batch: PendingModelBatch = {
    batchId: 'msgbatch_1',
    instanceId: 'ki_1',
    candidates: [finding('new', ['kd_a', 'kd_b']), finding('changed', ['kd_a', 'kd_c']), finding('back', ['kd_b', 'kd_d']), finding('rejected', ['kd_a', 'kd_d']), finding('known', ['kd_b', 'kd_c'])],
    contentHashes: { kd_a: 'a1', kd_b: 'b1', kd_c: 'c1', kd_d: 'd1' },
    submittedAt: new Date(now.getTime() - (options.submittedHoursAgo ?? 0.1) * 3_600_000),
  };
  let applied = false;
  const polls: Date[] = [];
  const batches = { pending: async () => (applied ? null : batch), applied: async () => !applied && (applied = true), polled: async (_b: string, at: Date) => void polls.push(at) } as unknown as ModelBatchStore;
  const rejected: string[] = [];
  const rejections = { record: async (_i: string, r: { fingerprint: string }[]) => void rejected.push(...r.map((x) => x.fingerprint)) } as unknown as ModelRejections;
  const current = new Map(Object.entries(options.currentHashes ?? { kd_a: 'a1', kd_b: 'b1', kd_c: 'c2', kd_d: 'd1' }));
  const dirty: string[] = [];
  const claims = {
    contentHashes: async (_i: string, ids: string[]) => new Map(ids.filter((id) => current.has(id)).map((id) => [id, current.get(id)!])),
    markDirty: async (_i: string, ids: string[]) => void dirty.push(...ids),
  } as unknown as ClaimStore;
  const queued: string[] = [];
  const jobs = { enqueue: async (name: string) => (queued.push(name), 'job_1') } as unknown as JobQueue;
  const stored = (options.stored ?? [{ fingerprint: 'back', state: 'DISAPPEARED' }, { fingerprint: 'known', state: 'DETECTED' }]) as FullAuditConflict[];
  const conflicts = { withFingerprints: async (_i: string, fps: string[]) => stored.filter((c) => fps.includes(c.fingerprint)) } as unknown as FullAuditConflictRepository;
  const judge = {
    collect: async () => {
      if (options.verdict instanceof Error) throw options.verdict;
      return options.verdict;
    },
  } as unknown as ClaimJudge;
  const written: ScanStep[] = [];
  const writer = { write: async (_i: string, _o: string, steps: ScanStep[]) => (written.push(...steps), { detected: steps.length }) } as unknown as ScanStepWriter;
  const steps = { facts: async () => ({ step: 'RUNNING_PHASE', organizationId: 'org_1' }) } as unknown as GetInstanceStep;
  const clock = { now: () => now } as Clock;
  const uow = { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork;
  const collect = new CollectModelBatch(steps, batches, rejections, claims, conflicts, judge, writer, jobs, clock, uow);
  return { collect, written, rejected, dirty, queued, polls, isApplied: () => applied, run: () => collect.execute({ instanceId: 'ki_1', batchId: 'msgbatch_1' }) };
}

const summary = (steps: ScanStep[]) => steps.map((s) => (s.kind === 'insert' ? `insert ${s.finding.fingerprint}` : s.kind === 'move' ? `${s.event} ${s.finding?.fingerprint}` : s.kind));

describe('CollectModelBatch: the model’s verdicts on a batch of candidates', () => {
  it('while the batch runs, nothing is raised and it stays pending; the poll is recorded', async () => {
    const t = setup({ verdict: null });
    expect(await t.run()).toBe('in_progress');
    expect(t.written).toEqual([]);
    expect(t.isApplied()).toBe(false);
    expect(t.polls).toHaveLength(1);
  });

  it('a poll that fails is retried (the job fails) until the batch is too old: then the rule-based verdict stands', async () => {
    const young = setup({ verdict: new Error('HTTP 404') });
    await expect(young.run()).rejects.toThrow('HTTP 404');
    expect(young.isApplied()).toBe(false);
    const old = setup({ verdict: new Error('HTTP 404'), submittedHoursAgo: FULL_AUDIT_SCAN.batchExpiryHours + 1, currentHashes: { kd_a: 'a1', kd_b: 'b1', kd_c: 'c1', kd_d: 'd1' } });
    await old.run();
    expect(summary(old.written)).toEqual(['insert new', 'insert changed', 'returned back', 'insert rejected']);
    expect(old.isApplied()).toBe(true);
  });

  it('once ended: confirmed candidates are raised (new ones inserted, disappeared ones back), not those rejected, stored already, or whose document changed since', async () => {
    const t = setup({ verdict: new Set(['new', 'changed', 'back', 'known']) });
    expect(await t.run()).toMatch(/^applied msgbatch_1: 5 candidates, 4 confirmed/u);
    expect(summary(t.written)).toEqual(['insert new', 'returned back']);
    expect(t.isApplied()).toBe(true);
    // The rejection is remembered; the document that changed is judged again (its candidate waited here).
    expect(t.rejected).toEqual(['rejected']);
    expect(t.dirty).toEqual(['kd_c']);
    expect(t.queued).toEqual(['full-audit.judge']);
    expect(await t.run()).toBe('applied_already');
    expect(t.written).toHaveLength(2);
  });

  it('a document deleted since the batch was submitted: its candidates are not raised', async () => {
    const t = setup({ verdict: new Set(['new', 'back']), currentHashes: { kd_a: 'a1', kd_c: 'c1', kd_d: 'd1' } });
    await t.run();
    expect(summary(t.written)).toEqual([]);
  });

  it(`a batch unanswered after ${FULL_AUDIT_SCAN.batchExpiryHours} hours keeps the rule-based verdict: every candidate raised`, async () => {
    const t = setup({ verdict: null, submittedHoursAgo: FULL_AUDIT_SCAN.batchExpiryHours + 1, currentHashes: { kd_a: 'a1', kd_b: 'b1', kd_c: 'c1', kd_d: 'd1' } });
    await t.run();
    expect(summary(t.written)).toEqual(['insert new', 'insert changed', 'returned back', 'insert rejected']);
  });
});
