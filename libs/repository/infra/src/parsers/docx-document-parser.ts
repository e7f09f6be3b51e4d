import type { ParsedDocument } from '@svc/repository-core';
import mammoth from 'mammoth';
import { htmlToDocument } from './html-document-parser';
import { errorSummary, parsingFailed } from './parsing-failure';

/** Word's own title styles are not headings to mammoth; make them the top headings. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/** A ZIP (the container of every .docx) starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An OLE compound file: a legacy .doc, or a password-protected .docx. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * DOCX through mammoth, which maps Word styles to semantic HTML (headings, lists, tables), then the
 * HTML parser, so the structure survives. Images are not extracted.
 */
export class DocxDocumentParser {
  async parse(content: Buffer): Promise<ParsedDocument> {
    if (content.subarray(0, OLE_MAGIC.length).equals(OLE_MAGIC)) {
      throw parsingFailed('The file is a legacy Word document (.doc) or a password-protected .docx; save it as an unprotected .docx.');
    }
    if (!content.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
      throw parsingFailed('The file is not a DOCX document (it is not a ZIP archive).');
    }
    let html: string;
    try {
      const result = await mammoth.convertToHtml(
        { buffer: content },
        { styleMap: STYLE_MAP, includeDefaultStyleMap: true, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
      );
      html = result.value;
    } catch (error) {
      throw parsingFailed(`The DOCX file is damaged or is not a Word document: ${errorSummary(error)}`, error);
    }
    return htmlToDocument(html);
  }
}
