import { Logger } from '@nestjs/common';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createRootLogger, PinoNestLogger } from '@svc/http';
import { IssueOAuthTokens } from '@svc/identity-core';
import type { Request, Response } from 'express';
import { basicCredentials, boundedParameters, IdentityOAuthProvider } from './oauth-server';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

describe('client_secret_basic credentials', () => {
  it('reads the percent-encoded id and secret, and leaves other schemes to the body', () => {
    expect(basicCredentials(basic('client%3A1:s%C3%A9cret%25'))).toEqual({ clientId: 'client:1', clientSecret: 'sécret%' });
    expect(basicCredentials(undefined)).toBeUndefined();
    expect(basicCredentials('Bearer abc')).toBeUndefined();
  });

  it.each([
    ['a bad percent-escape in the id', basic('%zz:secret')],
    ['a bad percent-escape in the secret', basic('client:%E0%A4%A')],
    ['a lone percent sign', basic('client:100%')],
    ['a NUL in the id', basic('cli%00ent:secret')],
    ['a raw NUL in the secret', basic('client:sec\u0000ret')],
    ['a bidi override in the id', basic('client%E2%80%AE:secret')],
    ['no colon', basic('client-secret')],
    ['an empty id', basic(':secret')],
    ['a secret over its bound', basic(`client:${'s'.repeat(257)}`)],
    ['no base64', 'Basic ***'],
    ['nothing after the scheme', 'Basic'],
  ])('refuses %s as invalid_client, never an exception of its own', (_name, header) => {
    expect(() => basicCredentials(header)).toThrow(InvalidClientError);
  });
});

describe('OAuth parameter bounds', () => {
  function run(query: Record<string, unknown>, body: unknown) {
    const answer: { status?: number; json?: unknown; next: boolean; headers: Record<string, string> } = { next: false, headers: {} };
    const res = {
      setHeader: (name: string, value: string) => (answer.headers[name] = value),
      status: (status: number) => ((answer.status = status), res),
      json: (json: unknown) => (answer.json = json),
    };
    boundedParameters({ query, body } as unknown as Request, res as unknown as Response, () => (answer.next = true));
    return answer;
  }

  it('lets ordinary requests through', () => {
    expect(run({ client_id: 'c1', scope: 'audit:read audit:write', state: 's'.repeat(1024), redirect_uri: 'http://127.0.0.1:6000/cb' }, {}).next).toBe(true);
    expect(run({}, { grant_type: 'authorization_code', code: 'c'.repeat(43), code_verifier: 'v'.repeat(128) }).next).toBe(true);
  });

  it('answers 400 invalid_request naming the parameter over its bound, repeated or not a string', () => {
    expect(run({ scope: 'audit:read '.repeat(90_000) }, {})).toMatchObject({ next: false, status: 400, json: { error: 'invalid_request', error_description: 'scope is longer than 512 characters, the limit of this server.' }, headers: { 'Cache-Control': 'no-store' } });
    expect(run({}, { state: 'x'.repeat(1025) })).toMatchObject({ status: 400, json: { error_description: 'state is longer than 1024 characters, the limit of this server.' } });
    expect(run({ client_id: ['a', 'b'] }, {})).toMatchObject({ status: 400, json: { error_description: 'client_id must be given once.' } });
    expect(run({}, { grant_type: { $ne: 1 } })).toMatchObject({ status: 400, json: { error_description: 'grant_type must be a string.' } });
    expect(run({ ['<script>'.repeat(3)]: 'x'.repeat(300) }, {})).toMatchObject({ status: 400, json: { error_description: 'A parameter is longer than 256 characters, the limit of this server.' } });
    expect(run(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, 'x'])), {})).toMatchObject({ status: 400 });
  });
});

describe('unexpected errors at the token endpoint', () => {
  const lines: string[] = [];
  beforeAll(() => Logger.overrideLogger(new PinoNestLogger(createRootLogger({ level: 'info', name: 'test', destination: { write: (line: string) => lines.push(line) } }))));
  afterAll(() => Logger.overrideLogger(false));

  it('logs the class, SQLSTATE and message of a failed statement before the SDK answers server_error, never the code sent', async () => {
    const code = 'Zb7Qm2x9LrT4-authorization-code-value';
    const failure = Object.assign(new Error('prepared statement "p_7" already exists'), {
      name: 'QueryFailedError',
      query: 'SELECT * FROM identity.oauth_codes WHERE code_hash = $1',
      parameters: [code],
      driverError: Object.assign(new Error('prepared statement "p_7" already exists'), { code: '42P05', severity: 'ERROR' }),
    });
    const issue = { exchangeCode: () => Promise.reject(failure) } as unknown as IssueOAuthTokens;
    const provider = new IdentityOAuthProvider(...([{}, {}, issue, {}, {}, {}, {}, {}, {}, {}, {}] as unknown as ConstructorParameters<typeof IdentityOAuthProvider>));
    await expect(provider.exchangeAuthorizationCode({ client_id: 'c1' } as OAuthClientInformationFull, code)).rejects.toBe(failure);
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged).toEqual([expect.objectContaining({ level: 50, msg: 'OAuth request failed', err: expect.objectContaining({ type: 'QueryFailedError', code: '42P05', message: 'prepared statement "p_7" already exists' }) })]);
    expect(lines.join('')).not.toContain(code);
  });
});
