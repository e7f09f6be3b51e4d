import type { ParsedDocument } from './parsed-document';

export const MARKDOWN_MEDIA_TYPE = 'text/markdown';
export const PLAIN_TEXT_MEDIA_TYPE = 'text/plain';
export const HTML_MEDIA_TYPE = 'text/html';
export const PDF_MEDIA_TYPE = 'application/pdf';
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The formats the repository indexes, as canonical media types (what `mediaTypeFor` returns). */
export const SUPPORTED_MEDIA_TYPES = [MARKDOWN_MEDIA_TYPE, PLAIN_TEXT_MEDIA_TYPE, HTML_MEDIA_TYPE, PDF_MEDIA_TYPE, DOCX_MEDIA_TYPE] as const;
export type SupportedMediaType = (typeof SUPPORTED_MEDIA_TYPES)[number];

const EXTENSION_MEDIA_TYPES: Record<string, SupportedMediaType> = {
  md: MARKDOWN_MEDIA_TYPE,
  markdown: MARKDOWN_MEDIA_TYPE,
  txt: PLAIN_TEXT_MEDIA_TYPE,
  html: HTML_MEDIA_TYPE,
  htm: HTML_MEDIA_TYPE,
  pdf: PDF_MEDIA_TYPE,
  docx: DOCX_MEDIA_TYPE,
};

/** Other names clients and browsers give the same formats. */
const MEDIA_TYPE_ALIASES: Record<string, SupportedMediaType> = {
  'text/x-markdown': MARKDOWN_MEDIA_TYPE,
  'application/xhtml+xml': HTML_MEDIA_TYPE,
  'application/x-pdf': PDF_MEDIA_TYPE,
};

export function isSupportedMediaType(value: string): value is SupportedMediaType {
  return (SUPPORTED_MEDIA_TYPES as readonly string[]).includes(value);
}

/** `Text/HTML; charset=UTF-8` → `text/html`; known aliases become their canonical type. */
export function normalizeMediaType(value: string): string {
  const bare = value.split(';')[0].trim().toLowerCase();
  return MEDIA_TYPE_ALIASES[bare] ?? bare;
}

/**
 * The canonical media type of an uploaded file, or null when it is not a supported format.
 * A supported declared type wins, except `text/plain` on a `.md`/`.markdown` file (browsers label
 * Markdown that way); a missing, generic (`application/octet-stream`) or unsupported declared type
 * falls back to the file name's extension. A wrong guess is not fatal: the parser then refuses the
 * file with `REPOSITORY.PARSING_FAILED`.
 */
export function mediaTypeFor(fileName: string, declared?: string | null): SupportedMediaType | null {
  const byExtension = EXTENSION_MEDIA_TYPES[extensionOf(fileName)] ?? null;
  const normalized = declared ? normalizeMediaType(declared) : '';
  if (isSupportedMediaType(normalized)) {
    return normalized === PLAIN_TEXT_MEDIA_TYPE && byExtension === MARKDOWN_MEDIA_TYPE ? MARKDOWN_MEDIA_TYPE : normalized;
  }
  return byExtension;
}

function extensionOf(fileName: string): string {
  const base = fileName.trim().split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * Turns the bytes of one file into its title and structural blocks (headings, paragraphs, lists,
 * tables, code), in reading order. Stateless and safe to call concurrently; it never writes anything.
 *
 * Errors, always `DomainError`s of kind `invalid` (retrying cannot help), never a library's own error:
 * - `REPOSITORY.UNSUPPORTED_FORMAT` when `mediaType` (normalised, see `normalizeMediaType`) is not one
 *   of `SUPPORTED_MEDIA_TYPES`;
 * - `REPOSITORY.PARSING_FAILED` when the file is broken, encrypted, binary where text is expected, or
 *   holds no text at all; the message is a short human reason (at most 300 characters, no stack) fit
 *   to be stored as the document's failure reason.
 */
export abstract class DocumentParser {
  abstract parse(input: { content: Buffer; mediaType: string; fileName?: string }): Promise<ParsedDocument>;
}
