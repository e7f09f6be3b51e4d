import { DomainError } from '@svc/kernel';
import { chunkDocument, DOCX_MEDIA_TYPE, DocumentParser, documentText, SUPPORTED_MEDIA_TYPES } from '@svc/repository-core';
import { CompositeDocumentParser } from './composite-document-parser';
import { buildDocx, buildPdf } from '@svc/test-kit';

const parser: DocumentParser = new CompositeDocumentParser();

async function outcome(content: Buffer, mediaType: string): Promise<{ ok: true } | { ok: false; error: unknown }> {
  try {
    await parser.parse({ content, mediaType });
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

async function failureOf(content: Buffer, mediaType: string): Promise<DomainError> {
  const result = await outcome(content, mediaType);
  if (result.ok) throw new Error(`expected ${mediaType} to be refused`);
  if (!(result.error instanceof DomainError)) throw result.error;
  return result.error;
}

/** Deterministic bytes (xorshift32), so a failure reproduces. */
function noise(length: number, seed: number): Buffer {
  let state = seed || 1;
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

describe('CompositeDocumentParser', () => {
  it('dispatches each supported media type to its reader, parameters and case aside', async () => {
    const samples: [string, Buffer][] = [
      ['text/markdown', Buffer.from('# Refunds\n\nThirty days.')],
      ['text/plain; charset=utf-8', Buffer.from('Refunds\n\nThirty days.')],
      ['Text/HTML', Buffer.from('<title>Refunds</title><p>Thirty days.</p>')],
      ['application/pdf', buildPdf([['Thirty days.']], { title: 'Refunds' })],
      [DOCX_MEDIA_TYPE, await buildDocx()],
    ];
    const titles = [];
    for (const [mediaType, content] of samples) {
      const doc = await parser.parse({ content, mediaType, fileName: 'refunds' });
      expect(documentText(doc)).toMatch(/Thirty days\.|Refunds take 30 days/);
      titles.push(doc.title);
    }
    expect(titles).toEqual(['Refunds', null, 'Refunds', 'Refunds', 'Customer handbook']);
  });

  it('refuses an unknown media type with UNSUPPORTED_FORMAT', async () => {
    for (const mediaType of ['image/png', 'application/msword', '']) {
      const error = await failureOf(Buffer.from('x'), mediaType);
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.UNSUPPORTED_FORMAT' });
      expect(error.hint).toBe(`Supported: ${SUPPORTED_MEDIA_TYPES.join(', ')}.`);
    }
  });

  it('refuses an empty file and a file without any text', async () => {
    expect(await failureOf(Buffer.alloc(0), 'text/markdown')).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The Markdown file is empty.' });
    expect(await failureOf(Buffer.from('<html><head><title>T</title></head><body><script>x()</script></body></html>'), 'text/html')).toMatchObject({
      code: 'REPOSITORY.PARSING_FAILED',
      message: 'The HTML file contains no text.',
    });
    expect(await failureOf(Buffer.from(' \n\n \t'), 'text/plain')).toMatchObject({ message: 'The text file contains no text.' });
  });

  it('refuses binary garbage sent as text formats with PARSING_FAILED', async () => {
    for (const mediaType of ['text/markdown', 'text/plain', 'text/html']) {
      const error = await failureOf(noise(2048, 42), mediaType);
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED' });
      expect(error.message).toMatch(/holds binary data/);
    }
  });

  it('refuses broken PDF and DOCX files with a short human reason', async () => {
    const pdf = buildPdf([['Hello refunds take 30 days']]);
    const docx = await buildDocx();
    const cases: [Buffer, string, RegExp][] = [
      [pdf.subarray(0, 100), 'application/pdf', /^The PDF (is damaged|could not be read|contains no extractable text)/],
      [Buffer.concat([Buffer.from('%PDF-1.7\n'), noise(3000, 7)]), 'application/pdf', /^The PDF (is damaged|could not be read|contains no extractable text)/],
      [noise(3000, 9), 'application/pdf', /^The file is not a PDF/],
      [noise(3000, 11), DOCX_MEDIA_TYPE, /^The file is not a DOCX document/],
      [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), noise(3000, 13)]), DOCX_MEDIA_TYPE, /^The DOCX file is damaged/],
      [docx.subarray(0, docx.length - 200), DOCX_MEDIA_TYPE, /^The DOCX file is damaged/],
    ];
    for (const [content, mediaType, reason] of cases) {
      const error = await failureOf(content, mediaType);
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED' });
      expect(error.message).toMatch(reason);
      expect(error.message.length).toBeLessThanOrEqual(300);
      expect(error.message).not.toMatch(/\n|\s+at\s|node_modules/);
    }
  });

  it('never throws anything but a PARSING_FAILED DomainError, whatever the bytes', async () => {
    const pdf = buildPdf([['Hello refunds take 30 days', '', 'Second paragraph']]);
    const docx = await buildDocx();
    const inputs: Buffer[] = [noise(500, 1), noise(5000, 2), Buffer.alloc(100, 0xff), Buffer.from('\u0000'.repeat(10))];
    for (let cut = 50; cut < pdf.length; cut += 97) inputs.push(pdf.subarray(0, cut));
    for (let cut = 500; cut < docx.length; cut += Math.floor(docx.length / 6)) inputs.push(docx.subarray(0, cut));
    inputs.push(Buffer.from('<'.repeat(5000)), Buffer.from('<div>'.repeat(20000)), Buffer.from('> '.repeat(5000) + 'deep'), Buffer.from('[['.repeat(5000)));
    for (const content of inputs) {
      for (const mediaType of SUPPORTED_MEDIA_TYPES) {
        const result = await outcome(content, mediaType);
        if (result.ok) continue;
        expect(result.error).toBeInstanceOf(DomainError);
        expect(result.error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED' });
      }
    }
  }, 60_000);

  it('refuses absurdly nested HTML without overflowing', async () => {
    expect(await failureOf(Buffer.from(`${'<div>'.repeat(20000)}deep`), 'text/html')).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The HTML file is nested too deeply to read.' });
  });

  it('feeds the chunker: a parsed document becomes semantic nodes with heading paths', async () => {
    const doc = await parser.parse({ content: await buildDocx(), mediaType: DOCX_MEDIA_TYPE });
    const nodes = chunkDocument(doc);
    expect(nodes.map((n) => [n.text, n.headingPath])).toEqual([
      ['Customer handbook', ['Customer handbook']],
      ['Refunds\n\nRefunds take 30 days after approval.', ['Refunds']],
      ['Deadlines\n\n- Ask within two weeks\n- Keep the receipt\n\n1. Fill in the form\n2. Send it to finance\n\nPlan | Delay\nBasic | 30 days', ['Refunds', 'Deadlines']],
    ]);
  });
});
