/**
 * Figures of the question analysis (ANALYSIS.md §8): the decision "conflict raised" as a binary
 * classifier, `REFUSED` accuracy, and how well answer groups separate documents that give different
 * answers (pairwise over the documents of each question).
 */

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export function confusion(pairs: readonly { expected: boolean; predicted: boolean }[]): Confusion {
  const c: Confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (const { expected, predicted } of pairs) {
    if (expected && predicted) c.tp++;
    else if (!expected && predicted) c.fp++;
    else if (!expected && !predicted) c.tn++;
    else c.fn++;
  }
  return c;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function classification(c: Confusion) {
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  const denominator = Math.sqrt((c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn));
  return {
    precision,
    recall,
    specificity: ratio(c.tn, c.tn + c.fp),
    f1: ratio(2 * precision * recall, precision + recall),
    // Matthews correlation: 0 for a constant classifier (the "always conflict" baseline), by convention.
    mcc: denominator === 0 ? 0 : (c.tp * c.tn - c.fp * c.fn) / denominator,
  };
}

/**
 * Pairwise agreement of a grouping with the truth over the same items: a pair is positive when both
 * items are in one group. Items absent from the prediction count as singletons (no pair found).
 */
export interface PairCounts {
  tp: number;
  fp: number;
  fn: number;
}

export function pairCounts(truth: ReadonlyMap<string, string>, predicted: ReadonlyMap<string, string>): PairCounts {
  const items = [...truth.keys()].sort();
  const counts: PairCounts = { tp: 0, fp: 0, fn: 0 };
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const same = truth.get(items[i]) === truth.get(items[j]);
      const a = predicted.get(items[i]);
      const b = predicted.get(items[j]);
      const together = a !== undefined && a === b;
      if (same && together) counts.tp++;
      else if (!same && together) counts.fp++;
      else if (same && !together) counts.fn++;
    }
  }
  return counts;
}

export function pairF1(counts: PairCounts): { precision: number; recall: number; f1: number } {
  const precision = ratio(counts.tp, counts.tp + counts.fp);
  const recall = ratio(counts.tp, counts.tp + counts.fn);
  return { precision, recall, f1: ratio(2 * precision * recall, precision + recall) };
}

export function addPairs(a: PairCounts, b: PairCounts): PairCounts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn };
}
