/** "weigh" and "weight", "refund" and "refundable": one stem starts the other (four letters at least, at most four apart). */
export function hasRelated(stems: ReadonlySet<string>, s: string): boolean {
  if (stems.has(s)) return true;
  if (s.length < 4) return false;
  for (const other of stems) {
    if (other.length >= 4 && (other.startsWith(s) || s.startsWith(other)) && Math.abs(other.length - s.length) <= 4) return true;
  }
  return false;
}
