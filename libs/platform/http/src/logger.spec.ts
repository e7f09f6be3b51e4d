import { Writable } from 'node:stream';
import { loggableError } from '@svc/kernel';
import { createRootLogger, PinoNestLogger } from './logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { lines, logger: createRootLogger({ level: 'info', name: 'test', destination }) };
}

describe('structured logger', () => {
  it('censors credentials in headers and bodies whatever the call site logs', () => {
    const { lines, logger } = capture();
    const key = 'svc_org_AAAAAAAAAAAAAAAAbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb123456';
    logger.info({ req: { headers: { authorization: `Bearer ${key}`, cookie: 'svc_auth=abc', 'api-key': 'svc_ins_x' } }, body: { api_key: key, password: 'hunter2', code_verifier: 'v', refresh_token: 'r' } }, 'request');
    const text = lines.join('');
    for (const secret of [key, 'svc_auth=abc', 'svc_ins_x', 'hunter2', '"v"', '"r"']) expect(text).not.toContain(secret);
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'request', process: 'test', body: { api_key: '[redacted]' } });
  });

  it('shows the class, SQLSTATE and message of a failed statement, never its parameters nor a request\'s authorization code', () => {
    const { lines, logger } = capture();
    const secret = 'f0e4c2f76c58916ec258f246851bea091d14d4247a2fc3e18694461b1816e13b';
    const failed = Object.assign(new Error('prepared statement "p_12" already exists'), {
      name: 'QueryFailedError',
      query: 'SELECT * FROM identity.api_keys WHERE secret_hash = $1',
      parameters: [secret],
      driverError: Object.assign(new Error('prepared statement "p_12" already exists'), { code: '42P05', severity: 'ERROR' }),
    });
    // The exception filter's line, Nest's logger, and a request whose body carries an OAuth code.
    logger.error({ err: loggableError(failed), requestId: 'r-1' }, 'Unhandled error');
    new PinoNestLogger(logger).error(failed);
    logger.warn({ body: { grant_type: 'authorization_code', code: 'oauth-code-secret', client_secret: 'client-secret-value' }, res: { headers: { location: 'https://app.example/cb?code=oauth-code-secret' } } }, 'request');
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries[0].err).toMatchObject({ type: 'QueryFailedError', code: '42P05', message: 'prepared statement "p_12" already exists', statement: 'SELECT FROM identity.api_keys' });
    expect(entries[1].err).toMatchObject({ type: 'QueryFailedError', code: '42P05' });
    const text = lines.join('');
    for (const hidden of [secret, 'oauth-code-secret', 'client-secret-value']) expect(text).not.toContain(hidden);
  });

  it("keeps Nest's start-up chatter at debug and the service's own Logger.log lines at info", () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/health, GET} route', 'RouterExplorer');
    nest.log('anthropic:claude-sonnet-4-6: 1 attempt, 812 ms, input 1200 tokens', 'LanguageModel');
    expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ level: 30, context: 'LanguageModel', msg: expect.stringContaining('1 attempt') })]);
  });
});
