import { constants as zlibConstants, deflateRawSync } from 'node:zlib';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';

export interface PdfFixtureOptions {
  title?: string;
  /** Adds a standard-security /Encrypt dictionary whose user password is not empty. */
  encrypted?: boolean;
}

const escapePdfString = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A small but valid PDF 1.4 built by hand: Helvetica text, one content stream per page, exact xref
 * offsets. Each page is a list of lines, 16 points apart; '' leaves a line empty (a paragraph break).
 */
export function buildPdf(pages: string[][], options: PdfFixtureOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesObject = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const lines of pages) {
    const operations = lines.map((line, i) => (line === '' ? '' : `BT /F1 12 Tf 72 ${720 - 16 * i} Td (${escapePdfString(line)}) Tj ET`)).filter((op) => op !== '');
    const stream = operations.join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    pageIds.push(add(`<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`;
  objects[pagesObject - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const info = options.title === undefined ? null : add(`<< /Title (${escapePdfString(options.title)}) >>`);
  const encrypt = options.encrypted ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`) : null;

  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = [`/Size ${objects.length + 1}`, `/Root ${catalog} 0 R`];
  if (info !== null) trailer.push(`/Info ${info} 0 R`);
  if (encrypt !== null) trailer.push(`/Encrypt ${encrypt} 0 R`, `/ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`);
  pdf += `trailer\n<< ${trailer.join(' ')} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A Word document with a title, headings, a paragraph, a bullet list and a table, as Word would save it. */
export async function buildDocx(): Promise<Buffer> {
  const document = new Document({
    numbering: {
      config: [{ reference: 'steps', levels: [{ level: 0, format: 'decimal', text: '%1.', alignment: 'left' }] }],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Customer handbook', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Refunds', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Refunds take '), new TextRun({ text: '30 days', bold: true }), new TextRun(' after approval.')] }),
          new Paragraph({ text: 'Deadlines', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Ask within two weeks', bullet: { level: 0 } }),
          new Paragraph({ text: 'Keep the receipt', bullet: { level: 0 } }),
          new Paragraph({ text: 'Fill in the form', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Send it to finance', numbering: { reference: 'steps', level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Plan')] }), new TableCell({ children: [new Paragraph('Delay')] })] }),
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Basic')] }), new TableCell({ children: [new Paragraph('30 days')] })] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

/**
 * A PDF flate bomb: one page whose content stream is `inflatedBytes` of zeros (whitespace to a PDF
 * lexer) behind FlateDecode, about 1 KiB per MiB inflated (1 GiB: a 1 MB file). One MiB of zeros is
 * deflated once without a final block and the raw blocks repeated, so building it costs a few MiB
 * whatever its inflated size; the zlib header and Adler-32 (of zeros: 1 and the length mod 65,521)
 * make it a valid zlib stream. The page also shows a line of text, drawn before the zeros.
 */
export function buildPdfFlateBomb(inflatedBytes: number): Buffer {
  const MiB = 1024 * 1024;
  if (inflatedBytes % MiB !== 0) throw new Error('inflatedBytes must be a whole number of MiB');
  const text = Buffer.from('BT /F1 12 Tf 72 720 Td (Looks like a policy) Tj ET\n', 'latin1');
  const zeros = Buffer.alloc(MiB - text.length);
  const head = deflateRawSync(Buffer.concat([text, zeros]), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const block = deflateRawSync(Buffer.alloc(MiB), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  let a = 1;
  let b = 0;
  for (const byte of text) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + (inflatedBytes - text.length) * a) % 65521; // zeros leave a alone and add it to b each
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(b * 0x10000 + a);
  const stream = Buffer.concat([Buffer.from([0x78, 0x9c]), head, ...Array<Buffer>(inflatedBytes / MiB - 1).fill(block), Buffer.from([0x03, 0x00]), adler]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const piece =
      body === null
        ? Buffer.concat([Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), stream, Buffer.from('\nendstream\nendobj\n', 'latin1')])
        : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1');
    parts.push(piece);
    length += piece.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
