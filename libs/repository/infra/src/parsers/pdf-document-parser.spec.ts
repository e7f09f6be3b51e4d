import { domainErrorOf } from '@svc/kernel/testing';
import { PdfDocumentParser, PdfLine, pdfLinesToParagraphs } from './pdf-document-parser';
import { buildPdf, buildPdfFlateBomb, sampleMemory } from '@svc/test-kit';

const MiB = 1024 * 1024;

describe('PdfDocumentParser', () => {
  const parser = new PdfDocumentParser();

  it('reads the text of every page, one paragraph per block of lines, and the metadata title', async () => {
    const pdf = buildPdf(
      [
        ['Hello, refunds take 30 days', 'after the request (see terms).', '', 'A second paragraph on page one.'],
        ['Page two has its own text.'],
      ],
      { title: 'Refund policy' },
    );
    expect(await parser.parse(pdf)).toEqual({
      title: 'Refund policy',
      blocks: [
        { kind: 'paragraph', text: 'Hello, refunds take 30 days after the request (see terms).' },
        { kind: 'paragraph', text: 'A second paragraph on page one.' },
        { kind: 'paragraph', text: 'Page two has its own text.' },
      ],
    });
  });

  it('has no title without metadata', async () => {
    expect((await parser.parse(buildPdf([['Only text']]))).title).toBeNull();
  });

  it('refuses a password-protected PDF', async () => {
    const error = await domainErrorOf(parser.parse(buildPdf([['secret']], { encrypted: true })));
    expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The PDF is encrypted with a password; upload an unprotected copy.' });
  });

  it('refuses a PDF without text, which would need OCR', async () => {
    const error = await domainErrorOf(parser.parse(buildPdf([[]])));
    expect(error.code).toBe('REPOSITORY.PARSING_FAILED');
    expect(error.message).toMatch(/no extractable text/);
  });

  it('refuses a truncated PDF and a file that is not a PDF', async () => {
    const pdf = buildPdf([['Hello refunds take 30 days']]);
    const truncated = await domainErrorOf(parser.parse(pdf.subarray(0, 120)));
    expect(truncated).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED' });
    expect(truncated.message).toMatch(/^The PDF (is damaged|could not be read|contains no extractable text)/);
    expect(await domainErrorOf(parser.parse(Buffer.from('hello, not a pdf')))).toMatchObject({ message: 'The file is not a PDF (it has no %PDF header).' });
  });

  it('refuses a flate bomb (1 MB inflating to 1 GiB) near its memory bound, this process holding none of it', async () => {
    // Before the parse ran in a child process, pdf.js took the worker to a 2.2 GB peak here (ArrayBuffers
    // escape a worker's heap limit) and left this process at 1.2 GB two seconds after.
    const bomb = buildPdfFlateBomb(1024 * MiB);
    expect(bomb.length).toBeLessThan(1.1 * 1000 * 1000);
    const before = process.memoryUsage().rss / MiB;
    const sampler = sampleMemory([process.pid]);
    const error = await domainErrorOf(new PdfDocumentParser({ maxMemoryMb: 256 }).parse(bomb));
    const peaks = sampler.stop();
    expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The PDF needs more than 256 MiB of memory to read.' });
    // The reader's process inflated well past its start (~60 MiB) and was stopped at its bound...
    expect(peaks.childrenSeen).toBeGreaterThanOrEqual(1);
    expect(peaks.childMiB).toBeGreaterThan(128);
    expect(peaks.childMiB).toBeLessThan(256 + 64);
    // ... while this process never held the inflated bytes.
    expect(peaks.ownMiB - before).toBeLessThan(64);
  }, 30_000);

  it('gives up on a PDF that takes too long, without leaking the reader', async () => {
    const slow = new PdfDocumentParser({ timeoutMs: 1 });
    const error = await domainErrorOf(slow.parse(buildPdf([['Hello']])));
    expect(error).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The PDF took longer than 1 ms to read.' });
  });
});

describe('pdfLinesToParagraphs', () => {
  const line = (text: string, y: number, size = 12): PdfLine => ({ text, y, size });

  it('joins lines that follow each other and breaks at blank lines and wide gaps', () => {
    expect(
      pdfLinesToParagraphs([line('Refunds take', 700), line('thirty days.', 686), line('', 672), line('New paragraph', 658), line('After a gap.', 600)]),
    ).toEqual(['Refunds take thirty days.', 'New paragraph', 'After a gap.']);
  });

  it('breaks when the font size changes, or the text moves up to a new column', () => {
    expect(pdfLinesToParagraphs([line('Big title', 700, 24), line('Body text', 675, 12), line('Column two', 700, 12)])).toEqual(['Big title', 'Body text', 'Column two']);
  });

  it('rejoins a word hyphenated across lines, and keeps other hyphens', () => {
    expect(pdfLinesToParagraphs([line('refunds are avail-', 700), line('able for self-', 686), line('Service orders', 672)])).toEqual(['refunds are available for self- Service orders']);
  });

  it('returns nothing for pages without text', () => {
    expect(pdfLinesToParagraphs([])).toEqual([]);
    expect(pdfLinesToParagraphs([line('  ', 700)])).toEqual([]);
  });
});
