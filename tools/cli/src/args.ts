import { parseArgs } from 'node:util';
import { IdPrefix, isId, isRole, PAGINATION, PageRequest, Role, ROLES } from '@svc/kernel';
import { isEmail, isISO8601 } from 'class-validator';

/** Bad command line: the CLI prints the message and the usage text, and exits with 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command the usage text should describe; the general usage when absent. */
    readonly command?: CommandName,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

type OptionName = 'org' | 'name' | 'admin-email' | 'admin-name' | 'email' | 'roles' | 'user' | 'expires-at' | 'key' | 'as' | 'limit' | 'offset' | 'job' | 'instance' | 'queue' | 'state';

const PLACEHOLDERS: Record<OptionName, string> = {
  org: 'ORG_ID',
  name: 'NAME',
  'admin-email': 'EMAIL',
  'admin-name': 'NAME',
  email: 'EMAIL',
  roles: 'ROLE[,ROLE...]',
  user: 'USER_ID',
  'expires-at': 'ISO_DATE',
  key: 'KEY_ID',
  as: 'USER_ID',
  limit: 'N',
  offset: 'N',
  job: 'JOB_ID',
  instance: 'INSTANCE_ID',
  queue: 'JOB_NAME',
  state: 'queued|running|completed|failed',
};

interface CommandSpec {
  summary: string;
  required: OptionName[];
  optional: OptionName[];
  details?: string[];
}

/** Every command, in the order the help lists them. */
export const COMMANDS = {
  'organization create': {
    summary: 'Create an organisation with an admin person and an admin API key (printed once).',
    required: ['name', 'admin-email'],
    optional: ['admin-name'],
    details: ['--admin-name defaults to "Administrator". Needs a bootstrapped installation (run `bootstrap` or start the service once).'],
  },
  'user create': {
    summary: 'Add a person to an organisation with organisation roles.',
    required: ['org', 'email', 'name', 'roles'],
    optional: [],
  },
  'user list': {
    summary: 'List the members (people and service accounts) of an organisation, newest first.',
    required: ['org'],
    optional: ['limit', 'offset'],
  },
  'key create': {
    summary: 'Create an organisation API key; the raw key is printed once and never again.',
    required: ['org', 'name', 'roles'],
    optional: ['user', 'expires-at'],
    details: ['Without --user the key acts as a new service account named after the key.', '--expires-at takes an ISO 8601 date-time in the future, e.g. 2030-01-31T00:00:00Z.'],
  },
  'key list': {
    summary: 'List the API keys of an organisation (never their secrets), newest first.',
    required: ['org'],
    optional: ['limit', 'offset'],
  },
  'key revoke': {
    summary: 'Revoke an API key (idempotent). Running services stop accepting it within API_KEY_CACHE_SECONDS.',
    required: ['org', 'key'],
    optional: [],
  },
  'instance create': {
    summary: 'Create an audit instance as a user of the organisation, who becomes its admin.',
    required: ['org', 'name', 'as'],
    optional: [],
    details: ['The user needs a role allowed to create instances (ADMIN or AUTHORITY_MANAGER), as over the API.'],
  },
  'full-audit rescan': {
    summary: "Queue a full rescan of an audit instance's full audit: every document changed since it was read (or read by an older claim reader) read again, the repository judged as a whole.",
    required: ['org', 'instance'],
    optional: [],
    details: [
      'The instance must be in RUNNING_PHASE. A scan already queued is not queued twice. The service\'s workers run it;',
      'follow it with `jobs get --job JOB_ID` or audit_full_audit_have_to_show. Scans also run every FULL_AUDIT_RESCAN_HOURS.',
    ],
  },
  'jobs list': {
    summary: 'List background jobs with their state and progress, newest first.',
    required: [],
    optional: ['queue', 'state', 'limit'],
  },
  'jobs get': {
    summary: 'Show one background job: state, attempts, progress and last error.',
    required: ['job'],
    optional: [],
  },
  migrate: {
    summary: 'Apply pending database migrations and list them.',
    required: [],
    optional: [],
  },
  bootstrap: {
    summary: 'First-start installation from BOOTSTRAP_* variables (organisation, admin, admin key); a no-op once installed.',
    required: [],
    optional: [],
  },
} satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];
const GROUPS = [...new Set(COMMAND_NAMES.filter((c) => c.includes(' ')).map((c) => c.split(' ')[0]))];

export type CliCommand =
  | { command: 'organization create'; name: string; adminEmail: string; adminName: string }
  | { command: 'user create'; org: string; email: string; name: string; roles: Role[] }
  | { command: 'user list'; org: string; page: PageRequest }
  | { command: 'key create'; org: string; name: string; roles: Role[]; userId?: string; expiresAt?: Date }
  | { command: 'key list'; org: string; page: PageRequest }
  | { command: 'key revoke'; org: string; keyId: string }
  | { command: 'instance create'; org: string; name: string; as: string }
  | { command: 'full-audit rescan'; org: string; instanceId: string }
  | { command: 'jobs list'; queue?: string; state?: JobState; limit: number }
  | { command: 'jobs get'; jobId: string }
  | { command: 'migrate' }
  | { command: 'bootstrap' };

