import { selectPage, SqlRunner } from './paging';

describe('selectPage', () => {
  const recording = (answers: unknown[][]) => {
    const calls: { sql: string; params: unknown[] }[] = [];
    const run: SqlRunner = async (sql, params) => {
      calls.push({ sql, params });
      return answers.shift() ?? [];
    };
    return { run, calls };
  };

  it('reads a page and its total in one statement, binding offset and limit after the filter parameters', async () => {
    const { run, calls } = recording([[{ id: 'a', total: '3' }, { id: 'b', total: '3' }]]);
    const page = await selectPage(run, { from: 'FROM t WHERE org = $1', orderBy: 'created_at DESC, id DESC', params: ['org_1'] }, { offset: 0, limit: 2 }, (r: { id: string }) => r.id);
    expect(page).toEqual({ items: ['a', 'b'], total: 3, offset: 0, limit: 2 });
    expect(calls).toEqual([{ sql: 'SELECT *, count(*) OVER () AS total FROM t WHERE org = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT $3', params: ['org_1', 0, 2] }]);
  });

  it('counts separately only for a page past the end', async () => {
    const { run, calls } = recording([[], [{ n: '5' }]]);
    const page = await selectPage(run, { select: 'i.*', from: 'FROM t i WHERE i.a = $1 AND i.b = $2', orderBy: 'i.id', params: ['x', 'y'] }, { offset: 10, limit: 5 }, (r) => r);
    expect(page).toEqual({ items: [], total: 5, offset: 10, limit: 5 });
    expect(calls[0].sql).toBe('SELECT i.*, count(*) OVER () AS total FROM t i WHERE i.a = $1 AND i.b = $2 ORDER BY i.id OFFSET $3 LIMIT $4');
    expect(calls[1]).toEqual({ sql: 'SELECT count(*) AS n FROM t i WHERE i.a = $1 AND i.b = $2', params: ['x', 'y'] });
  });

  it('an empty first page is an empty list, without a second statement that could count a row committed since', async () => {
    const { run, calls } = recording([[], [{ n: '1' }]]);
    const page = await selectPage(run, { from: 'FROM t WHERE org = $1', orderBy: 'id', params: ['org_1'] }, { offset: 0, limit: 20 }, (r) => r);
    expect(page).toEqual({ items: [], total: 0, offset: 0, limit: 20 });
    expect(calls).toHaveLength(1);
  });
});
