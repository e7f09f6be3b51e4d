import { InMemoryVectorIndex } from './in-memory-vector-index';
import { expectOneStore, vectorIndexContract } from './testing/vector-index.contract';
import { versionAtLeast } from './vector-index.factory';

vectorIndexContract(
  'InMemoryVectorIndex',
  {
    exact: true,
    noTransactions: 'a fake for unit tests: its writes apply at once',
    noSharedStore: 'a fake for unit tests, one store per object; VECTOR_STORE cannot select it',
  },
  async () => ({ index: new InMemoryVectorIndex() }),
);

describe('versionAtLeast', () => {
  it('compares dotted versions numerically', () => {
    expect(versionAtLeast('0.8.7', [0, 8, 0])).toBe(true);
    expect(versionAtLeast('0.8.0', [0, 8, 0])).toBe(true);
    expect(versionAtLeast('0.10.1', [0, 8, 0])).toBe(true);
    expect(versionAtLeast('0.7.4', [0, 8, 0])).toBe(false);
    expect(versionAtLeast('1.0', [0, 8, 0])).toBe(true);
    expect(versionAtLeast(null, [0, 8, 0])).toBe(false);
  });
});

describe('the one-store rule of the contract', () => {
  it('fails an adapter that keeps its vectors in the object: with one per app, search fell back to full text', async () => {
    await expect(expectOneStore(new InMemoryVectorIndex(), new InMemoryVectorIndex(), 'ins_apart')).rejects.toThrow(/kn_written/);
    const shared = new InMemoryVectorIndex();
    await expect(expectOneStore(shared, shared, 'ins_same')).rejects.toThrow(/not\.toBe/);
  });
});
