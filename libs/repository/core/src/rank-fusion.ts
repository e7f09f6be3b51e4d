/**
 * Reciprocal rank fusion (Cormack et al., 2009): each list contributes 1 / (k + rank) for every item
 * it ranks, so an item found by both full-text and vector search rises above one found by either.
 * `k` = 60 is the customary constant. Ties are broken by id for a stable order.
 */
export function reciprocalRankFusion(lists: string[][], k = 60): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
