import type { Page, PageRequest } from '@svc/kernel';

/** Runs one SQL statement with positional parameters and returns its rows (a repository's `manager().query`). */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<unknown[]>;

export interface PageQuery {
  /** Columns; `*` by default. */
  select?: string;
  /** `FROM ... [JOIN ...] WHERE ...`, with `$1...$n` bound to `params`. */
  from: string;
  /** A total order (end with a unique column), so pages do not overlap while rows are added. */
  orderBy: string;
  params: unknown[];
}

/**
 * One page of a list and the total, in one round trip: the rows carry `count(*) OVER ()`. A page past
 * the end has no row to carry it, and only then is the total counted separately (an empty first page
 * is a total of 0, so a row committed between two statements cannot give a total without items). Every list of the
 * repositories goes through here (offset pagination, BEHAVIOUR.md).
 */
export async function selectPage<Row, Item>(run: SqlRunner, query: PageQuery, page: PageRequest, toItem: (row: Row) => Item): Promise<Page<Item>> {
  const next = query.params.length;
  const rows = (await run(
    `SELECT ${query.select ?? '*'}, count(*) OVER () AS total ${query.from} ORDER BY ${query.orderBy} OFFSET $${next + 1} LIMIT $${next + 2}`,
    [...query.params, page.offset, page.limit],
  )) as (Row & { total: string | number })[];
  if (rows.length > 0) return { items: rows.map(toItem), total: Number(rows[0].total), offset: page.offset, limit: page.limit };
  // An empty first page is an empty list: counting again could see a row committed since, a total with no item.
  const total = page.offset === 0 ? 0 : Number(((await run(`SELECT count(*) AS n ${query.from}`, query.params)) as { n: string | number }[])[0]?.n ?? 0);
  return { items: [], total, offset: page.offset, limit: page.limit };
}

/**
 * The conditions of a list's WHERE clause and their positional parameters, added one filter at a
 * time: `add((n) => \`state = ANY($${n})\`, states)` binds the value to the next `$n`.
 */
export class SqlConditions {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  constructor(first: (n: number) => string, value: unknown) {
    this.add(first, value);
  }

  add(clause: (n: number) => string, value: unknown): this {
    this.params.push(value);
    this.clauses.push(clause(this.params.length));
    return this;
  }

  /** A condition with no parameter. */
  also(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  get where(): string {
    return this.clauses.join(' AND ');
  }
}
