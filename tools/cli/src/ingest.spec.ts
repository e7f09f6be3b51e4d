import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIngest } from './ingest';

/** A stand-in instance API: records uploads, refuses one file, knows which contents it has seen. */
function fakeInstanceApi() {
  const seen = new Map<string, string>();
  const uploads: { external_id: string; media_type: string; headers: Record<string, unknown> }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      uploads.push({ external_id: body.external_id, media_type: body.media_type, headers: req.headers });
      res.setHeader('content-type', 'application/json');
      if (req.headers['api-key'] !== 'svc_ins_good') return res.writeHead(401).end(JSON.stringify({ code: 'AUTH.INVALID_INSTANCE_KEY' }));
      if (body.external_id.endsWith('refused.md')) return res.writeHead(400).end(JSON.stringify({ code: 'REQUEST.VALIDATION_FAILED', detail: 'Invalid request.' }));
      const unchanged = seen.get(body.external_id) === body.content_base64;
      seen.set(body.external_id, body.content_base64);
      res.writeHead(200).end(JSON.stringify({ response: { id: `kd_${uploads.length}`, reindexing: !unchanged } }));
    });
  });
  return { server, uploads };
}

function folder() {
  const root = mkdtempSync(join(tmpdir(), 'ingest-'));
  mkdirSync(join(root, 'policies'));
  writeFileSync(join(root, 'policies', 'refunds.md'), '# Refunds\n\n30 days.');
  writeFileSync(join(root, 'notes.txt'), 'Parking is free.');
  writeFileSync(join(root, 'refused.md'), 'x');
  writeFileSync(join(root, 'slides.pptx'), 'not supported');
  writeFileSync(join(root, '.hidden.md'), 'skipped');
  return root;
}

describe('cli ingest', () => {
  let api: ReturnType<typeof fakeInstanceApi>;
  let url: string;
  beforeAll(async () => {
    api = fakeInstanceApi();
    await new Promise<void>((r) => api.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  });
  afterAll(() => api.server.close());

  const run = async (args: string[], tty = false) => {
    let stdout = '';
    let stderr = '';
    const code = await runIngest(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {} }, { tty });
    return { code, stdout, stderr };
  };

  it('uploads every supported file with its relative path as external id, shows progress and a summary, and keeps going past a failure', async () => {
    const root = folder();
    const first = await run([root, '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--url', url, '--api-key', 'svc_ins_good'], true);
    expect(first.code).toBe(1);
    expect(api.uploads.map((u) => u.external_id).sort()).toEqual(['notes.txt', 'policies/refunds.md', 'refused.md']);
    expect(api.uploads.find((u) => u.external_id === 'notes.txt')).toMatchObject({ media_type: 'text/plain', headers: expect.objectContaining({ 'instance-id': 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV' }) });
    expect(first.stderr).toContain('3/3');
    expect(first.stdout).toContain('3 file(s): 2 queued for indexation, 0 unchanged, 0 skipped, 1 failed.');
    expect(first.stdout).toContain('failed: refused.md: 400 REQUEST.VALIDATION_FAILED');
    expect(first.stdout).toContain('1 file(s) of unsupported formats ignored: slides.pptx');

    // Same folder again: unchanged files are not re-indexed (the service says so, the summary shows it).
    const again = await run([root, '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--url', url, '--api-key', 'svc_ins_good', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ files: 3, queued: 0, unchanged: 2, failed: 1, unsupported: ['slides.pptx'] });
    // A single file keeps its own name as external id.
    const single = await run([join(root, 'notes.txt'), '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--url', url, '--api-key', 'svc_ins_good', '--json']);
    expect(single.code).toBe(0);
    expect(JSON.parse(single.stdout)).toMatchObject({ files: 1, unchanged: 1, results: [{ file: 'notes.txt' }] });
  });

  it('writes one progress line per file when stderr is not a terminal', async () => {
    const logged = await run([folder(), '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--url', url, '--api-key', 'svc_ins_good']);
    expect(logged.stderr.trim().split('\n')).toEqual(['[1/3] notes.txt: unchanged', '[2/3] policies/refunds.md: unchanged', '[3/3] refused.md: failed']);
  });

  it('stops at once when the credentials are refused, and explains usage errors', async () => {
    const refused = await run([folder(), '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--url', url, '--api-key', 'svc_ins_bad']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused the credentials');
    expect((await run(['--instance', 'ki_x', '--api-key', 'k'])).code).toBe(2);
    expect((await run([folder(), '--api-key', 'k'])).stderr).toContain('Missing --instance');
  });

  it('reports an unreachable service per file without crashing', async () => {
    const result = await run([folder(), '--instance', 'ki_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--url', 'http://127.0.0.1:9', '--api-key', 'svc_ins_good']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('cannot reach http://127.0.0.1:9');
  });
});
