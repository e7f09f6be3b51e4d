/** The vector scaled to unit length; the zero vector stays zero (it has no direction to keep). */
export function l2Normalize(vector: readonly number[]): number[] {
  let sq = 0;
  for (const x of vector) sq += x * x;
  if (sq === 0) return vector.map(() => 0);
  const inv = 1 / Math.sqrt(sq);
  return vector.map((x) => x * inv);
}
