import type { SqlRunner } from './paging';

/**
 * Optimistic concurrency for rows experts edit concurrently (ARCHITECTURE.md §6): the row changes only
 * if its `version` is still the one the caller read, and the version moves on by one. False when
 * another edit won the race (the caller answers 409) or the row is gone. `changes` maps column names
 * (written by the repository, never by a client) to values.
 */
export async function updateVersioned(run: SqlRunner, table: string, key: { id: string; version: number }, changes: Record<string, unknown>): Promise<boolean> {
  const columns = Object.keys(changes);
  const sets = columns.map((column, i) => `${column} = $${i + 3}`);
  // Through a CTE: TypeORM reports a bare UPDATE ... RETURNING differently per driver (ADR 0012).
  const rows = await run(
    `WITH updated AS (UPDATE ${table} SET ${[...sets, 'version = version + 1'].join(', ')} WHERE id = $1 AND version = $2 RETURNING id) SELECT id FROM updated`,
    [key.id, key.version, ...columns.map((c) => changes[c])],
  );
  return rows.length === 1;
}
