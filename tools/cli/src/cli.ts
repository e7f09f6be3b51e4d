import { AppConfig, ConfigError, loadConfig } from '@svc/config';
import { isDomainError } from '@svc/kernel';
import { helpText, Invocation, parseInvocation, usage, UsageError } from './args';
import { execute } from './commands';
import { runIngest } from './ingest';
import { DatabaseLockedError, DatabaseOpenError } from './context';
import { redact } from './output';

/** Where the CLI writes and which environment it reads: the process's, or a test's. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Environment given to loadConfig; process.env when absent. */
  env?: NodeJS.ProcessEnv;
}

export const EXIT = { ok: 0, error: 1, usage: 2, config: 78 } as const;

export function processIo(): CliIo {
  return { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
}

interface ErrorReport {
  kind: string;
  code: string;
  message: string;
  hint?: string;
  errors?: { field: string; message: string }[];
}

/**
 * Runs one CLI invocation and returns its exit code; never throws. Output: the command's result on
 * stdout (text, or one JSON document with --json), errors on stderr. Secrets appear only where a
 * command creates a key, never in error output.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // Ingestion talks to a running service over the instance API, not to the database.
  if (argv[0] === 'ingest') return runIngest(argv.slice(1), io);
  const json = argv.includes('--json');
  let invocation: Invocation;
  try {
    invocation = parseInvocation(argv);
    if (invocation.kind === 'help') {
      io.stdout(helpText(invocation.topic));
      return EXIT.ok;
    }
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, json, error);
    io.stderr(`error: Unexpected failure: ${redact(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT.error;
  }

  let config: AppConfig | undefined;
  try {
    config = loadConfig(io.env ?? process.env);
    const output = await execute(invocation.input, config, invocation.verbose);
    io.stdout(invocation.json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.text}\n`);
    return EXIT.ok;
  } catch (error) {
    const secrets = [config?.authSecret, config?.AUTH_SECRET, config?.BOOTSTRAP_ADMIN_API_KEY];
    const report = (r: ErrorReport, code: number, extra = '') => {
      const clean: ErrorReport = { ...r, message: redact(r.message, secrets), ...(r.hint ? { hint: redact(r.hint, secrets) } : {}) };
      if (invocation.json) io.stderr(`${JSON.stringify({ error: clean }, null, 2)}\n`);
      else io.stderr(`error: ${clean.message}${clean.code.startsWith('CLI.') ? '' : ` (${clean.code})`}\n${(clean.errors ?? []).map((e) => `  ${e.field}: ${e.message}\n`).join('')}${clean.hint ? `hint: ${clean.hint}\n` : ''}${redact(extra, secrets)}`);
      return code;
    };
    if (error instanceof ConfigError) return report({ kind: 'config', code: 'CLI.INVALID_CONFIGURATION', message: error.message }, EXIT.config);
    if (isDomainError(error)) return report({ kind: error.kind, code: error.code, message: error.message, hint: error.hint, errors: error.errors }, EXIT.error);
    if (error instanceof DatabaseLockedError) return report({ kind: 'unavailable', code: 'CLI.DATABASE_LOCKED', message: error.message }, EXIT.error);
    if (error instanceof DatabaseOpenError) {
      const stack = invocation.verbose && error.reason instanceof Error ? `${error.reason.stack}\n` : '';
      return report({ kind: 'unavailable', code: 'CLI.DATABASE_UNAVAILABLE', message: error.message }, EXIT.error, stack);
    }
    const message = error instanceof Error ? error.message : String(error);
    const stack = invocation.verbose && error instanceof Error ? `${error.stack}\n` : '';
    return report({ kind: 'internal', code: 'CLI.UNEXPECTED', message: `Unexpected failure: ${message}` }, EXIT.error, stack);
  }
}

function usageFailure(io: CliIo, json: boolean, error: UsageError): number {
  const text = usage(error.command);
  // A key pasted in the wrong place would be echoed back by the message.
  error.message = redact(error.message);
  if (json) io.stderr(`${JSON.stringify({ error: { kind: 'usage', code: 'CLI.USAGE', message: error.message, usage: text } }, null, 2)}\n`);
  else io.stderr(`error: ${error.message}\n\n${text}`);
  return EXIT.usage;
}
