import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One check as the suite writes it to `checks.json`. */
export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: unknown;
}

export interface ScenarioRun {
  scenario: string;
  /** null when the CLI wrote no results (it crashed or the scenario threw before saving). */
  checks: ConformanceCheck[] | null;
  exitCode: number | null;
  ms: number;
  /** CLI stdout and stderr, for failure messages. */
  output: string;
}

export type ScenarioOutcome = 'pass' | 'fail' | 'warning' | 'no-results';

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'node_modules'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json with node_modules above ${start}`);
  }
}

/**
 * The CLI's entry point (`bin.conformance` of its package.json), run with this Node rather than npx.
 * 0.1.12 is pinned: 0.1.13 and later need Node 22 (`fs.globSync`).
 */
export function conformanceCli(): string {
  const dir = join(findRoot(__dirname), 'node_modules', '@modelcontextprotocol', 'conformance');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
  return join(dir, pkg.bin.conformance);
}

export function conformanceVersion(): string {
  return (JSON.parse(readFileSync(join(dirname(dirname(conformanceCli())), 'package.json'), 'utf8')) as { version: string }).version;
}

function run(args: string[], timeoutMs: number): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the credential proxy and often the service answer from this process.
    const child = spawn(process.execPath, [conformanceCli(), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

/** The server scenarios the installed suite knows (`conformance list --server`). */
export async function listServerScenarios(): Promise<string[]> {
  const { exitCode, output } = await run(['list', '--server'], 30000);
  if (exitCode !== 0) throw new Error(`conformance list --server exited with ${exitCode}:\n${output}`);
  return output
    .split('\n')
    .map((line) => /^\s+-\s+(\S+)\s*$/.exec(line)?.[1])
    .filter((name): name is string => !!name);
}

/**
 * Runs one server scenario against `url` and reads the checks it saved under
 * `<outDir>/<scenario>/server-<scenario>-<timestamp>/checks.json`.
 */
export async function runServerScenario(url: string, scenario: string, outDir: string, timeoutMs = 60000): Promise<ScenarioRun> {
  const dir = join(outDir, scenario);
  const started = Date.now();
  const { exitCode, output } = await run(['server', '--url', url, '--scenario', scenario, '--output-dir', dir], timeoutMs);
  const ms = Date.now() - started;
  const saved = existsSync(dir) ? readdirSync(dir).filter((d) => existsSync(join(dir, d, 'checks.json'))) : [];
  const checks = saved.length ? (JSON.parse(readFileSync(join(dir, saved[0], 'checks.json'), 'utf8')) as ConformanceCheck[]) : null;
  return { scenario, checks, exitCode, ms, output };
}

const SAVED_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/;

/**
 * Runs every server scenario in one CLI process (`server --suite all`: the node start-up of the CLI
 * costs about a second, the scenarios themselves milliseconds) and reads each scenario's
 * `<outDir>/server-<scenario>-<start time>/checks.json`; a scenario's time runs from its start to the
 * next one's. Scenarios that saved nothing (the CLI crashed, or the scenario threw) are run again one by
 * one, so one bad scenario cannot hide the others.
 */
export async function runServerSuite(url: string, scenarios: string[], outDir: string, timeoutMs = 180000): Promise<ScenarioRun[]> {
  const suiteDir = join(outDir, 'suite');
  const { exitCode, output } = await run(['server', '--url', url, '--suite', 'all', '--output-dir', suiteDir], timeoutMs);
  const finished = Date.now();
  const saved = (existsSync(suiteDir) ? readdirSync(suiteDir) : [])
    .map((name) => ({ name, match: SAVED_DIR.exec(name) }))
    .filter(({ name, match }) => match && existsSync(join(suiteDir, name, 'checks.json')))
    .map(({ name, match }) => {
      const [, scenario, day, h, m, sec, milli] = match as RegExpExecArray;
      return { scenario, dir: join(suiteDir, name), start: Date.parse(`${day}T${h}:${m}:${sec}.${milli}Z`) };
    })
    .sort((a, b) => a.start - b.start);
  const runs = new Map<string, ScenarioRun>();
  saved.forEach((entry, i) => {
    const checks = JSON.parse(readFileSync(join(entry.dir, 'checks.json'), 'utf8')) as ConformanceCheck[];
    const ms = (saved[i + 1]?.start ?? finished) - entry.start;
    runs.set(entry.scenario, { scenario: entry.scenario, checks, exitCode, ms, output });
  });
  const missing = scenarios.filter((s) => !runs.has(s));
  for (const run of await inPool(missing, 4, (s) => runServerScenario(url, s, outDir))) runs.set(run.scenario, run);
  return scenarios.map((s) => runs.get(s) as ScenarioRun);
}

/** pass: a SUCCESS and no FAILURE; fail: any FAILURE; warning: neither (WARNING/INFO only). */
export function outcomeOf(run: ScenarioRun): ScenarioOutcome {
  if (!run.checks) return 'no-results';
  if (run.checks.some((c) => c.status === 'FAILURE')) return 'fail';
  return run.checks.some((c) => c.status === 'SUCCESS') ? 'pass' : 'warning';
}

export function failuresOf(run: ScenarioRun): string[] {
  return (run.checks ?? []).filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? c.description}`);
}

/** Runs `tasks` at most `concurrency` at a time, keeping their order in the results. */
export async function inPool<T, R>(items: T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
