import { DomainError } from '@svc/kernel';
import { PlainTextDocumentParser } from './plain-text-document-parser';
import { decodeText } from './text-decoding';

describe('PlainTextDocumentParser', () => {
  const parser = new PlainTextDocumentParser();

  it('splits paragraphs on blank lines, whatever the line endings, and has no title', async () => {
    const doc = await parser.parse(Buffer.from('Refunds take\n30 days.\r\n  \r\nSecond paragraph.\n\n\n\nThird\fFourth'));
    expect(doc).toEqual({
      title: null,
      blocks: [
        { kind: 'paragraph', text: 'Refunds take\n30 days.' },
        { kind: 'paragraph', text: 'Second paragraph.' },
        { kind: 'paragraph', text: 'Third' },
        { kind: 'paragraph', text: 'Fourth' },
      ],
    });
  });
});

describe('decodeText', () => {
  it('reads UTF-8 with or without BOM, UTF-16 with BOM, and falls back to Windows-1252', () => {
    expect(decodeText(Buffer.from('\uFEFFcafé', 'utf8'), 'text')).toBe('café');
    expect(decodeText(Buffer.from('café'), 'text')).toBe('café');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('délai', 'utf16le')]), 'text')).toBe('délai');
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('délai', 'utf16le').swap16()]), 'text')).toBe('délai');
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35, 0x20, 0x93, 0x71, 0x94]), 'text')).toBe('café €5 \u201Cq\u201D');
  });

  it('refuses binary data', () => {
    let state = 0x9e3779b9;
    const random = Buffer.from(
      Array.from({ length: 4096 }, () => {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        return state & 0xff;
      }),
    );
    for (const content of [random, Buffer.from('text\u0000with a NUL'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]) {
      let error: unknown;
      try {
        decodeText(content, 'Markdown');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The file is not readable Markdown: it holds binary data, not text.' });
    }
  });

  it('accepts text with a few stray control characters', () => {
    expect(decodeText(Buffer.from(`${'word '.repeat(200)}\u0007\u001b`), 'text')).toContain('word');
  });
});
