import type { Clock, JobQueue, UnitOfWork } from '@svc/kernel';
import { extractClaims } from '@svc/text';
import type { GetInstanceStep } from '@svc/workspace-core';
import type { FullAuditFinding } from './full-audit-conflict';
import type { ClaimStore, DocumentClaims, FullAuditConflictRepository, ModelBatchStore, ModelRejections, PendingModelBatch, ScanSource, ScanStore } from './full-audit.ports';
import type { ClaimJudge } from './judge/claim-judge';
import { InlineContradictionFinder } from './judge/contradiction-finder';
import type { ScanStep } from './scan-plan';
import { FullAuditSettings } from './scan-settings';
import type { ScanStepWriter } from './scan-step-writer';
import { JudgeFullAudit } from './scan.use-cases';
import { ModelDiscovery } from './discovery/model-discovery';

/** Three documents, two contradictions (refunds, delivery), judged as a full scan over small in-memory ports. */
function documents(): DocumentClaims[] {
  const doc = (id: string, text: string): DocumentClaims => ({ documentId: id, contentHash: `h-${id}`, changedAt: new Date(0), claims: extractClaims({ id: `${id}#0`, documentId: id, text, documentName: `${id}.md` }, { language: 'en' }) });
  return [
    doc('kd_a', 'Refunds of an order are processed within 30 days. Standard delivery of parcels takes 3 working days.'),
    doc('kd_b', 'Refunds of an order are processed within 14 days.'),
    doc('kd_c', 'Standard delivery of parcels takes 5 working days.'),
  ];
}

