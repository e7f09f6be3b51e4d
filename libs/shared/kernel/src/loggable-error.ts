/**
 * What of an error may reach a log. A database error carries its SQL and its parameters (e-mails,
 * document names, search queries, key hashes), and its message may quote a value
 * (`invalid input syntax for type integer: "…"`): of it only the class, the SQLSTATE code, the
 * constraint and table names, the statement's name (`INSERT INTO identity.api_keys`) and its message
 * with every quoted value masked (`safeDatabaseMessage`) are kept, never parameters, query text or
 * detail. Other errors keep their class, code, message and stack.
 */
export interface LoggableError {
  type: string;
  code?: string;
  message?: string;
  statement?: string;
  constraint?: string;
  table?: string;
  stack?: string;
}

interface ErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  stack?: unknown;
  query?: unknown;
  parameters?: unknown;
  driverError?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
}

export function loggableError(error: unknown): LoggableError {
  if (typeof error !== 'object' || error === null) return { type: typeof error };
  const e = error as ErrorFields;
  const type = typeof e.name === 'string' ? e.name : 'Error';
  if (isDatabaseError(e)) {
    const driver = (typeof e.driverError === 'object' && e.driverError !== null ? e.driverError : e) as ErrorFields;
    const message = typeof driver.message === 'string' ? driver.message : e.message;
    return {
      type,
      ...(typeof driver.code === 'string' ? { code: driver.code } : {}),
      ...(typeof message === 'string' ? { message: safeDatabaseMessage(message) } : {}),
      ...(typeof e.query === 'string' ? { statement: statementName(e.query) } : {}),
      ...(typeof driver.constraint === 'string' ? { constraint: driver.constraint } : {}),
      ...(typeof driver.table === 'string' ? { table: driver.table } : {}),
      ...(typeof e.stack === 'string' ? { stack: framesOnly(e.stack) } : {}),
    };
  }
  return {
    type,
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: String(e.code) } : {}),
    ...(typeof e.message === 'string' ? { message: e.message } : {}),
    ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
  };
}

/** One line for a job's last error or a warning: `QueryFailedError 23505 in INSERT INTO x` for database errors. */
export function describeErrorSafely(error: unknown): string {
  const safe = loggableError(error);
  const database = typeof error === 'object' && error !== null && isDatabaseError(error as ErrorFields);
  if (safe.message !== undefined && !database) return safe.message || safe.type;
  return [safe.type, safe.code, safe.statement ? `in ${safe.statement}` : undefined, safe.constraint ? `(constraint ${safe.constraint})` : undefined].filter(Boolean).join(' ');
}

/** The words after which PostgreSQL quotes a name of the schema (a relation, a constraint...), never a value. */
const NAME_BEFORE_QUOTE = /\b(?:relation|table|column|constraint|index|schema|type|function|statement|cursor|portal|savepoint|database|role|sequence|view|extension|operator|encoding|parameter|trigger|collation|domain|channel)\s+$/i;

/**
 * A database error's message with the values it may quote masked: a quoted text is kept only after a
 * word that names a schema object (`relation "x"`, `constraint "x"`, `prepared statement "p_1"`);
 * any other (`value "…" is out of range`) becomes `"…"`, and so does everything after `: "`
 * (`invalid input syntax for type integer: "…"`, whose value may hold quotes) and byte dumps (`0x00`).
 * At most 300 characters.
 */
export function safeDatabaseMessage(message: string): string {
  // A value quoted last (`...: "a"b"`) may hold quotes itself: everything after `: "` goes.
  const tail = message.replace(/:\s*"[\s\S]*$/, ': "…"');
  const masked = tail.replace(/"(?:[^"]|"")*"/g, (quoted, offset: number) => (NAME_BEFORE_QUOTE.test(tail.slice(Math.max(0, offset - 40), offset)) ? quoted : '"…"'));
  return masked.replace(/\b0x[0-9a-f]+(?:\s+0x[0-9a-f]+)*/gi, '0x…').slice(0, 300);
}

/** A driver or ORM error about a statement: TypeORM's QueryFailedError, pg's and PGlite's DatabaseError. */
function isDatabaseError(e: ErrorFields): boolean {
  return 'query' in e || 'parameters' in e || 'driverError' in e || (typeof e.severity === 'string' && typeof e.code === 'string');
}

/** `INSERT INTO identity.api_keys`, `SELECT FROM jobs.jobs`, `WITH`: the verb and the first table. */
export function statementName(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const table = /\b(into|from|update)\s+("?[\w]+"?(?:\."?[\w]+"?)?)/i.exec(sql);
  if (!table) return verb;
  const keyword = table[1].toUpperCase();
  return keyword === verb ? `${verb} ${table[2]}` : `${verb} ${keyword === 'UPDATE' ? '' : `${keyword} `}${table[2]}`.replace(/\s+/g, ' ');
}

/** The stack without its first line(s), which repeat the message. */
function framesOnly(stack: string): string {
  const at = stack.indexOf('\n    at ');
  return at === -1 ? '' : stack.slice(at + 1);
}
