import { FixedClock, ImmediateUnitOfWork, RecordingActivityLog, TestIds } from '@svc/kernel/testing';
import type { Page } from '@svc/kernel';
import type { CompleteInstanceStep, GetInstanceStep, InstanceStep } from '@svc/workspace-core';
import type { ClusterChanges, DuplicateCluster } from './duplicate-cluster';
import { DocumentFingerprint, DuplicateClusterRepository, DuplicatesSource, FingerprintStore, IdentificationRun, IdentificationRuns, SourceDocument } from './duplicates.ports';
import { DuplicatesSettings } from './fingerprint';
import { CheckChangedDocument, ClusterWriter, IdentifyDuplicates } from './identify.use-cases';

const INSTANCE = 'ki_1';

class MemorySource extends DuplicatesSource {
  readonly documents = new Map<string, SourceDocument>();
  readonly reads: string[][] = [];
  async liveIds() {
    return [...this.documents.keys()].sort();
  }
  async indexedVersions(_: string, ids: string[]) {
    return new Map(ids.flatMap((id) => (this.documents.has(id) ? [[id, this.documents.get(id)!.contentHash] as [string, string]] : [])));
  }
  async read(_: string, ids: string[]) {
    this.reads.push(ids);
    return ids.flatMap((id) => (this.documents.has(id) ? [this.documents.get(id)!] : []));
  }
  put(id: string, text: string) {
    this.documents.set(id, { id, text, contentHash: `h:${text.length}:${text.slice(0, 40)}` });
  }
}

class MemoryFingerprints extends FingerprintStore {
  readonly rows = new Map<string, DocumentFingerprint>();
  statisticsRefreshed = 0;
  async refreshStatistics() {
    this.statisticsRefreshed += 1;
  }
  async versions(_: string, ids: string[]) {
    return new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, { contentHash: this.rows.get(id)!.contentHash, scheme: this.rows.get(id)!.scheme }] as const] : [])));
  }
  async save(_: string, fingerprints: DocumentFingerprint[]) {
    for (const f of fingerprints) this.rows.set(f.documentId, f);
  }
  async remove(_: string, ids: string[]) {
    for (const id of ids) this.rows.delete(id);
  }
  async retainOnly(_: string, live: string[]) {
    const gone = [...this.rows.keys()].filter((id) => !live.includes(id));
    for (const id of gone) this.rows.delete(id);
    return gone.length;
  }
  async all() {
    return [...this.rows.values()];
  }
  async ofDocuments(_: string, ids: string[]) {
    return ids.flatMap((id) => (this.rows.has(id) ? [this.rows.get(id)!] : []));
  }
  async candidates(_: string, f: Pick<DocumentFingerprint, 'documentId' | 'canonicalHash' | 'bandKeys'>) {
    return [...this.rows.values()].filter((r) => r.documentId !== f.documentId && (r.canonicalHash === f.canonicalHash || r.bandKeys.some((k) => f.bandKeys.includes(k))));
  }
}

class MemoryClusters extends DuplicateClusterRepository {
  readonly rows = new Map<string, DuplicateCluster>();
  async lock() {}
  async insert(c: DuplicateCluster) {
    this.rows.set(c.id, { ...c });
  }
  async get(_: string, id: string) {
    return this.rows.get(id) ?? null;
  }
  async list(): Promise<Page<DuplicateCluster>> {
    throw new Error('not used');
  }
  async all() {
    return [...this.rows.values()];
  }
  async touching(_: string, ids: string[]) {
    return [...this.rows.values()].filter((c) => c.documentIds.some((id) => ids.includes(id)));
  }
  async update(key: { id: string; version: number }, changes: ClusterChanges) {
    const c = this.rows.get(key.id);
    if (!c || c.version !== key.version) return false;
    this.rows.set(key.id, { ...c, ...changes, version: c.version + 1 });
    return true;
  }
}

class MemoryRuns extends IdentificationRuns {
  run: IdentificationRun | null = null;
  async start(instanceId: string, documents: number, at: Date) {
    this.run = { instanceId, state: 'RUNNING', documents, read: 0, clusters: null, startedAt: at, finishedAt: null };
  }
  async progress(_: string, read: number) {
    this.run!.read = read;
  }
  async finish(_: string, clusters: number, at: Date) {
    this.run = { ...this.run!, state: 'COMPLETED', clusters, finishedAt: at };
  }
  async get() {
    return this.run;
  }
}

const POLICY = [
  '# Travel policy',
  'Employees book business travel through the travel desk at least ten working days before departure.',
  'Train travel is the default for journeys under four hours; flights need the approval of the budget holder.',
  'Hotels are booked through the travel desk and must be within walking distance of the meeting venue.',
  'Expense reports are submitted within thirty days of the return, with every receipt attached.',
].join('\n');

function setup(step: InstanceStep = 'ON_DUPLICATE_IDENTIFICATION') {
  const source = new MemorySource();
  const fingerprints = new MemoryFingerprints();
  const clusters = new MemoryClusters();
  const runs = new MemoryRuns();
  const clock = new FixedClock();
  const uow = new ImmediateUnitOfWork();
  const activity = new RecordingActivityLog();
  const completed: { step: InstanceStep; outcome: Record<string, unknown> }[] = [];
  const state = { step };
  const steps = { facts: async () => ({ step: state.step, organizationId: 'org_1' }) } as unknown as GetInstanceStep;
  const completeStep = {
    execute: async (_: string, s: InstanceStep, outcome: Record<string, unknown>) => {
      completed.push({ step: s, outcome });
      return true;
    },
  } as unknown as CompleteInstanceStep;
  const settings = new DuplicatesSettings(0.7, 2);
  const writer = new ClusterWriter(clusters, new TestIds(), clock, activity);
  const identify = new IdentifyDuplicates(steps, completeStep, source, fingerprints, clusters, runs, writer, settings, clock, uow);
  const check = new CheckChangedDocument(steps, source, fingerprints, clusters, writer, settings, clock, uow);
  const progress: number[] = [];
  const run = () => identify.execute({ instanceId: INSTANCE }, async (percent) => void progress.push(percent));
  return { source, fingerprints, clusters, runs, completed, state, identify, check, run, progress, activity };
}

