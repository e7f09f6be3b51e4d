/**
 * Ranking metrics over graded relevance. Relevance is judged per node: a node's grade is the highest
 * grade of the labels it satisfies (document + verbatim phrase), 0 when it satisfies none.
 */

/** Discounted cumulative gain of a ranked list of grades, exponential gain (2^g - 1), log2 discount. */
export function dcg(grades: number[], k: number): number {
  return grades.slice(0, k).reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0);
}

/**
 * nDCG@k: the ranking's DCG over the DCG of the best possible ranking of every relevant node of the
 * corpus (`allGrades`: the grades of all nodes with a grade above 0). 0 when nothing is relevant.
 */
export function ndcgAt(rankedGrades: number[], allGrades: number[], k: number): number {
  const ideal = dcg([...allGrades].sort((a, b) => b - a), k);
  return ideal === 0 ? 0 : dcg(rankedGrades, k) / ideal;
}

/** Share of the labels satisfied by at least one of the top-k nodes (a label found twice counts once). */
export function recallAt(rankedLabelSets: Set<number>[], labelCount: number, k: number): number {
  if (labelCount === 0) return 0;
  const found = new Set<number>();
  for (const labels of rankedLabelSets.slice(0, k)) for (const label of labels) found.add(label);
  return found.size / labelCount;
}

/** 1 / rank of the first node with a grade above 0 in the top k, else 0. */
export function reciprocalRankAt(rankedGrades: number[], k: number): number {
  const index = rankedGrades.slice(0, k).findIndex((g) => g > 0);
  return index === -1 ? 0 : 1 / (index + 1);
}

export const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