export interface GlobalFlags {
  json: boolean;
  verbose: boolean;
}

export type Invocation = ({ kind: 'help'; topic?: CommandName | string } | { kind: 'run'; input: CliCommand }) & GlobalFlags;

const PARSE_OPTIONS = {
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...(Object.fromEntries(Object.keys(PLACEHOLDERS).map((name) => [name, { type: 'string' }])) as Record<OptionName, { type: 'string' }>),
} as const;

/** Parses argv (without `node main.js`) into a validated command. Throws UsageError. Never touches the database. */
export function parseInvocation(argv: readonly string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: PARSE_OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2).join(' ');
    throw new UsageError(error instanceof Error ? error.message : String(error), isCommand(words) ? words : undefined);
  }
  const { values, positionals } = parsed;
  const flags: GlobalFlags = { json: values.json === true, verbose: values.verbose === true };

  if (positionals.length === 0) {
    if (values.help) return { kind: 'help', ...flags };
    throw new UsageError('No command given.');
  }
  if (positionals[0] === 'help') return { kind: 'help', topic: positionals.slice(1).join(' ') || undefined, ...flags };

  const command = commandOf(positionals);
  if (values.help) return { kind: 'help', topic: command, ...flags };

  const spec: CommandSpec = COMMANDS[command];
  const allowed = new Set<string>([...spec.required, ...spec.optional, 'json', 'verbose', 'help']);
  for (const name of Object.keys(values)) {
    if (!allowed.has(name)) throw new UsageError(`Option --${name} does not apply to \`${command}\`.`, command);
  }
  const missing = spec.required.filter((name) => values[name] === undefined);
  if (missing.length > 0) throw new UsageError(`Missing ${missing.map((m) => `--${m}`).join(', ')}.`, command);

  const options = values as Partial<Record<OptionName, string>>;
  return { kind: 'run', input: toCommand(command, new OptionReader(command, options)), ...flags };
}

function isCommand(words: string): words is CommandName {
  return (COMMAND_NAMES as string[]).includes(words);
}

