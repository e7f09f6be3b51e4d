// The README's quick start, timed (issue 28 item 12): `npm start` in a fresh clone of this repository, from the
// command to the first 200 of /health/ready on every app of the standalone, and to the demo's full-audit findings
// listed; then a restart on the same data (the build up to date, the database kept).
//
//   node tools/bench/src/quick-start.bench.mjs
//   BENCH_RUNS=1 BENCH_PORT_BASE=4000 node tools/bench/src/quick-start.bench.mjs
//   BENCH_REF=<commit> node tools/bench/src/quick-start.bench.mjs      (another commit, to compare)
//
// Each run: `git clone` of the committed HEAD (or BENCH_REF) into a temporary directory (uncommitted changes are not measured),
// node_modules linked to this one's (the README's `npm install` is not timed), then
//   1. first start: `npm start` (build, embedded database created under ./.data, demo repository ingested);
//      timed: every app's /health/ready answering 200 (each, and all), the admin key printed, the demo's mandatory
//      questions analysed (none PENDING or ANALYZING), its full-audit findings listed (`have-to-show` says `show`
//      and `/audit/full-audit/list` has items);
//   2. SIGINT, then a restart: `npm start` again (nothing to build, the database kept), the same times.
// The service's own log gives the phases in between (the build, the process up to its first line, the database
// opened, the apps listening, the demo created, the first full scan judged). Prints a Markdown table and writes
// JSON to tools/bench/results/quick-start-<timestamp>.json.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { envNumber, gitCommit, machineInfo, machineTicks, CLOCK_TICKS, ROOT, round, writeResults } from './bench-kit.mjs';
import { call } from './load-kit.mjs';

const settings = {
  /** Fresh clones, each started once then restarted once. */
  runs: envNumber('BENCH_RUNS', 3, { min: 1, max: 20, integer: true }),
  /** platform/auth's port; audit, retrieval and the workers' health take the next three (the README's 3000-3003). */
  portBase: envNumber('BENCH_PORT_BASE', 3000, { min: 1024, max: 65000, integer: true }),
  /** Give up on a start (ready, findings) after this many seconds. */
  timeoutS: envNumber('BENCH_TIMEOUT_S', 240, { min: 10, max: 3600 }),
  /** What the clones check out (a commit, a branch): HEAD by default, another to compare. */
  ref: process.env.BENCH_REF || 'HEAD',
  /** Keep the clones (their .data and logs) for a look afterwards. */
  keep: process.env.BENCH_KEEP === '1',
};
const APPS = ['platform-auth', 'audit', 'retrieval', 'workers'];
const port = (app) => settings.portBase + APPS.indexOf(app);

// ---------------------------------------------------------------------------------------------
// CPU of a process tree (Linux /proc): the service's share of the machine during a start
// ---------------------------------------------------------------------------------------------

/** utime + stime + the children it reaped (cutime + cstime), in seconds; 0 once gone. */
function treeCpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

function descendants(pid) {
  const out = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      for (const child of children) out.push(child, ...descendants(child));
    }
  } catch {
    // gone meanwhile
  }
  return out;
}

/** CPU seconds of `pid` and every live descendant (a descendant that exited counts in its parent's reaped time). */
const processTreeCpu = (pid) => [pid, ...descendants(pid)].reduce((sum, p) => sum + treeCpuOf(p), 0);

