export const PAGINATION = { defaultLimit: 50, maxLimit: 1000, maxOffset: 100000 } as const;

export interface PageRequest {
  offset: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

export function pageRequest(offset?: number, limit?: number): PageRequest {
  return { offset: offset ?? 0, limit: limit ?? PAGINATION.defaultLimit };
}

export function mapPage<T, U>(page: Page<T>, fn: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(fn) };
}
