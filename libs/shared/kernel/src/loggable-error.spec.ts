import { describeErrorSafely, loggableError, statementName } from './loggable-error';

describe('loggableError', () => {
  const secretHash = 'c2VjcmV0LWhhc2gtdGhhdC1tdXN0LW5vdC1sZWFr';
  /** What TypeORM throws: its message and driver error quote the statement and, for some errors, a value. */
  function queryFailed(): Error {
    const driverError = Object.assign(new Error(`duplicate key value violates unique constraint "api_keys_lookup_id_key"`), {
      code: '23505', severity: 'ERROR', constraint: 'api_keys_lookup_id_key', table: 'api_keys', detail: `Key (lookup_id)=(lk_123) already exists.`,
    });
    return Object.assign(new Error(`invalid input syntax for type uuid: "alice@example.com"`), {
      name: 'QueryFailedError',
      query: 'INSERT INTO "identity"."api_keys" ("lookup_id", "secret_hash") VALUES ($1, $2)',
      parameters: ['lk_123', secretHash],
      driverError,
    });
  }

  it('keeps only the class, code, statement name, constraint and table of a database error', () => {
    const safe = loggableError(queryFailed());
    expect(safe).toMatchObject({ type: 'QueryFailedError', code: '23505', statement: 'INSERT INTO "identity"."api_keys"', constraint: 'api_keys_lookup_id_key', table: 'api_keys' });
    const text = JSON.stringify(safe);
    for (const leaked of [secretHash, 'lk_123', 'alice@example.com', 'VALUES']) expect(text).not.toContain(leaked);
    expect(describeErrorSafely(queryFailed())).toBe('QueryFailedError 23505 in INSERT INTO "identity"."api_keys" (constraint api_keys_lookup_id_key)');
  });

  it('treats a bare driver error (pg, PGlite) the same way, and keeps other errors whole', () => {
    const driver = Object.assign(new Error('invalid input syntax for type integer: "bob@example.com"'), { code: '22P02', severity: 'ERROR' });
    expect(JSON.stringify(loggableError(driver))).not.toContain('bob@example.com');
    expect(loggableError(new TypeError('x is not a function'))).toMatchObject({ type: 'TypeError', message: 'x is not a function' });
    expect(loggableError('boom')).toEqual({ type: 'string' });
  });

  it('names statements by verb and first table', () => {
    expect(statementName('SELECT a FROM jobs.jobs WHERE id = $1')).toBe('SELECT FROM jobs.jobs');
    expect(statementName('  update identity.users SET x = 1')).toBe('UPDATE identity.users');
    expect(statementName('WITH x AS (SELECT 1) SELECT * FROM x')).toBe('WITH FROM x');
    expect(statementName('BEGIN')).toBe('BEGIN');
  });
});
