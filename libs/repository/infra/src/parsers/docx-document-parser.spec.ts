import { domainErrorOf } from '@svc/kernel/testing';
import { DocxDocumentParser } from './docx-document-parser';
import { buildDocx } from '@svc/test-kit';


describe('DocxDocumentParser', () => {
  const parser = new DocxDocumentParser();

  it('keeps the title, headings, lists and tables of a Word document', async () => {
    expect(await parser.parse(await buildDocx())).toEqual({
      title: 'Customer handbook',
      blocks: [
        { kind: 'heading', level: 1, text: 'Customer handbook' },
        { kind: 'heading', level: 1, text: 'Refunds' },
        { kind: 'paragraph', text: 'Refunds take 30 days after approval.' },
        { kind: 'heading', level: 2, text: 'Deadlines' },
        { kind: 'list', text: '- Ask within two weeks\n- Keep the receipt' },
        { kind: 'list', text: '1. Fill in the form\n2. Send it to finance' },
        { kind: 'table', text: 'Plan | Delay\nBasic | 30 days' },
      ],
    });
  });

  it('refuses bytes that are not a ZIP archive', async () => {
    const error = await domainErrorOf(parser.parse(Buffer.from('plain words, not a docx')));
    expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The file is not a DOCX document (it is not a ZIP archive).' });
  });

  it('refuses a legacy .doc or password-protected file with a hint', async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect((await domainErrorOf(parser.parse(ole))).message).toMatch(/legacy Word document \(\.doc\) or a password-protected \.docx/);
  });

  it('refuses a damaged archive with a short reason', async () => {
    const docx = await buildDocx();
    const error = await domainErrorOf(parser.parse(docx.subarray(0, Math.floor(docx.length / 2))));
    expect(error.code).toBe('REPOSITORY.PARSING_FAILED');
    expect(error.message).toMatch(/^The DOCX file is damaged or is not a Word document: /);
    expect(error.message.length).toBeLessThanOrEqual(300);
  });
});
