import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@svc/identity-core';
import { freePort, HttpCredentialProxy, RunningService, startHttpCredentialProxy, startService } from '@svc/test-kit';
import { conformanceVersion, failuresOf, listServerScenarios, outcomeOf, runServerScenario, runServerSuite, ScenarioRun } from './conformance-cli';
import { applicabilityOf, MUST_NOT_FAIL, MUST_PASS, NOT_APPLICABLE, reasonOf } from './server-scenarios';

/**
 * The official MCP conformance suite (server side) against the audit `/mcp` endpoint of the built
 * service in embedded mode. The suite sends no credentials, so it talks to a loopback proxy that adds
 * `Authorization: Bearer <org key>` and forwards everything else unchanged. Which scenarios apply, and
 * why the others cannot, is in ./server-scenarios.ts. Runs only when jest.e2e.config.js's testMatch
 * covers the e2e specs under tools/ (see ../README.md).
 */
describe('MCP conformance suite against the audit /mcp endpoint', () => {
  let service: RunningService;
  let proxy: HttpCredentialProxy;
  let outDir: string;
  let scenarios: string[] = [];
  const runs = new Map<string, ScenarioRun>();
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    let t = Date.now();
    const adminKey = generateApiKey();
    // The suite sees the proxy as the server: its origin is the one browsers would send (dns-rebinding-protection).
    const proxyPort = await freePort();
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey, ALLOWED_ORIGINS: `http://127.0.0.1:${proxyPort}` });
    timings.startService = Date.now() - t;
    proxy = await startHttpCredentialProxy(service.urls.audit, adminKey, { port: proxyPort });
    outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));

    t = Date.now();
    scenarios = await listServerScenarios();
    timings.list = Date.now() - t;
    t = Date.now();
    const results = await runServerSuite(`${proxy.url}/mcp`, scenarios, outDir);
    timings.scenarios = Date.now() - t;
    for (const run of results) runs.set(run.scenario, run);
  }, 240000);

  afterAll(async () => {
    if (runs.size) console.log(summary());
    await proxy?.stop();
    await service?.destroy();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  function summary(): string {
    const rows = scenarios.map((s) => {
      const run = runs.get(s);
      const outcome = run ? outcomeOf(run) : 'not run';
      const failures = run ? failuresOf(run) : [];
      const applicability = applicabilityOf(s) ?? 'UNCLASSIFIED';
      return `${s.padEnd(30)} ${outcome.padEnd(10)} ${applicability.padEnd(15)} ${String(run?.ms ?? '-').padStart(5)} ms${failures.length ? `  ${failures[0].slice(0, 160)}` : ''}`;
    });
    const count = (kind: string) => scenarios.filter((s) => applicabilityOf(s) === kind).length;
    return [
      `MCP conformance ${conformanceVersion()} against ${service.urls.audit}/mcp (via credential proxy ${proxy.url})`,
      `service start ${timings.startService} ms, list ${timings.list} ms, ${scenarios.length} scenarios in ${timings.scenarios} ms (one CLI run)`,
      `${count('must-pass')} must pass, ${count('must-not-fail')} must not fail, ${count('not-applicable')} not applicable`,
      `${'scenario'.padEnd(30)} ${'outcome'.padEnd(10)} ${'applies'.padEnd(15)}  time`,
      ...rows,
    ].join('\n');
  }

  function explain(scenario: string): string {
    const run = runs.get(scenario);
    if (!run) return `${scenario} was not run (not listed by this suite version)`;
    return `${scenario} (${reasonOf(scenario)})\nfailures: ${JSON.stringify(failuresOf(run), null, 2)}\nchecks: ${JSON.stringify(run.checks, null, 2)}\nCLI exit ${run.exitCode}:\n${run.output.slice(-4000)}`;
  }

  it('classifies every server scenario of the installed suite, and lists every classified one', () => {
    expect(conformanceVersion()).toBe('0.1.12');
    expect(scenarios.filter((s) => !applicabilityOf(s))).toEqual([]);
    const classified = [...Object.keys(MUST_PASS), ...Object.keys(MUST_NOT_FAIL), ...Object.keys(NOT_APPLICABLE)];
    expect(classified.filter((s) => !scenarios.includes(s))).toEqual([]);
    expect(new Set(classified).size).toBe(classified.length);
  });

  it.each(Object.keys(MUST_PASS))('%s passes', (scenario) => {
    const run = runs.get(scenario);
    const outcome = run ? outcomeOf(run) : 'not run';
    if (outcome !== 'pass') throw new Error(`expected pass, got ${outcome}: ${explain(scenario)}`);
  });

  it.each(Object.keys(MUST_NOT_FAIL))('%s reports no failure (warnings allowed: stateless server)', (scenario) => {
    const run = runs.get(scenario);
    const outcome = run ? outcomeOf(run) : 'not run';
    if (outcome !== 'pass' && outcome !== 'warning') throw new Error(`expected no failure, got ${outcome}: ${explain(scenario)}`);
  });

  it('the proxy forwards the credential: without it the endpoint refuses the suite', async () => {
    const direct = await runServerScenario(`${service.urls.audit}/mcp`, 'server-initialize', outDir + '-direct');
    rmSync(outDir + '-direct', { recursive: true, force: true });
    expect(outcomeOf(direct)).toBe('fail');
    expect(failuresOf(direct).join('\n')).toMatch(/401/);
  });
});
