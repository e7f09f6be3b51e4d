/** What a command prints: a document for --json, lines for people. */
export interface CommandOutput {
  json: unknown;
  text: string;
}

/** Left-aligned columns separated by two spaces; an empty table says so. */
export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '(none)';
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** "3 of 120 (offset 0); use --offset/--limit for more" */
export function pageFooter(page: { items: unknown[]; total: number; offset: number; limit: number }): string {
  const shown = page.items.length;
  const more = page.offset + shown < page.total ? '; use --offset and --limit for more' : '';
  return `${shown} of ${page.total} (offset ${page.offset})${more}`;
}

/** The block that shows a raw API key: the one place a secret is ever printed. */
export function rawKeyBlock(rawKey: string): string {
  return ['', '  API key (shown once, store it now):', '', `    ${rawKey}`, '', '  Use it as "Authorization: Bearer <key>" or exchange it at POST /core/api-key/token.', ''].join('\n');
}

/** Removes what must never reach a terminal or a log in an error message. */
export function redact(text: string, secrets: (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 8) out = out.split(secret).join('[redacted]');
  return out
    .replace(/svc_[a-z]+_[0-9A-Za-z_-]{16,}/g, 'svc_…[redacted]')
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*):[^@/\s]*@/gi, '$1:[redacted]@');
}