function commandOf(positionals: string[]): CommandName {
  const [first, second, ...rest] = positionals;
  if (isCommand(first)) {
    if (second !== undefined) throw new UsageError(`Unexpected argument "${second}".`, first);
    return first;
  }
  if (!GROUPS.includes(first)) throw new UsageError(`Unknown command "${first}".`);
  const words = `${first} ${second ?? ''}`.trim();
  if (!isCommand(words)) {
    const actions = COMMAND_NAMES.filter((c) => c.startsWith(`${first} `)).map((c) => c.split(' ')[1]);
    throw new UsageError(second === undefined ? `\`${first}\` needs an action: ${actions.join(', ')}.` : `Unknown command "${words}".`);
  }
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`, words);
  return words;
}

function toCommand(command: CommandName, o: OptionReader): CliCommand {
  switch (command) {
    case 'organization create':
      return { command, name: o.text('name'), adminEmail: o.email('admin-email'), adminName: o.optionalText('admin-name') ?? 'Administrator' };
    case 'user create':
      return { command, org: o.id('org', 'org_'), email: o.email('email'), name: o.text('name'), roles: o.roles('roles') };
    case 'user list':
    case 'key list':
      return { command, org: o.id('org', 'org_'), page: o.page() };
    case 'key create':
      return { command, org: o.id('org', 'org_'), name: o.text('name'), roles: o.roles('roles'), userId: o.optionalId('user', 'usr_'), expiresAt: o.optionalDate('expires-at') };
    case 'key revoke':
      return { command, org: o.id('org', 'org_'), keyId: o.id('key', 'key_') };
    case 'instance create':
      return { command, org: o.id('org', 'org_'), name: o.text('name'), as: o.id('as', 'usr_') };
    case 'full-audit rescan':
      return { command, org: o.id('org', 'org_'), instanceId: o.id('instance', 'ki_') };
    case 'jobs list': {
      const state = o.optionalText('state');
      if (state !== undefined && !(JOB_STATES as readonly string[]).includes(state)) {
        throw new UsageError(`--state must be one of ${JOB_STATES.join(', ')}.`, command);
      }
      return { command, queue: o.optionalText('queue'), state: state as JobState | undefined, limit: o.page().limit };
    }
    case 'jobs get':
      return { command, jobId: o.id('job', 'job_') };
    case 'migrate':
    case 'bootstrap':
      return { command };
  }
}

const JOB_STATES = ['queued', 'running', 'completed', 'failed'] as const;
type JobState = (typeof JOB_STATES)[number];

/** Reads and validates option values with the same limits as the HTTP DTOs. */
class OptionReader {
  constructor(
    private readonly command: CommandName,
    private readonly values: Partial<Record<OptionName, string>>,
  ) {}

  private fail(name: OptionName, message: string): never {
    throw new UsageError(`--${name} ${message}.`, this.command);
  }

  private raw(name: OptionName): string {
    const value = this.values[name];
    if (value === undefined) this.fail(name, 'is required');
    return value;
  }

  text(name: OptionName): string {
    const value = this.raw(name).trim();
    if (value.length === 0) this.fail(name, 'must not be empty');
    if (value.length > 200) this.fail(name, 'must be at most 200 characters');
    return value;
  }

  optionalText(name: OptionName): string | undefined {
    return this.values[name] === undefined ? undefined : this.text(name);
  }

  email(name: OptionName): string {
    const value = this.raw(name).trim();
    if (value.length > 320 || !isEmail(value)) this.fail(name, 'must be an email address');
    return value;
  }

  id(name: OptionName, prefix: IdPrefix): string {
    const value = this.raw(name).trim();
    if (!isId(prefix, value)) this.fail(name, `must be an id of the form ${prefix}<26-character ULID>`);
    return value;
  }

  optionalId(name: OptionName, prefix: IdPrefix): string | undefined {
    return this.values[name] === undefined ? undefined : this.id(name, prefix);
  }

  roles(name: OptionName): Role[] {
    const items = this.raw(name)
      .split(',')
      .map((r) => r.trim().toUpperCase())
      .filter((r) => r.length > 0);
    if (items.length === 0) this.fail(name, `needs at least one role (${ROLES.join(', ')})`);
    const unknown = items.filter((r) => !isRole(r));
    if (unknown.length > 0) this.fail(name, `has unknown role ${unknown.join(', ')}; roles are ${ROLES.join(', ')}`);
    return [...new Set(items as Role[])];
  }

  optionalDate(name: OptionName): Date | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (!isISO8601(value.trim(), { strict: true }) || Number.isNaN(Date.parse(value.trim()))) {
      this.fail(name, 'must be an ISO 8601 date-time, e.g. 2030-01-31T00:00:00Z');
    }
    return new Date(value.trim());
  }

  page(): PageRequest {
    return { offset: this.integer('offset', 0, PAGINATION.maxOffset) ?? 0, limit: this.integer('limit', 1, PAGINATION.maxLimit) ?? PAGINATION.defaultLimit };
  }

  private integer(name: OptionName, min: number, max: number): number | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value.trim())) this.fail(name, `must be an integer from ${min} to ${max}`);
    const n = Number(value.trim());
    if (n < min || n > max) this.fail(name, `must be an integer from ${min} to ${max}`);
    return n;
  }
}

const PROGRAM = 'npm run cli --';

function synopsis(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  const required = spec.required.map((o) => `--${o} ${PLACEHOLDERS[o]}`);
  const optional = spec.optional.map((o) => `[--${o} ${PLACEHOLDERS[o]}]`);
  return [command, ...required, ...optional].join(' ');
}

/** The general usage, or one command's. */
export function usage(command?: CommandName): string {
  if (command) {
    const spec: CommandSpec = COMMANDS[command];
    return [
      `Usage: ${PROGRAM} ${synopsis(command)} [--json]`,
      '',
      `  ${spec.summary}`,
      ...(spec.details ?? []).map((d) => `  ${d}`),
      ...(spec.required.includes('roles') ? [`  Roles (comma-separated): ${ROLES.join(', ')}.`] : []),
      '',
    ].join('\n');
  }
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Administers a docaudit installation through its use cases, on the database the service uses',
    '(same environment variables: DATABASE_URL, DATA_DIR, AUTH_SECRET, REDIS_URL, BOOTSTRAP_*, ...).',
    '',
    'Commands:',
    ...COMMAND_NAMES.flatMap((c) => [`  ${synopsis(c)}`, `      ${COMMANDS[c].summary}`]),
    '  ingest PATH [PATH...] --instance KI_ID [--url URL] [--api-key KEY]',
    '      Send files or folders to a running service over the instance API, with a progress bar.',
    '  help [COMMAND]',
    '      This text, or the help of one command.',
    '',
    'Global options:',
    '  --json       Machine-readable output: one JSON document on stdout; errors as JSON on stderr.',
    '  --verbose    Framework logs, and stack traces of unexpected errors.',
    '  -h, --help   Help of the command.',
    '',
    `Roles: ${ROLES.join(', ')}.`,
    'Exit codes: 0 success, 1 error (refused by the service rules, database locked or unreachable),',
    '            2 bad usage, 78 invalid configuration.',
    '',
  ].join('\n');
}

/** Help for `help [topic]`: a command's usage, or the general one. Unknown topics are usage errors. */
export function helpText(topic?: string): string {
  if (topic === undefined) return usage();
  if (isCommand(topic)) return usage(topic);
  const group = COMMAND_NAMES.filter((c) => c.startsWith(`${topic} `));
  if (group.length > 0) return group.map((c) => usage(c)).join('\n');
  throw new UsageError(`Unknown command "${topic}".`);
}
