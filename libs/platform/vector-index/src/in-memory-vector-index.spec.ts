import { InMemoryVectorIndex } from './in-memory-vector-index';
import { vectorIndexContract } from './testing/vector-index.contract';
import { versionAtLeast } from './vector-index.factory';

vectorIndexContract('InMemoryVectorIndex', async () => ({ index: new InMemoryVectorIndex(), exact: true }));

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