function setup(options: { batches: boolean; submit?: () => Promise<string>; rejected?: (f: FullAuditFinding) => boolean; pending?: string[]; rejections?: Map<string, Record<string, string>>; discovered?: FullAuditFinding[]; heads?: Record<string, string> }) {
  const judged: string[][] = [];
  const submitted: string[][] = [];
  const added: PendingModelBatch[] = [];
  const recorded: string[] = [];
  const written: ScanStep[] = [];
  const judge = {
    name: 'model',
    batches: options.batches,
    confirm: async (candidates: FullAuditFinding[]) => {
      judged.push(candidates.map((c) => c.subject));
      return new Set(candidates.filter((c) => !options.rejected?.(c)).map((c) => c.fingerprint));
    },
    submit: options.submit ?? (async (candidates: FullAuditFinding[]) => (submitted.push(candidates.map((c) => c.subject)), 'msgbatch_1')),
  } as unknown as ClaimJudge;
  const scan = { id: 'fas_1', instanceId: 'ki_1', reason: 'settle', state: 'RUNNING', total: 3, chunks: 0 };
  const scans = { running: async () => scan, chunksDone: async () => 0, complete: async () => undefined } as unknown as ScanStore;
  const claims = { all: async () => documents(), clearDirty: async () => undefined, resetDrift: async () => undefined } as unknown as ClaimStore;
  const conflicts = { inScope: async () => [] } as unknown as FullAuditConflictRepository;
  // The documents' heads, where document control says which one a newer one supersedes.
  const heads: Record<string, string> = options.heads ?? {};
  const source = {
    names: async (_i: string, ids: string[]) => new Map(ids.map((id) => [id, { name: `${id}.md`, url: null }])),
    read: async (_i: string, ids: string[]) => ids.map((id) => ({ id, name: `${id}.md`, url: null, contentHash: `h-${id}`, passages: [{ id: `${id}#head`, text: heads[id] ?? '', headingPath: [] }] })),
  } as unknown as ScanSource;
  const batches = { pendingFingerprints: async () => new Set(options.pending ?? []), add: async (b: PendingModelBatch) => void added.push(b) } as unknown as ModelBatchStore;
  const rejections = {
    of: async (_i: string, fps: string[]) => new Map([...(options.rejections ?? new Map())].filter(([fp]) => fps.includes(fp))),
    record: async (_i: string, r: { fingerprint: string }[]) => void recorded.push(...r.map((x) => x.fingerprint)),
  } as unknown as ModelRejections;
  const writer = { write: async (_i: string, _o: string, steps: ScanStep[]) => (written.push(...steps), {}) } as unknown as ScanStepWriter;
  const queued: string[] = [];
  const jobs = { enqueue: async (name: string) => (queued.push(name), 'job_1') } as unknown as JobQueue;
  const steps = { facts: async () => ({ step: 'RUNNING_PHASE', organizationId: 'org_1' }) } as unknown as GetInstanceStep;
  const clock = { now: () => new Date('2026-11-26T12:00:00Z') } as Clock;
  const uow = { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork;
  const discovery = options.discovered
    ? ({ enabled: true, findings: async () => ({ findings: options.discovered, judged: options.discovered!.length, pending: 0 }), prune: async () => ({ passages: 0, verdicts: 0 }) } as unknown as ModelDiscovery)
    : ModelDiscovery.offline();
  const use = new JudgeFullAudit(steps, scans, claims, conflicts, source, judge, batches, rejections, writer, new FullAuditSettings(24, 25, 60, 2, 60), jobs, clock, uow, new InlineContradictionFinder(), discovery);
  const inserted = () => written.flatMap((s) => (s.kind === 'insert' ? [s.finding] : []));
  return { run: () => use.execute({ instanceId: 'ki_1' }), judged, submitted, added, recorded, inserted, queued };
}

describe('JudgeFullAudit: what a full judgement asks of the model', () => {
  it('with batches and enough candidates: one batch, nothing raised now, the poll queued', async () => {
    const t = setup({ batches: true });
    expect(await t.run()).toMatch(/2 awaiting the model's batch msgbatch_1/u);
    expect(t.submitted).toHaveLength(1);
    expect(t.submitted[0]).toHaveLength(2);
    expect(t.added[0]).toMatchObject({ batchId: 'msgbatch_1', contentHashes: { kd_a: 'h-kd_a', kd_b: 'h-kd_b', kd_c: 'h-kd_c' } });
    expect(t.inserted()).toEqual([]);
    expect(t.judged).toEqual([]);
    expect(t.queued).toEqual(['full-audit.collect']);
  });

  it('a batch that cannot be submitted: the candidates are judged call by call, and the rejections remembered', async () => {
    const t = setup({ batches: true, submit: () => Promise.reject(new Error('HTTP 529')), rejected: (f) => /working days/u.test(f.explanation) });
    await t.run();
    expect(t.judged).toHaveLength(1);
    expect(t.inserted().map((f) => f.subject)).toEqual([expect.stringMatching(/refund/u)]);
    expect(t.recorded).toHaveLength(1);
    expect(t.added).toEqual([]);
  });

  it('candidates awaiting a batch are not sent again; those the model rejected on unchanged documents neither, on changed ones they are', async () => {
    const first = setup({ batches: false, rejected: (f) => /working days/u.test(f.explanation) });
    await first.run();
    const [refund, delivery] = [first.inserted()[0], first.judged[0]];
    expect(delivery).toHaveLength(2);
    const all = setup({ batches: false });
    await all.run();
    const fingerprints = all.inserted().map((f) => f.fingerprint);
    const deliveryFingerprint = fingerprints.find((fp) => fp !== refund.fingerprint)!;

    const pending = setup({ batches: true, pending: fingerprints });
    await pending.run();
    expect([pending.judged, pending.submitted, pending.inserted()]).toEqual([[], [], []]);

    const unchanged = setup({ batches: false, rejections: new Map([[deliveryFingerprint, { kd_a: 'h-kd_a', kd_c: 'h-kd_c' }]]) });
    await unchanged.run();
    expect(unchanged.judged).toEqual([[refund.subject]]);
    const changed = setup({ batches: false, rejections: new Map([[deliveryFingerprint, { kd_a: 'h-kd_a', kd_c: 'an older version' }]]) });
    await changed.run();
    expect(changed.judged[0]).toHaveLength(2);
  });

  it('a superseded version: its differences are one finding naming it and the version replacing it', async () => {
    const policy = (version: string, extra = '') => `# Refund policy\n\n- Reference: CS-POL-04\n- Version: ${version}\n${extra}`;
    const t = setup({ batches: false, heads: { kd_a: policy('4.0', '- Supersedes: Refund policy version 3.0\n'), kd_b: policy('3.0') } });
    await t.run();
    const inserted = t.inserted();
    // kd_b (version 3.0) against kd_a on refunds: the old version, once; kd_a against kd_c on delivery: a contradiction.
    expect(inserted.map((f) => f.attribute).sort()).toEqual(['duration', 'superseded:kd_b>kd_a']);
    const outdated = inserted.find((f) => f.attribute.startsWith('superseded'))!;
    expect(outdated.subject).toBe('older version still in the repository: kd_b.md');
    expect(outdated.explanation).toMatch(/^"kd_b\.md" is superseded: "kd_a\.md" replaces it, but it is still in the repository/u);
  });

  it("with model-led discovery: the model's own finding is raised beside the rule-based ones without being sent to the judge again; one a rule-based finding holds is not raised twice", async () => {
    const excerpt = (documentId: string, node: string, value: string) => ({ semanticNodeId: node, documentId, documentName: `${documentId}.md`, documentUrl: null, text: `The return window is ${value}.`, start: 0, end: 5, value, valueKey: value, scope: [] });
    const byModel: FullAuditFinding = { fingerprint: 'm1', pairs: [{ fingerprint: 'm1', documentIds: ['kd_b', 'kd_c'] }], attribute: 'duration', subject: 'Return window', explanation: 'x', compagnonQuestions: ['Which?'], excerpts: [excerpt('kd_b', 'kd_b#9', '30 days'), excerpt('kd_c', 'kd_c#9', '60 days')], documentIds: ['kd_b', 'kd_c'] };
    // The same passages as the rule-based refund finding (kd_a#0 and kd_b#0): that finding, seen by the model too.
    const sameAsRules: FullAuditFinding = { ...byModel, fingerprint: 'm2', pairs: [{ fingerprint: 'm2', documentIds: ['kd_a', 'kd_b'] }], excerpts: [excerpt('kd_a', 'kd_a#0', '30 days'), excerpt('kd_b', 'kd_b#0', '14 days')], documentIds: ['kd_a', 'kd_b'] };
    const t = setup({ batches: false, discovered: [byModel, sameAsRules] });
    expect(await t.run()).toMatch(/3 found.*1 by the model/u);
    expect(t.inserted().map((f) => f.subject).sort()).toEqual(['Return window', expect.stringMatching(/refund/u), expect.stringMatching(/parcel/u)]);
    // The judge saw the two rule-based candidates only.
    expect(t.judged.map((subjects) => subjects.sort())).toEqual([[expect.stringMatching(/refund/u), expect.stringMatching(/parcel/u)]]);
  });
});
