import { helpText, parseInvocation, usage, UsageError } from './args';
import { redact, table } from './output';

const ORG = 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const USR = 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const KEY = 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV';

function usageError(argv: string[]): UsageError {
  try {
    parseInvocation(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('CLI arguments', () => {
  it('parses every command with typed, validated input', () => {
    expect(parseInvocation(['user', 'create', '--org', ORG, '--email', ' Sam@Example.com ', '--name', 'Sam', '--roles', 'steward, consumer,STEWARD'])).toEqual({
      kind: 'run',
      json: false,
      verbose: false,
      input: { command: 'user create', org: ORG, email: 'Sam@Example.com', name: 'Sam', roles: ['STEWARD', 'CONSUMER'] },
    });
    expect(parseInvocation(['--json', 'key', 'create', `--org=${ORG}`, '--name', 'ci', '--roles', 'CONSUMER', '--user', USR, '--expires-at', '2030-01-31T00:00:00Z'])).toMatchObject({
      json: true,
      input: { command: 'key create', org: ORG, userId: USR, expiresAt: new Date('2030-01-31T00:00:00Z') },
    });
    expect(parseInvocation(['key', 'list', '--org', ORG, '--limit', '5', '--offset', '10'])).toMatchObject({
      input: { command: 'key list', page: { offset: 10, limit: 5 } },
    });
    expect(parseInvocation(['user', 'list', '--org', ORG])).toMatchObject({ input: { page: { offset: 0, limit: 50 } } });
    expect(parseInvocation(['key', 'revoke', '--org', ORG, '--key', KEY])).toMatchObject({ input: { command: 'key revoke', keyId: KEY } });
    expect(parseInvocation(['instance', 'create', '--org', ORG, '--name', 'Handbook', '--as', USR])).toMatchObject({ input: { as: USR } });
    expect(parseInvocation(['organization', 'create', '--name', 'Acme', '--admin-email', 'ops@acme.test'])).toMatchObject({ input: { adminName: 'Administrator' } });
    expect(parseInvocation(['migrate', '--verbose'])).toEqual({ kind: 'run', json: false, verbose: true, input: { command: 'migrate' } });
    expect(parseInvocation(['bootstrap'])).toMatchObject({ input: { command: 'bootstrap' } });
    expect(parseInvocation(['full-audit', 'rescan', '--org', ORG, '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV'])).toMatchObject({ input: { command: 'full-audit rescan', org: ORG, instanceId: 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV' } });
    expect(usageError(['full-audit', 'rescan', '--org', ORG]).message).toBe('Missing --instance.');
  });

  it('recognises help in its forms', () => {
    expect(parseInvocation(['help'])).toMatchObject({ kind: 'help', topic: undefined });
    expect(parseInvocation(['--help'])).toEqual({ kind: 'help', json: false, verbose: false });
    expect(parseInvocation(['help', 'key', 'create'])).toMatchObject({ kind: 'help', topic: 'key create' });
    expect(parseInvocation(['key', 'create', '-h'])).toMatchObject({ kind: 'help', topic: 'key create' });
    expect(helpText('key')).toContain('key revoke --org ORG_ID --key KEY_ID');
    expect(() => helpText('nope')).toThrow(UsageError);
  });

  it('refuses bad usage with a message and the usage of the command concerned', () => {
    expect(usageError([]).message).toBe('No command given.');
    expect(usageError(['frobnicate']).message).toBe('Unknown command "frobnicate".');
    expect(usageError(['user']).message).toBe('`user` needs an action: create, list.');
    expect(usageError(['user', 'delete']).message).toBe('Unknown command "user delete".');
    expect(usageError(['migrate', 'now'])).toMatchObject({ message: 'Unexpected argument "now".', command: 'migrate' });
    expect(usageError(['user', 'list'])).toMatchObject({ message: 'Missing --org.', command: 'user list' });
    expect(usageError(['user', 'list', '--org', ORG, '--roles', 'ADMIN'])).toMatchObject({ message: 'Option --roles does not apply to `user list`.' });
    expect(usageError(['user', 'list', '--org', ORG, '--colour', 'red']).message).toMatch(/Unknown option '--colour'/);
    expect(usageError(['user', 'list', '--org']).command).toBe('user list');
    expect(usageError(['user', 'list', '--org', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV']).message).toBe('--org must be an id of the form org_<26-character ULID>.');
    expect(usageError(['user', 'list', '--org', ORG, '--limit', '0']).message).toBe('--limit must be an integer from 1 to 1000.');
    expect(usageError(['user', 'list', '--org', ORG, '--offset', '-1']).message).toMatch(/offset/);
  });

  it('validates values like the HTTP API does', () => {
    const base = ['user', 'create', '--org', ORG, '--name', 'Sam'];
    expect(usageError([...base, '--email', 'not-an-email', '--roles', 'ADMIN']).message).toBe('--email must be an email address.');
    expect(usageError([...base, '--email', 'a@b.test', '--roles', 'ADMIN,ORG_OWNER']).message).toMatch(/^--roles has unknown role ORG_OWNER; roles are ADMIN, /);
    expect(usageError([...base, '--email', 'a@b.test', '--roles', ' , ']).message).toMatch(/^--roles needs at least one role/);
    expect(usageError(['user', 'create', '--org', ORG, '--name', '  ', '--email', 'a@b.test', '--roles', 'ADMIN']).message).toBe('--name must not be empty.');
    expect(usageError(['user', 'create', '--org', ORG, '--name', 'x'.repeat(201), '--email', 'a@b.test', '--roles', 'ADMIN']).message).toBe('--name must be at most 200 characters.');
    expect(usageError(['key', 'create', '--org', ORG, '--name', 'k', '--roles', 'ADMIN', '--expires-at', 'tomorrow']).message).toMatch(/^--expires-at must be an ISO 8601 date-time/);
    expect(usageError(['key', 'create', '--org', ORG, '--name', 'k', '--roles', 'ADMIN', '--expires-at', '2030-02-31T00:00:00Z']).message).toMatch(/^--expires-at/);
  });

  it('writes a usage text naming every command', () => {
    const text = usage();
    for (const command of ['organization create', 'user create', 'user list', 'key create', 'key list', 'key revoke', 'instance create', 'full-audit rescan', 'migrate', 'bootstrap', 'help']) {
      expect(text).toContain(`  ${command}`);
    }
  });
});

describe('CLI output helpers', () => {
  it('redacts keys, URL passwords and configured secrets', () => {
    const secret = 'a-very-long-secret-value';
    const text = redact(`bad svc_org_abcdefghijklmnopqrstuvwxyz0123 at postgres://me:pa55w0rd@db:5432/x with ${secret}`, [secret]);
    expect(text).toBe('bad svc_…[redacted] at postgres://me:[redacted]@db:5432/x with [redacted]');
  });

  it('aligns table columns', () => {
    expect(table(['ID', 'NAME'], [['a', 'x'], ['bbb', 'y']])).toBe('ID   NAME\na    x\nbbb  y');
    expect(table(['ID'], [])).toBe('(none)');
  });
});
