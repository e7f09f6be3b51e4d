/** Search parameters of the list views, read leniently: anything unexpected is dropped, never an error page. */

export function pageParam(value: unknown): number | undefined {
  const page = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(page) && page > 1 && page <= 10_000 ? page : undefined;
}

export function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function flag(value: unknown): true | undefined {
  return value === true || value === 'true' ? true : undefined;
}