const members = (c: DuplicateCluster) => c.documentIds.join(',');

describe('IdentifyDuplicates', () => {
  it('clusters the whole repository page by page, records its progress and completes the step with the count', async () => {
    const t = setup();
    t.source.put('kd_a', POLICY);
    t.source.put('kd_b', POLICY.replace(/\n/g, '\n\n'));
    t.source.put('kd_c', POLICY.replace('ten working days', 'five working days'));
    t.source.put('kd_d', '# Canteen\nThe canteen opens at noon and serves soup on Mondays.');
    t.source.put('kd_e', '# Gym\nThe gym is open from seven in the morning until ten at night.');
    expect(await t.run()).toMatch(/^identified 5 documents \(5 fingerprinted\) clusters 1/);
    // Exact and near copies are one complete-linkage cluster.
    expect([...t.clusters.rows.values()].map(members)).toEqual(['kd_a,kd_b,kd_c']);
    expect(t.source.reads.map((r) => r.length)).toEqual([2, 2, 1]);
    expect(t.progress).toEqual([36, 72, 90, 100]);
    expect(t.runs.run).toMatchObject({ state: 'COMPLETED', documents: 5, read: 5, clusters: 1 });
    expect(t.completed).toEqual([{ step: 'ON_DUPLICATE_IDENTIFICATION', outcome: { duplicate_clusters: 1 } }]);
    // Rows were written: the planner statistics are refreshed once, after the run.
    expect(t.fingerprints.statisticsRefreshed).toBe(1);
  });

  it('reruns without reading an unchanged text, keeps the cluster ids and writes nothing; a changed document alone is read again', async () => {
    const t = setup();
    t.source.put('kd_a', POLICY);
    t.source.put('kd_b', POLICY);
    await t.run();
    const [first] = t.clusters.rows.values();
    const logged = t.activity.entries.length;
    t.source.reads.length = 0;
    expect(await t.run()).toMatch(/\(0 fingerprinted\) clusters 1 writes 0/);
    expect(t.source.reads).toEqual([]);
    // Nothing written: no statistics to refresh.
    expect(t.fingerprints.statisticsRefreshed).toBe(1);
    expect(t.activity.entries).toHaveLength(logged);
    t.source.put('kd_b', '# Something else entirely\nNothing in common with the travel policy.');
    expect(await t.run()).toMatch(/\(1 fingerprinted\) clusters 0 writes 1/);
    expect(t.source.reads).toEqual([['kd_b']]);
    expect(t.clusters.rows.get(first.id)).toMatchObject({ state: 'RESOLVED', lastVerificationAt: expect.any(Date) });
  });

  it('does nothing for an instance that left the step, and a run that failed for good completes the step all the same', async () => {
    const t = setup('RUNNING_PHASE');
    expect(await t.run()).toBe('stale');
    expect(t.completed).toEqual([]);
    await t.identify.giveUp({ instanceId: INSTANCE }, 'connection refused');
    expect(t.completed).toEqual([{ step: 'ON_DUPLICATE_IDENTIFICATION', outcome: { duplicate_identification: 'failed', reason: 'connection refused' } }]);
  });
});

describe('CheckChangedDocument', () => {
  it('waits for the whole-repository run before it (not_yet), then checks one document at a time: a copy joins, a deletion resolves', async () => {
    const t = setup('CHECK_INDEXATION_DONE');
    t.source.put('kd_a', POLICY);
    expect(await t.check.execute({ instanceId: INSTANCE, documentId: 'kd_a', change: 'indexed' })).toBe('not_yet');
    t.state.step = 'RUNNING_PHASE';
    expect(await t.check.execute({ instanceId: INSTANCE, documentId: 'kd_a', change: 'indexed' })).toBe('indexed matches 0 writes 0');
    t.source.put('kd_b', POLICY.replace('thirty days', 'sixty days'));
    expect(await t.check.execute({ instanceId: INSTANCE, documentId: 'kd_b', change: 'indexed' })).toBe('indexed matches 1 writes 1');
    const [cluster] = t.clusters.rows.values();
    expect(cluster).toMatchObject({ documentIds: ['kd_a', 'kd_b'], state: 'DETECTED', exact: false });
    t.source.put('kd_c', POLICY);
    await t.check.execute({ instanceId: INSTANCE, documentId: 'kd_c', change: 'indexed' });
    expect([...t.clusters.rows.values()].map(members)).toEqual(['kd_a,kd_b,kd_c']);
    t.source.documents.delete('kd_b');
    t.source.documents.delete('kd_c');
    await t.check.execute({ instanceId: INSTANCE, documentId: 'kd_b', change: 'deleted' });
    await t.check.execute({ instanceId: INSTANCE, documentId: 'kd_c', change: 'deleted' });
    expect(t.clusters.rows.get(cluster.id)).toMatchObject({ state: 'RESOLVED' });
    expect([...t.fingerprints.rows.keys()]).toEqual(['kd_a']);
  });
});
