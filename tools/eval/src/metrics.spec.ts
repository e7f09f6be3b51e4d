import { dcg, mean, ndcgAt, recallAt, reciprocalRankAt } from './metrics';

describe('ranking metrics', () => {
  it('computes DCG with exponential gain and a log2 discount', () => {
    expect(dcg([3, 2, 0, 1], 10)).toBeCloseTo(7 + 3 / Math.log2(3) + 0 + 1 / Math.log2(5), 10);
    expect(dcg([3, 3], 1)).toBe(7);
  });

  it('gives 1 to the ideal ranking, less to a worse one, 0 without relevant nodes', () => {
    expect(ndcgAt([3, 2, 1], [1, 2, 3], 10)).toBeCloseTo(1, 10);
    expect(ndcgAt([1, 2, 3], [1, 2, 3], 10)).toBeLessThan(1);
    expect(ndcgAt([0, 0, 3], [3], 10)).toBeCloseTo(0.5, 10);
    expect(ndcgAt([0, 0], [], 10)).toBe(0);
    // Relevant nodes outside the top k lower the figure: the ideal ranking would have them.
    expect(ndcgAt([3, 0], [3, 3], 10)).toBeLessThan(1);
  });

  it('counts each label once for recall, within the top k only', () => {
    expect(recallAt([new Set([0]), new Set([0, 1]), new Set()], 3, 10)).toBeCloseTo(2 / 3, 10);
    expect(recallAt([new Set(), new Set([2])], 3, 1)).toBe(0);
    expect(recallAt([], 0, 10)).toBe(0);
  });

  it('computes the reciprocal rank and the mean', () => {
    expect(reciprocalRankAt([0, 0, 2], 10)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRankAt([0, 0, 2], 2)).toBe(0);
    expect(mean([1, 0, 0.5])).toBeCloseTo(0.5, 10);
    expect(mean([])).toBe(0);
  });
});
