/** Rows per page of every list: the API pages them (offset, limit), the app never loads a list whole. */
export const PAGE_SIZE = 20;

export function offsetOf(page: number | undefined): number {
  return ((page ?? 1) - 1) * PAGE_SIZE;
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}
