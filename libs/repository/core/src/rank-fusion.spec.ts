import { reciprocalRankFusion } from './rank-fusion';

describe('reciprocalRankFusion', () => {
  it('ranks an item found by both lists above items found by one', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['d', 'b', 'e']]);
    expect(fused[0].id).toBe('b');
    expect(fused[0].score).toBeCloseTo(2 / 62);
  });

  it('keeps the order of a single list and breaks ties by id', () => {
    expect(reciprocalRankFusion([['x', 'y']]).map((r) => r.id)).toEqual(['x', 'y']);
    expect(reciprocalRankFusion([['b'], ['a']]).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('handles empty input', () => {
    expect(reciprocalRankFusion([[], []])).toEqual([]);
  });
});
