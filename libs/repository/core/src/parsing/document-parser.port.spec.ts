import { DOCX_MEDIA_TYPE, mediaTypeFor, normalizeMediaType, SUPPORTED_MEDIA_TYPES } from './document-parser.port';

describe('mediaTypeFor', () => {
  it.each([
    ['policy.md', 'text/markdown'],
    ['README.MARKDOWN', 'text/markdown'],
    ['notes.txt', 'text/plain'],
    ['page.html', 'text/html'],
    ['old/page.HTM', 'text/html'],
    ['C:\\docs\\report.pdf', 'application/pdf'],
    ['contract.v2.docx', DOCX_MEDIA_TYPE],
  ])('maps %s by its extension', (name, expected) => {
    expect(mediaTypeFor(name)).toBe(expected);
  });

  it('returns null for unsupported or missing extensions', () => {
    for (const name of ['slides.pptx', 'report.doc', 'archive.zip', 'Makefile', '.md', 'trailing.']) expect(mediaTypeFor(name)).toBeNull();
  });

  it('prefers a supported declared type, normalised', () => {
    expect(mediaTypeFor('upload.bin', 'Text/HTML; charset=UTF-8')).toBe('text/html');
    expect(mediaTypeFor('upload', 'application/x-pdf')).toBe('application/pdf');
    expect(mediaTypeFor('x.txt', 'text/x-markdown')).toBe('text/markdown');
  });

  it('keeps Markdown when a browser labels a .md file text/plain', () => {
    expect(mediaTypeFor('guide.md', 'text/plain')).toBe('text/markdown');
    expect(mediaTypeFor('guide.txt', 'text/plain')).toBe('text/plain');
  });

  it('falls back to the extension for a generic or unsupported declared type', () => {
    expect(mediaTypeFor('report.pdf', 'application/octet-stream')).toBe('application/pdf');
    expect(mediaTypeFor('report.docx', 'application/zip')).toBe(DOCX_MEDIA_TYPE);
    expect(mediaTypeFor('photo.png', 'image/png')).toBeNull();
    expect(mediaTypeFor('unknown', '')).toBeNull();
  });

  it('only ever returns one of the supported types', () => {
    expect(SUPPORTED_MEDIA_TYPES).toHaveLength(5);
    expect(normalizeMediaType(' APPLICATION/XHTML+XML ')).toBe('text/html');
  });
});