function rssMbOf(pid) {
  try {
    return round(Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024, 0);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// One `npm start`
// ---------------------------------------------------------------------------------------------

/** What the service's log lines say, as seconds after the start (pino JSON on stdout, the build's lines on stderr). */
function phasesOf(lines, startedAtMs) {
  const at = (predicate) => {
    const line = lines.find(predicate);
    return line ? round((line.at - startedAtMs) / 1000, 2) : null;
  };
  const msg = (text) => (l) => l.json?.msg === text;
  const built = lines.find((l) => /^build: built in/.test(l.text));
  return {
    build_s: built ? Number(/built in ([\d.]+) s/.exec(built.text)[1]) : 0,
    build_checked_s: at((l) => /^build: /.test(l.text)),
    first_log_line_s: at(msg('starting')),
    database_open_s: at(msg('database open')),
    auth_listening_s: at(msg('platform-auth listening')),
    all_listening_s: at(msg('workers listening')),
    demo_created_s: at(msg('demo repository created')),
    first_scan_judged_s: at((l) => typeof l.json?.msg === 'string' && /^Job full-audit\.judge .* completed: full /.test(l.json.msg)),
  };
}

async function startOnce(dir, label, { expectDemo }) {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir };
  if (settings.portBase !== 3000) Object.assign(env, Object.fromEntries(APPS.map((app) => [{ 'platform-auth': 'PLATFORM_AUTH_PORT', audit: 'AUDIT_PORT', retrieval: 'RETRIEVAL_PORT', workers: 'WORKERS_HEALTH_PORT' }[app], String(port(app))])));
  for (const app of APPS) {
    const answer = await globalThis.fetch(`http://127.0.0.1:${port(app)}/health/live`).catch(() => null);
    if (answer) throw new Error(`port ${port(app)} already answers: stop what runs there or set BENCH_PORT_BASE`);
  }
  const cpuBefore = machineTicks();
  const load1Before = loadavg()[0];
  const startedAtMs = Date.now();
  const t0 = performance.now();
  const child = spawn('npm', ['start'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let output = '';
  const onData = (chunk) => {
    const now = Date.now();
    output += chunk;
    for (const text of chunk.toString().split('\n').filter(Boolean)) {
      let json = null;
      try {
        json = text.startsWith('{') ? JSON.parse(text) : null;
      } catch {
        // a partial line: the times come from the whole lines
      }
      lines.push({ at: json?.time ? Date.parse(json.time) : now, text, json });
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  const deadline = t0 + settings.timeoutS * 1000;
  const seconds = () => round((performance.now() - t0) / 1000, 2);
  const check = () => {
    if (exited) throw new Error(`${label}: npm start exited (${JSON.stringify(exited)}):\n${output.toString().slice(-3000)}`);
    if (performance.now() > deadline) throw new Error(`${label}: not done within ${settings.timeoutS} s:\n${output.toString().slice(-3000)}`);
  };
  const result = { ready_s: {}, all_ready_s: null, admin_key_s: null, questions_s: null, findings_s: null, findings: null };
  try {
    // Readiness of every app, polled every 100 ms.
    const pending = new Set(APPS);
    while (pending.size > 0) {
      check();
      await Promise.all(
        [...pending].map(async (app) => {
          const answer = await globalThis.fetch(`http://127.0.0.1:${port(app)}/health/ready`, { signal: globalThis.AbortSignal.timeout(2000) }).catch(() => null);
          if (answer?.status === 200 && pending.delete(app)) result.ready_s[app] = seconds();
        }),
      );
      if (pending.size > 0) await sleep(100);
    }
    result.all_ready_s = seconds();
    process.stderr.write(`${label}: every app ready at ${result.all_ready_s} s\n`);
    // The admin key, as a user reads it from the terminal (first start), else the one kept from it.
    let key = expectDemo.key;
    for (; !key; await sleep(100)) {
      check();
      key = /svc_org_[A-Za-z0-9]+/.exec(output.toString())?.[0];
    }
    if (!expectDemo.key) result.admin_key_s = round((lines.find((l) => l.text.includes('svc_org_'))?.at - startedAtMs) / 1000, 2);
    // The demo's full-audit findings, as the README's quick start lists them.
    const audit = `http://127.0.0.1:${port('audit')}`;
    let instanceId = null;
    for (;; await sleep(200)) {
      check();
      if (!instanceId) {
        const listed = await call('POST', `${audit}/audit/instance/list-instances-for-user`, {}, key);
        instanceId = listed.body?.response?.items?.find((i) => i.name === 'Demo repository')?.instance_id ?? null;
        if (!instanceId) continue;
      }
      if (result.questions_s === null) {
        // The demo's mandatory questions, once none is still waiting for its analysis.
        const questions = await call('POST', `${audit}/audit/mandatory-question/list`, { instance_id: instanceId }, key);
        const items = questions.body?.response?.items ?? [];
        if (questions.status === 200 && items.length > 0 && items.every((q) => q.state !== 'PENDING' && q.state !== 'ANALYZING')) result.questions_s = seconds();
      }
      if (result.findings_s === null) {
        const shown = await call('POST', `${audit}/audit/full-audit/have-to-show`, { instance_id: instanceId }, key);
        const findings = shown.status === 200 && shown.body.response.show ? await call('POST', `${audit}/audit/full-audit/list`, { instance_id: instanceId, limit: 100 }, key) : null;
        if (findings?.status === 200 && findings.body.response.items.length > 0) {
          result.findings_s = seconds();
          result.findings = findings.body.response.total ?? findings.body.response.items.length;
        }
      }
      if (result.questions_s !== null && result.findings_s !== null) break;
    }
    process.stderr.write(`${label}: ${result.findings} findings listed at ${result.findings_s} s\n`);
    result.service_rss_mb = Object.fromEntries(descendants(child.pid).filter((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('standalone')).map((p) => [p, rssMbOf(p)]));
    const serviceCpu = processTreeCpu(child.pid);
    const cpuAfter = machineTicks();
    const wall = (performance.now() - t0) / 1000;
    const machineCores = cpuBefore && cpuAfter ? ((cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total)) * cpus().length : null;
    result.cpu = {
      service_cores: round(serviceCpu / wall),
      machine_cores_busy: round(machineCores),
      other_cores: machineCores === null ? null : round(Math.max(0, machineCores - serviceCpu / wall)),
      load_average_1m_before: round(load1Before),
      load_average_1m_after: round(loadavg()[0]),
    };
    result.phases = phasesOf(lines, startedAtMs);
    return { key, result };
  } finally {
    // The whole group (npm, its shell, the service): SIGINT, as Ctrl-C in the terminal.
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        // already gone
      }
      for (let i = 0; i < 200 && !exited; i++) await sleep(100);
      if (!exited) process.kill(-child.pid, 'SIGKILL');
    }
  }
}

async function oneRun(index) {
  const dir = mkdtempSync(join(tmpdir(), 'quick-start-'));
  try {
    execFileSync('git', ['clone', '-q', ROOT, dir], { stdio: 'inherit' });
    execFileSync('git', ['checkout', '-q', settings.ref], { cwd: dir, stdio: 'inherit' });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const first = await startOnce(dir, `[run ${index}] first start`, { expectDemo: {} });
    const restart = await startOnce(dir, `[run ${index}] restart`, { expectDemo: { key: first.key } });
    return { run: index, clone: settings.keep ? dir : null, first_start: first.result, restart: restart.result };
  } finally {
    if (!settings.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function markdownTable(runs) {
  const f = (v) => (v === null || v === undefined ? '–' : String(v));
  const lines = [
    '| Run | Start | build s | first log line s | database open s | all ready s | demo created s | questions analysed s | first scan judged s | findings listed s (n) | other cores | load 1 min before / after |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of runs) {
    for (const [name, s] of [['first', r.first_start], ['restart', r.restart]]) {
      const p = s.phases;
      lines.push(`| ${r.run} | ${name} | ${f(p.build_s)} | ${f(p.first_log_line_s)} | ${f(p.database_open_s)} | **${f(s.all_ready_s)}** | ${f(p.demo_created_s)} | ${f(s.questions_s)} | ${f(p.first_scan_judged_s)} | **${f(s.findings_s)}** (${f(s.findings)}) | ${f(s.cpu.other_cores)} | ${f(s.cpu.load_average_1m_before)} / ${f(s.cpu.load_average_1m_after)} |`);
    }
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  process.stderr.write(`bench: quick start, ${settings.runs} run(s) on ports ${settings.portBase}-${settings.portBase + 3}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  const runs = [];
  for (let i = 1; i <= settings.runs; i++) runs.push(await oneRun(i));
  const summary = (pick) => {
    const values = runs.map(pick).filter((v) => v !== null);
    return { min: Math.min(...values), max: Math.max(...values), values };
  };
  const report = {
    benchmark: 'quick-start',
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    git_commit: gitCommit(),
    settings: { runs: settings.runs, port_base: settings.portBase, timeout_s: settings.timeoutS, ref: settings.ref, commit: execFileSync('git', ['rev-parse', '--short', settings.ref], { cwd: ROOT }).toString().trim() },
    goals: { first_start_ready_s: 20, restart_ready_s: 15, first_start_findings_s: 60 },
    summary: {
      first_start_ready_s: summary((r) => r.first_start.all_ready_s),
      first_start_questions_s: summary((r) => r.first_start.questions_s),
      first_start_findings_s: summary((r) => r.first_start.findings_s),
      restart_ready_s: summary((r) => r.restart.all_ready_s),
    },
    machine: machineInfo(null),
    runs,
  };
  const file = writeResults('quick-start', startedAt, report);
  console.log('');
  console.log(`## quick-start benchmark (${settings.runs} fresh clone(s), ${cpus().length} CPUs, node ${process.version})`);
  console.log('');
  console.log(markdownTable(runs));
  console.log('');
  const noisy = runs.flatMap((r) => [r.first_start, r.restart]).filter((s) => (s.cpu.other_cores ?? 0) > 0.25);
  if (noisy.length) console.log(`- warning: other processes used ${noisy.map((s) => s.cpu.other_cores).join(', ')} cores during ${noisy.length} start(s); those figures are noisy`);
  console.log(`Results: ${relative(ROOT, file)}`);
}

await main();
