/** A text cut around one span: what comes before, the span, what comes after. */
export interface Highlighted {
  before: string;
  span: string;
  after: string;
}

/**
 * Cuts `text` at [start, end) (UTF-16 offsets, as the API gives them). Offsets outside the text or
 * reversed are clamped, so a stale span never hides the excerpt; an empty span highlights nothing.
 */
export function highlight(text: string, start: number, end: number): Highlighted {
  const from = Math.max(0, Math.min(text.length, Math.floor(start)));
  const to = Math.max(from, Math.min(text.length, Math.floor(end)));
  return { before: text.slice(0, from), span: text.slice(from, to), after: text.slice(to) };
}
