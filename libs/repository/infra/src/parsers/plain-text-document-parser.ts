import type { ParsedDocument } from '@svc/repository-core';
import { decodeText } from './text-decoding';

/** Plain text has no markup: paragraphs are separated by blank lines, and there is no title. */
export class PlainTextDocumentParser {
  async parse(content: Buffer): Promise<ParsedDocument> {
    const text = decodeText(content, 'text');
    const paragraphs = text.split(/\r?\n[^\S\r\n]*\r?\n|\r[^\S\r\n]*\r|\f/).filter((p) => p.trim() !== '');
    return { title: null, blocks: paragraphs.map((text) => ({ kind: 'paragraph', text })) };
  }
}
