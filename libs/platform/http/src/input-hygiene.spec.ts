import { inputProblem, MAX_BODY_DEPTH } from './input-hygiene';

describe('inputProblem', () => {
  it('accepts ordinary bodies, query strings and the deepest allowed nesting', () => {
    expect(inputProblem({ name: 'Été 2026 – 😀', tags: ['a', 'b'], extra: { nested: [1, { x: null }] } }, '')).toBeUndefined();
    expect(inputProblem({}, 'query')).toBeUndefined();
    expect(inputProblem(undefined, '')).toBeUndefined();
    let nested: unknown = 1;
    for (let i = 0; i < MAX_BODY_DEPTH; i += 1) nested = { a: nested };
    expect(inputProblem(nested, '')).toBeUndefined();
  });

  it('names the field where nesting goes past the limit, without overflowing on 100,000 levels', () => {
    let nested: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) nested = i % 2 ? { a: nested } : [nested];
    const problem = inputProblem({ name: nested }, '');
    expect(problem?.field).toMatch(/^name/);
    expect(problem?.message).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('names a string holding a NUL character or a lone surrogate, in values, arrays and keys', () => {
    expect(inputProblem({ name: 'a\u0000b' }, '')).toEqual({ field: 'name', message: 'name must not contain a NUL character (\\u0000)' });
    expect(inputProblem({ items: ['ok', '\ud800'] }, '')).toEqual({ field: 'items[1]', message: 'items[1] must be valid Unicode text (it holds a lone surrogate)' });
    expect(inputProblem({ extra: { 'k\u0000': 1 } }, '')?.field).toBe('extra.k\\u0000');
    expect(inputProblem({ user: 'x' }, '')).toBeUndefined();
    expect(inputProblem('\udc00', '')?.field).toBe('body');
    expect(inputProblem({ client_id: 'a\u0000' }, 'query')?.field).toBe('query.client_id');
  });

  it('refuses prototype keys at any depth as unknown fields', () => {
    expect(inputProblem(JSON.parse('{"name":"x","__proto__":{"admin":true}}'), '')).toEqual({ field: '__proto__', message: 'property __proto__ should not exist' });
    expect(inputProblem({ extraproperties: JSON.parse('{"constructor":{"prototype":{}}}') }, '')?.field).toBe('extraproperties.constructor');
    expect(inputProblem({ a: [{ prototype: 1 }] }, '')?.field).toBe('a[0].prototype');
  });
});
