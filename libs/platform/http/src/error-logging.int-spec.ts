import { ArgumentsHost } from '@nestjs/common';
import { createTestDatabase, TestDatabase } from '@svc/test-kit';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { PlatformExceptionFilter } from './exception.filter';
import { PinoNestLogger } from './logger';
import { Logger } from '@nestjs/common';

/**
 * Real database errors, with the personal and secret values a request would carry as parameters, go
 * through the paths that log errors (the exception filter, Nest's logger): the log names the failure
 * (class, SQLSTATE code, statement) and holds none of the values.
 */
describe('error logging never writes a statement parameter', () => {
  let testDb: TestDatabase;
  let dataSource: DataSource;
  const lines: string[] = [];
  const SENT = {
    email: 'alice.martin@example.com',
    documentName: 'Confidential merger plan.docx',
    query: 'how much is the CEO paid',
    lookupId: 'lk_Zb7Qm2x9LrT4',
    secretHash: 'f0e4c2f76c58916ec258f246851bea091d14d4247a2fc3e18694461b1816e13b',
  };

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    dataSource = new DataSource({ type: 'postgres', url: testDb.env.DATABASE_URL });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE api_keys (lookup_id text PRIMARY KEY, secret_hash text NOT NULL, created integer)');
    await dataSource.query('INSERT INTO api_keys VALUES ($1, $2, 1)', [SENT.lookupId, SENT.secretHash]);
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
    Logger.overrideLogger(new PinoNestLogger(logger));
  });

  afterAll(async () => {
    Logger.overrideLogger(false);
    await dataSource?.destroy();
    await testDb?.drop();
  });

  async function failure(sql: string, parameters: unknown[]): Promise<unknown> {
    try {
      await dataSource.query(sql, parameters);
    } catch (error) {
      return error;
    }
    throw new Error('the statement was expected to fail');
  }

  it('logs the class, code and statement of failed statements, never their parameters or the values their messages quote', async () => {
    const errors = [
      // A unique violation on an instance-key insert (its message names the constraint; its detail quotes the key).
      await failure('INSERT INTO api_keys (lookup_id, secret_hash) VALUES ($1, $2)', [SENT.lookupId, SENT.secretHash]),
      // A type error whose message quotes the value.
      await failure('INSERT INTO api_keys (lookup_id, secret_hash, created) VALUES ($1, $2, $3)', [SENT.documentName, SENT.email, SENT.query]),
      await failure('SELECT * FROM missing_table WHERE name = $1 AND query = $2', [SENT.email, SENT.query]),
    ];
    const filter = new PlatformExceptionFilter();
    const response = { status: () => response, setHeader: () => response, type: () => response, send: () => response, json: () => response, headersSent: false };
    const host = { switchToHttp: () => ({ getRequest: () => ({ requestId: 'req-1', headers: {} }), getResponse: () => response }) } as unknown as ArgumentsHost;
    for (const error of errors) {
      filter.catch(error, host);
      new Logger('Some context').error(error);
    }
    const log = lines.join('');
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(log).toContain('QueryFailedError');
    expect(log).toContain('23505');
    expect(log).toContain('22P02');
    expect(log).toContain('INSERT INTO api_keys');
    for (const value of Object.values(SENT)) expect(log).not.toContain(value);
  });
});
