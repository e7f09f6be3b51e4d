import type { Clock, JobQueue, UnitOfWork } from '@svc/kernel';
import { InlineClaimReader } from '../claim-reader';
import type { ClaimStore, DocumentClaims, ScannedDocument, ScanSource, ScanStore } from '../full-audit.ports';
import { claimsVersionOf, FullAuditSettings } from '../scan-settings';
import { ExtractClaims } from '../scan.use-cases';
import { DocumentReading, ModelDiscovery } from './model-discovery';

const documents: ScannedDocument[] = [
  { id: 'kd_a', name: 'a.md', url: null, contentHash: 'ha', passages: [{ id: 'kn_a', text: 'Expense claims are approved by the Finance team.', headingPath: [] }] },
  { id: 'kd_b', name: 'b.md', url: null, contentHash: 'hb', passages: [{ id: 'kn_b', text: 'Expense claims are approved by the line manager.', headingPath: [] }] },
];

function setup(discovery: ModelDiscovery, known = new Map<string, string>()) {
  const saved: DocumentClaims[] = [];
  const extract = new ExtractClaims(
    { read: async () => documents } as unknown as ScanSource,
    { contentHashes: async () => known, save: async (_i: string, d: DocumentClaims[]) => void saved.push(...d), remove: async () => undefined, markDirty: async () => undefined } as unknown as ClaimStore,
    {} as ScanStore,
    new FullAuditSettings(24),
    { enqueue: async () => 'job_1' } as unknown as JobQueue,
    { now: () => new Date('2026-11-28T07:00:00Z') } as Clock,
    { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork,
    new InlineClaimReader(),
    discovery,
  );
  return { saved, run: () => extract.execute({ instanceId: 'ki_1', scan: null, documentIds: ['kd_a', 'kd_b'] }) };
}

const statement = { subject: 'expense claim approval', attribute: 'approver', value: 'Finance team', unit: null, valueKey: 'finance team', scope: null, condition: null, modality: 'is' as const, effectiveDate: null, span: 'x', start: 0, end: 1, passageId: 'kn_a' };

describe('ExtractClaims with model-led discovery', () => {
  it("stores a document the model finished under the extractor's version with its statements; one it did not finish under the offline version, to be read again", async () => {
    const readings = new Map<string, DocumentReading>([
      ['kd_a', { statements: [statement], complete: true }],
      ['kd_b', { statements: [], complete: false }],
    ]);
    const discovery = { enabled: true, version: 'm|statements-v1', read: async () => readings } as unknown as ModelDiscovery;
    const t = setup(discovery);
    expect(await t.run()).toBe('read 2 changed 2');
    expect(t.saved.map((d) => [d.documentId, d.contentHash, d.statements])).toEqual([
      ['kd_a', claimsVersionOf('ha', null, 'm|statements-v1'), [statement]],
      ['kd_b', claimsVersionOf('hb', null), []],
    ]);
  });

  it('a document read to the end before is not read again; offline, documents are stored exactly as before (no statements)', async () => {
    let asked = 0;
    const discovery = { enabled: true, version: 'm|statements-v1', read: async (_i: string, _s: string | null, docs: ScannedDocument[]) => ((asked += docs.length), new Map()) } as unknown as ModelDiscovery;
    const t = setup(discovery, new Map([['kd_a', claimsVersionOf('ha', null, 'm|statements-v1')], ['kd_b', claimsVersionOf('hb', null)]]));
    expect(await t.run()).toBe('read 2 changed 1');
    expect(asked).toBe(1);
    const offline = setup(ModelDiscovery.offline());
    await offline.run();
    expect(offline.saved.map((d) => Object.keys(d).sort())).toEqual([['changedAt', 'claims', 'contentHash', 'documentId'], ['changedAt', 'claims', 'contentHash', 'documentId']]);
    expect(offline.saved.map((d) => d.contentHash)).toEqual([claimsVersionOf('ha', null), claimsVersionOf('hb', null)]);
  });
});
