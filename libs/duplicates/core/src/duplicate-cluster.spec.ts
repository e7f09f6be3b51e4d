import { DuplicateCluster, FoundCluster, reconcileClusters, verificationOutcome } from './duplicate-cluster';

const now = new Date('2026-11-26T10:00:00Z');
const earlier = new Date('2026-11-20T10:00:00Z');

function stored(id: string, documentIds: string[], state: DuplicateCluster['state'] = 'DETECTED', extra: Partial<DuplicateCluster> = {}): DuplicateCluster {
  return { id, instanceId: 'ki_1', organizationId: 'org_1', state, documentIds, canonicalHash: `h-${documentIds[0]}`, similarity: 0.9, exact: false, createdAt: earlier, updatedAt: earlier, managedAt: null, lastVerificationAt: null, version: 3, ...extra };
}
const found = (documentIds: string[], extra: Partial<FoundCluster> = {}): FoundCluster => ({ documentIds, canonicalHash: `h-${[...documentIds].sort()[0]}`, similarity: 0.9, exact: false, ...extra });

describe('reconcileClusters', () => {
  it('creates clusters the first identification finds', () => {
    const plan = reconcileClusters([], [found(['kd_b', 'kd_a']), found(['kd_c', 'kd_d'])], now);
    expect(plan.update).toEqual([]);
    expect(plan.create.map((c) => c.documentIds)).toEqual([
      ['kd_a', 'kd_b'],
      ['kd_c', 'kd_d'],
    ]);
  });

  it('writes nothing when a rerun finds the same clusters: ids, states and the expert work survive', () => {
    const clusters = [stored('dup_1', ['kd_a', 'kd_b'], 'MANAGED', { canonicalHash: 'h-kd_a' }), stored('dup_2', ['kd_c', 'kd_d'])];
    expect(reconcileClusters(clusters, [found(['kd_a', 'kd_b']), found(['kd_d', 'kd_c'])], now)).toEqual({ create: [], update: [] });
  });

  it('reopens a cluster that gained a copy, keeps the state of one that only lost one', () => {
    const managed = stored('dup_1', ['kd_a', 'kd_b'], 'MANAGED');
    const shrinking = stored('dup_2', ['kd_c', 'kd_d', 'kd_e'], 'MANAGED');
    const plan = reconcileClusters([managed, shrinking], [found(['kd_a', 'kd_b', 'kd_x']), found(['kd_c', 'kd_d'])], now);
    expect(plan.create).toEqual([]);
    expect(plan.update).toEqual([
      { cluster: managed, changes: { documentIds: ['kd_a', 'kd_b', 'kd_x'], state: 'DETECTED' } },
      { cluster: shrinking, changes: { documentIds: ['kd_c', 'kd_d'] } },
    ]);
  });

  it('resolves an open cluster whose duplicates are gone, with the time of the check, and leaves resolved history alone', () => {
    const gone = stored('dup_1', ['kd_a', 'kd_b']);
    const history = stored('dup_2', ['kd_c', 'kd_d'], 'RESOLVED');
    const plan = reconcileClusters([gone, history], [], now);
    expect(plan).toEqual({ create: [], update: [{ cluster: gone, changes: { state: 'RESOLVED', lastVerificationAt: now } }] });
  });

  it('reopens a resolved cluster when its documents are duplicated again, rather than creating a second one', () => {
    const history = stored('dup_1', ['kd_a', 'kd_b'], 'RESOLVED');
    const plan = reconcileClusters([history], [found(['kd_a', 'kd_c'])], now);
    expect(plan.create).toEqual([]);
    expect(plan.update).toEqual([{ cluster: history, changes: { documentIds: ['kd_a', 'kd_c'], state: 'DETECTED' } }]);
  });

  it('continues the stored cluster sharing the most documents, each stored cluster at most once (a split keeps the id on the larger part)', () => {
    const big = stored('dup_1', ['kd_a', 'kd_b', 'kd_c', 'kd_d', 'kd_e'], 'MANAGED');
    const plan = reconcileClusters([big], [found(['kd_a', 'kd_b']), found(['kd_c', 'kd_d', 'kd_e'])], now);
    expect(plan.update).toEqual([{ cluster: big, changes: { documentIds: ['kd_c', 'kd_d', 'kd_e'], canonicalHash: 'h-kd_c' } }]);
    expect(plan.create.map((c) => c.documentIds)).toEqual([['kd_a', 'kd_b']]);
  });

  it('records a changed similarity or kind without reopening', () => {
    const c = stored('dup_1', ['kd_a', 'kd_b'], 'MANAGED', { canonicalHash: 'h-kd_a' });
    expect(reconcileClusters([c], [found(['kd_a', 'kd_b'], { similarity: 1, exact: true })], now).update).toEqual([{ cluster: c, changes: { similarity: 1, exact: true } }]);
  });
});

describe('verificationOutcome', () => {
  it('resolves only when no two documents left are duplicates', () => {
    expect(verificationOutcome([])).toBe('RESOLVED');
    expect(verificationOutcome([found(['kd_a', 'kd_b'], { exact: true, similarity: 1 })])).toBe('DETECTED');
  });
});
