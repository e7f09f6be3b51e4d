import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { INGESTION_LIMITS, mediaTypeFor } from '@svc/repository-core';
import type { CliIo } from './cli';
import { redact } from './output';

export const INGEST_USAGE = `Usage: cli ingest PATH [PATH...] --instance KI_ID [--url RETRIEVAL_URL] [--api-key SVC_INS_KEY] [--json]

Sends every supported file (.md .markdown .txt .html .htm .pdf .docx) found under the paths to the
instance API of a running service; the external id of a file is its path relative to the folder given.
Unchanged files are not re-indexed. A file that fails does not stop the batch.
  --url       retrieval app base URL (default $DOCAUDIT_RETRIEVAL_URL or http://localhost:3002)
  --api-key   instance API key (default $DOCAUDIT_INSTANCE_API_KEY); see get-svc-instances or instance create
`;

interface FileResult {
  file: string;
  status: 'queued' | 'unchanged' | 'skipped' | 'failed';
  document_id?: string;
  reason?: string;
}

/**
 * Files under the given paths, with the external id each gets (path relative to the argument).
 * Files of other formats are left out, and listed in `unsupported` when given; hidden entries are skipped.
 */
export function collectFiles(paths: string[], unsupported: string[] = []): { file: string; externalId: string }[] {
  const out: { file: string; externalId: string }[] = [];
  const walk = (root: string, path: string) => {
    const info = statSync(path);
    if (info.isDirectory()) {
      for (const entry of readdirSync(path).sort()) if (!entry.startsWith('.')) walk(root, join(path, entry));
    } else if (info.isFile()) {
      const externalId = relative(root, path) || path.split('/').pop() || path;
      if (mediaTypeFor(path) !== null) out.push({ file: path, externalId });
      else unsupported.push(externalId);
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    walk(statSync(abs).isDirectory() ? abs : resolve(abs, '..'), abs);
  }
  return out;
}

function bar(done: number, total: number, width = 30): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

/** `cli ingest`: uploads files with a progress bar on stderr and a summary; exit 1 if any file failed. */
export async function runIngest(argv: readonly string[], io: CliIo, progress: { tty: boolean } = { tty: Boolean(process.stderr.isTTY) }): Promise<number> {
  let values;
  let paths: string[];
  try {
    const parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { instance: { type: 'string' }, url: { type: 'string' }, 'api-key': { type: 'string' }, json: { type: 'boolean' } } });
    values = parsed.values;
    paths = parsed.positionals;
  } catch (error) {
    io.stderr(`error: ${redact(error instanceof Error ? error.message : String(error))}\n\n${INGEST_USAGE}`);
    return 2;
  }
  const env = io.env ?? process.env;
  const instance = values.instance;
  const apiKey = values['api-key'] ?? env.DOCAUDIT_INSTANCE_API_KEY;
  const baseUrl = (values.url ?? env.DOCAUDIT_RETRIEVAL_URL ?? 'http://localhost:3002').replace(/\/$/, '');
  if (!instance || !apiKey || paths.length === 0) {
    io.stderr(`error: ${paths.length === 0 ? 'Give at least one file or folder.' : !instance ? 'Missing --instance.' : 'Missing --api-key (or DOCAUDIT_INSTANCE_API_KEY).'}\n\n${INGEST_USAGE}`);
    return 2;
  }
  let files;
  const unsupported: string[] = [];
  try {
    files = collectFiles(paths, unsupported);
  } catch (error) {
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const results: FileResult[] = [];
  // A terminal gets a bar redrawn in place; a log (CI, a pipe) one line per file.
  const draw = () => {
    if (progress.tty) io.stderr(`\r${bar(results.length, files.length)}`);
    else if (results.length > 0) {
      const last = results[results.length - 1];
      io.stderr(`[${results.length}/${files.length}] ${last.file}: ${last.status}\n`);
    }
  };
  draw();
  for (const { file, externalId } of files) {
    const content = readFileSync(file);
    if (content.length > INGESTION_LIMITS.maxFileBytes) {
      results.push({ file: externalId, status: 'skipped', reason: `larger than ${INGESTION_LIMITS.maxFileBytes} bytes` });
      draw();
      continue;
    }
    try {
      const res = await fetch(`${baseUrl}/api/documents/upsert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'instance-id': instance, 'api-key': apiKey },
        body: JSON.stringify({ external_id: externalId, name: externalId, media_type: mediaTypeFor(file) ?? undefined, content_base64: content.toString('base64') }),
      });
      const body = (await res.json().catch(() => ({}))) as { response?: { id: string; reindexing: boolean }; detail?: string; code?: string };
      if (res.status === 401) {
        io.stderr(`${progress.tty ? '\n' : ''}error: the instance API refused the credentials (${body.code ?? 401}).\n`);
        return 1;
      }
      if (res.ok && body.response) results.push({ file: externalId, status: body.response.reindexing ? 'queued' : 'unchanged', document_id: body.response.id });
      else results.push({ file: externalId, status: 'failed', reason: `${res.status} ${body.code ?? ''} ${body.detail ?? ''}`.trim() });
    } catch (error) {
      results.push({ file: externalId, status: 'failed', reason: `cannot reach ${baseUrl}: ${error instanceof Error ? error.message : String(error)}` });
    }
    draw();
  }
  if (progress.tty) io.stderr('\n');
  const count = (s: FileResult['status']) => results.filter((r) => r.status === s).length;
  const summary = { files: files.length, queued: count('queued'), unchanged: count('unchanged'), skipped: count('skipped'), failed: count('failed'), unsupported, results };
  if (values.json) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    io.stdout(`${files.length} file(s): ${summary.queued} queued for indexation, ${summary.unchanged} unchanged, ${summary.skipped} skipped, ${summary.failed} failed.\n`);
    for (const r of results.filter((x) => x.status === 'failed' || x.status === 'skipped')) io.stdout(`  ${r.status}: ${r.file}: ${r.reason}\n`);
    if (unsupported.length > 0) {
      const shown = unsupported.slice(0, 10).join(', ');
      io.stdout(`${unsupported.length} file(s) of unsupported formats ignored: ${shown}${unsupported.length > 10 ? ', ...' : ''}\n`);
    }
    if (files.length === 0) io.stdout(`No supported files found (${['.md', '.txt', '.html', '.pdf', '.docx'].join(' ')}).\n`);
  }
  return summary.failed > 0 ? 1 : 0;
}
