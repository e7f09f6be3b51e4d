import { SqlConditions } from './paging';

describe('SqlConditions', () => {
  it('numbers each parameter in the order the filters are added, and keeps conditions without one', () => {
    const where = new SqlConditions((n) => `instance_id = $${n}`, 'ki_1').add((n) => `state = ANY($${n})`, ['OPEN']).also('is_important').add((n) => `document_ids && $${n}::text[]`, ['kd_1']);
    expect(where.where).toBe('instance_id = $1 AND state = ANY($2) AND is_important AND document_ids && $3::text[]');
    expect(where.params).toEqual(['ki_1', ['OPEN'], ['kd_1']]);
  });
});
