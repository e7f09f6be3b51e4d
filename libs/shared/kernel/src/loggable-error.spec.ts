import { describeErrorSafely, loggableError, safeDatabaseMessage, statementName } from './loggable-error';

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

  it('keeps only the class, code, message without values, statement name, constraint and table of a database error', () => {
    const safe = loggableError(queryFailed());
    expect(safe).toMatchObject({
      type: 'QueryFailedError',
      code: '23505',
      message: 'duplicate key value violates unique constraint "api_keys_lookup_id_key"',
      statement: 'INSERT INTO "identity"."api_keys"',
      constraint: 'api_keys_lookup_id_key',
      table: 'api_keys',
    });
    const text = JSON.stringify(safe);
    for (const leaked of [secretHash, 'lk_123', 'alice@example.com', 'VALUES']) expect(text).not.toContain(leaked);
    expect(describeErrorSafely(queryFailed())).toBe('QueryFailedError 23505 in INSERT INTO "identity"."api_keys" (constraint api_keys_lookup_id_key)');
  });

  it('treats a bare driver error (pg, PGlite) the same way, and keeps other errors whole', () => {
    const driver = Object.assign(new Error('invalid input syntax for type integer: "bob@example.com"'), { code: '22P02', severity: 'ERROR' });
    expect(JSON.stringify(loggableError(driver))).not.toContain('bob@example.com');
    expect(loggableError(driver)).toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "…"' });
    expect(loggableError(new TypeError('x is not a function'))).toMatchObject({ type: 'TypeError', message: 'x is not a function' });
    expect(loggableError('boom')).toEqual({ type: 'string' });
  });

  it('keeps the names of schema objects in a database message and masks every value it quotes', () => {
    expect(safeDatabaseMessage('prepared statement "p_3f2a" already exists')).toBe('prepared statement "p_3f2a" already exists');
    expect(safeDatabaseMessage('null value in column "name" of relation "documents" violates not-null constraint')).toBe('null value in column "name" of relation "documents" violates not-null constraint');
    expect(safeDatabaseMessage('value "12345678901" is out of range for type integer')).toBe('value "…" is out of range for type integer');
    expect(safeDatabaseMessage('invalid input syntax for type uuid: "say "hello" to alice@example.com"')).toBe('invalid input syntax for type uuid: "…"');
    expect(safeDatabaseMessage('invalid byte sequence for encoding "UTF8": 0xc3 0x28')).toBe('invalid byte sequence for encoding "UTF8": 0x…');
  });

  it('names statements by verb and first table', () => {
    expect(statementName('SELECT a FROM jobs.jobs WHERE id = $1')).toBe('SELECT FROM jobs.jobs');
    expect(statementName('  update identity.users SET x = 1')).toBe('UPDATE identity.users');
    expect(statementName('WITH x AS (SELECT 1) SELECT * FROM x')).toBe('WITH FROM x');
    expect(statementName('BEGIN')).toBe('BEGIN');
  });
});
