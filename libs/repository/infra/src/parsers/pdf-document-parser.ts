import type { DocumentBlock, ParsedDocument } from '@svc/repository-core';
import { ChildFailure, parseInChild } from './parse-in-child';
import { errorSummary, parsingFailed } from './parsing-failure';

export interface PdfParserOptions {
  /** A PDF still being read after this long is refused (default 60 s). */
  timeoutMs?: number;
  /** Memory of the process that reads one PDF, all of it (heap, ArrayBuffers, code), in MiB (default 512). */
  maxMemoryMb?: number;
}

/** One line of a PDF page as pdf.js lays it out: its text, baseline height on the page, font size. */
export interface PdfLine {
  text: string;
  y: number;
  size: number;
}

interface ReaderSuccess {
  ok: true;
  title: string | null;
  pages: PdfLine[][];
}

/**
 * Runs in the reader's child process: loads unpdf (Mozilla pdf.js, serverless build; an ES module,
 * which Node imports natively there, whatever the caller's module system or test runner), then reads
 * every page's text lines. Plain CommonJS on purpose: it is run as a string, not compiled. pdf.js
 * inflates streams into growing ArrayBuffers, outside any V8 heap limit: the child's resident-memory
 * bound is what holds a flate bomb.
 */
const READER_SOURCE = `
async function read(input) {
  const { getDocumentProxy } = require(input.unpdfPath);
  const data = new Uint8Array(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  const pdf = await getDocumentProxy(data, { verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false });
  try {
    const metadata = await pdf.getMetadata().catch(() => null);
    const title = metadata && metadata.info && typeof metadata.info.Title === 'string' ? metadata.info.Title : null;
    const pages = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const lines = [];
      let line = null;
      for (const item of content.items) {
        if (typeof item.str !== 'string') continue;
        const size = Math.hypot(item.transform[2], item.transform[3]) || item.height || 0;
        if (line === null) line = { text: '', y: item.transform[5], size: 0 };
        line.text += item.str;
        if (item.str.trim() !== '') line.size = Math.max(line.size, size);
        if (item.hasEOL) { lines.push(line); line = null; }
      }
      if (line !== null) lines.push(line);
      pages.push(lines);
      page.cleanup();
    }
    return { ok: true, title, pages };
  } finally {
    await pdf.destroy();
  }
}
`;

/**
 * PDF through pdf.js (via unpdf), in a child process per file (`parseInChild`): a hostile or huge
 * PDF, a flate bomb included, cannot block the event loop, take more than `maxMemoryMb` of memory
 * in all (the child is killed past it, and what it held goes back to the system) or run forever (it
 * is killed after `timeoutMs`). Text lines become paragraphs at blank lines and wide
 * vertical gaps; the title is the PDF's metadata title. PDFs have no reliable structure, so there
 * are no headings, lists or tables; scanned pages (images) yield no text, as there is no OCR.
 */
export class PdfDocumentParser {
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;

  constructor(options: PdfParserOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxMemoryMb = options.maxMemoryMb ?? 512;
  }

  async parse(content: Buffer): Promise<ParsedDocument> {
    if (!content.subarray(0, 1024).includes('%PDF-')) throw parsingFailed('The file is not a PDF (it has no %PDF header).');
    const result = await this.readInChild(content);
    if (!result.ok) throw parsingFailed(describePdfError(result), result);
    const blocks: DocumentBlock[] = result.pages.flatMap((lines) => pdfLinesToParagraphs(lines).map((text): DocumentBlock => ({ kind: 'paragraph', text })));
    if (blocks.length === 0) throw parsingFailed('The PDF contains no extractable text (scanned pages would need OCR, which is not supported).');
    const title = result.title?.replace(/\s+/g, ' ').trim() || null;
    return { title, blocks };
  }

  private readInChild(content: Buffer): Promise<ReaderSuccess | ChildFailure> {
    return parseInChild({
      source: READER_SOURCE,
      input: { unpdfPath: require.resolve('unpdf'), data: content },
      timeoutMs: this.timeoutMs,
      maxMemoryMb: this.maxMemoryMb,
      subject: 'The PDF',
    });
  }
}

function describePdfError(failure: ChildFailure): string {
  switch (failure.name) {
    case 'PasswordException':
      return 'The PDF is encrypted with a password; upload an unprotected copy.';
    case 'InvalidPDFException':
      return `The PDF is damaged: ${failure.message}`;
    default:
      return `The PDF could not be read: ${errorSummary(failure.message)}`;
  }
}

/**
 * Groups a page's lines into paragraphs: a paragraph ends at a blank line, at a vertical gap wider
 * than 1.6 lines, when the text moves up (a new column) or when the font size changes by a third.
 * Lines are joined with a space, or without one after a hyphen that splits a word.
 */
export function pdfLinesToParagraphs(lines: PdfLine[]): string[] {
  const paragraphs: string[] = [];
  let current = '';
  let previous: PdfLine | null = null;
  const close = (): void => {
    if (current.trim() !== '') paragraphs.push(current.replace(/\s+/g, ' ').trim());
    current = '';
  };
  for (const line of lines) {
    const text = line.text.trim();
    if (text === '') {
      close();
      previous = null;
      continue;
    }
    if (previous !== null) {
      const size = Math.max(previous.size, line.size, 1);
      const gap = previous.y - line.y;
      const sizeChange = Math.abs(previous.size - line.size) / size;
      if (gap > 1.6 * size || gap < -0.5 * size || sizeChange > 1 / 3) close();
    }
    if (current === '') current = text;
    else if (/\p{L}-$/u.test(current) && /^\p{Ll}/u.test(text)) current = current.slice(0, -1) + text;
    else current = `${current} ${text}`;
    previous = line;
  }
  close();
  return paragraphs;
}
