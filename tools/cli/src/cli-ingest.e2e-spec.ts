import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@svc/identity-core';
import { buildDocx, buildPdf, Json, post, RunningService, startService, waitFor } from '@svc/test-kit';

const CLI = join(__dirname, '..', '..', '..', 'dist', 'tools', 'cli', 'src', 'main.js');

/** Runs the built CLI as users do (`npm run cli -- ingest ...`), with no terminal. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `cli ingest` against the running service: a folder of every format, a broken file, a re-run. Embedded only (the
 * rule at BOTH_MODES in @svc/test-kit): the CLI is a client of the retrieval app's instance API, the same in either
 * mode; the distributed indexing behind it runs in ingestion-and-search.
 */
describe('cli ingest into a running service (embedded)', () => {
  const adminKey = generateApiKey();
  let service: RunningService;
  let instanceId: string;
  let instanceKey: string;
  let folder: string;

  const api = (path: string, body: unknown) => post(`${service.urls.retrieval}${path}`, body, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
  const indexationDone = () => waitFor(async () => ((await api('/api/documents/progress', {})).body.response.done === true ? true : undefined), 60000, 'the indexation to finish');
  const ingest = (...extra: string[]) => cli(['ingest', folder, '--instance', instanceId, '--api-key', instanceKey, '--url', service.urls.retrieval, ...extra]);

  beforeAll(async () => {
    service = await startService('embedded', { BOOTSTRAP_ADMIN_API_KEY: adminKey });
    instanceId = (await post(`${service.urls.audit}/audit/instance/create`, { name: 'Handbook' }, adminKey)).body.response.instance_id;
    instanceKey = (await post(`${service.urls.audit}/audit/instance/get-svc-instances`, { instance_id: instanceId }, adminKey)).body.response[0].api_key;
    folder = mkdtempSync(join(tmpdir(), 'cli-ingest-'));
    mkdirSync(join(folder, 'policies'));
    writeFileSync(join(folder, 'policies', 'refunds.md'), '# Refund policy\n\nRefunds are processed within 30 days of the request.\n');
    writeFileSync(join(folder, 'cafeteria.html'), '<html><body><h1>Cafeteria</h1><p>The cafeteria opens at noon.</p></body></html>');
    writeFileSync(join(folder, 'parking.txt'), 'Parking is free for employees.');
    writeFileSync(join(folder, 'warranty.pdf'), buildPdf([['Warranty', 'Tents are covered for two years against manufacturing defects.']]));
    writeFileSync(join(folder, 'handbook.docx'), await buildDocx());
    writeFileSync(join(folder, 'broken.pdf'), '%PDF-1.4 not really a pdf');
    writeFileSync(join(folder, 'slides.pptx'), 'not a supported format');
  }, 120000);
  afterAll(async () => {
    await service?.destroy();
  });

  it('uploads the folder with a progress line and a summary; a broken file ends PARSING_ERROR without stopping the rest', async () => {
    const run = await ingest();
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[6/6] warranty.pdf: queued');
    expect(run.stdout).toContain('6 file(s): 6 queued for indexation, 0 unchanged, 0 skipped, 0 failed.');
    expect(run.stdout).toContain('1 file(s) of unsupported formats ignored: slides.pptx');
    await indexationDone();
    const documents: Json[] = (await api('/api/documents/list', { limit: 100 })).body.response.items;
    const state = Object.fromEntries(documents.map((d) => [d.external_id, d.state]));
    expect(state).toEqual({
      'policies/refunds.md': 'INDEXED',
      'cafeteria.html': 'INDEXED',
      'parking.txt': 'INDEXED',
      'warranty.pdf': 'INDEXED',
      'handbook.docx': 'INDEXED',
      'broken.pdf': 'PARSING_ERROR',
    });
    const found = await post(`${service.urls.retrieval}/retrieval/semantic-nodes/search`, { query: 'tent warranty defects', instance_id: instanceId }, adminKey);
    expect(found.body.response.documents_contents[0].document_name).toBe('warranty.pdf');
  });

  it('re-indexes nothing already indexed, re-indexes a changed file under the same document, and retries a failed one', async () => {
    const before: Json[] = (await api('/api/documents/list', { limit: 100 })).body.response.items;
    writeFileSync(join(folder, 'parking.txt'), 'Parking costs 5 euros a day.');
    const again = await ingest('--json');
    expect(again.code).toBe(0);
    // parking.txt changed; broken.pdf failed last time, so sending it again tries again (it fails again).
    expect(JSON.parse(again.stdout)).toMatchObject({ files: 6, queued: 2, unchanged: 4, failed: 0 });
    await indexationDone();
    const after: Json[] = (await api('/api/documents/list', { limit: 100 })).body.response.items;
    expect(after.map((d) => d.id).sort()).toEqual(before.map((d) => d.id).sort());
    expect(Object.fromEntries(after.map((d) => [d.external_id, d.state]))).toMatchObject({ 'parking.txt': 'INDEXED', 'broken.pdf': 'PARSING_ERROR' });
    const found = await post(`${service.urls.retrieval}/retrieval/semantic-nodes/search`, { query: 'how much does parking cost', instance_id: instanceId }, adminKey);
    expect(found.body.response.semantic_nodes[0].text).toContain('5 euros');
  });

  it('stops with exit code 1 when the instance key is refused', async () => {
    const refused = await cli(['ingest', folder, '--instance', instanceId, '--api-key', 'svc_ins_wrong', '--url', service.urls.retrieval]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused the credentials');
  });
});
