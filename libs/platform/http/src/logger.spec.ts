import { Writable } from 'node:stream';
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

  it("keeps Nest's start-up chatter at debug and the service's own Logger.log lines at info", () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/health, GET} route', 'RouterExplorer');
    nest.log('anthropic:claude-sonnet-4-6: 1 attempt, 812 ms, input 1200 tokens', 'LanguageModel');
    expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ level: 30, context: 'LanguageModel', msg: expect.stringContaining('1 attempt') })]);
  });
});
