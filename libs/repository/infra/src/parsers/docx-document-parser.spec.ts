import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import { domainErrorOf } from '@svc/kernel/testing';
import { DocxDocumentParser, readZipDirectory } from './docx-document-parser';
import { buildDocx } from '@svc/test-kit';

const MiB = 1024 * 1024;

/** A ZIP part: `times` copies of each piece, in order; `declaredSize` overrides the size its headers declare. */
interface Part {
  name: string;
  pieces: [Buffer, number][];
  declaredSize?: number;
}

/**
 * Writes a ZIP of deflated parts. Each piece is deflated once, without a final block, and repeated:
 * raw deflate blocks chain, so a part of hundreds of MiB costs this process a few KiB (what a bomb is).
 */
function writeZip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const compressed: Buffer[] = [];
    let crc = 0;
    let size = 0;
    for (const [piece, times] of part.pieces) {
      const deflated = deflateRawSync(piece, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      for (let i = 0; i < times; i++) {
        compressed.push(deflated);
        crc = crc32(piece, crc);
        size += piece.length;
      }
    }
    compressed.push(Buffer.from([0x03, 0x00])); // an empty final block
    const data = Buffer.concat(compressed);
    const name = Buffer.from(part.name);
    const declared = part.declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The test-kit's Word document, its parts kept, replaced or added to. */
async function rezipDocx(parts: Part[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await buildDocx());
  const kept = Object.values(zip.files).filter((file) => !file.dir && !parts.some((part) => part.name === file.name));
  const keptParts = await Promise.all(kept.map(async (file): Promise<Part> => ({ name: file.name, pieces: [[await file.async('nodebuffer'), 1]] })));
  return writeZip([...keptParts, ...parts]);
}

/** A document.xml of `mib` MiB of paragraphs. */
function bigDocumentXml(mib: number): Part {
  const paragraph = '<w:p><w:r><w:t>Refunds take 30 days after approval.</w:t></w:r></w:p>';
  return {
    name: 'word/document.xml',
    pieces: [
      [Buffer.from('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'), 1],
      [Buffer.from(paragraph.repeat(Math.floor(MiB / paragraph.length))), mib],
      [Buffer.from('</w:body></w:document>'), 1],
    ],
  };
}

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

  describe('zip bombs and huge files', () => {
    it('refuses a bomb that declares its size from the central directory, before any reader starts', async () => {
      const bomb = await rezipDocx([{ name: 'word/media/zeros.bin', pieces: [[Buffer.alloc(MiB), 300]] }]);
      expect(bomb.length).toBeLessThan(MiB);
      // A 1 ms timeout would win against any reader: the refusal comes from this process, unpacking nothing.
      const error = await domainErrorOf(new DocxDocumentParser({ timeoutMs: 1 }).parse(bomb));
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The DOCX file would unpack to 300 MiB, more than the 256 MiB allowed.' });
      const lower = await domainErrorOf(new DocxDocumentParser({ maxUncompressedBytes: 100 * 1024 }).parse(await rezipDocx([{ name: 'big.bin', pieces: [[Buffer.alloc(MiB), 1]] }])));
      expect(lower.message).toMatch(/^The DOCX file would unpack to 1(\.\d)? MiB, more than the 100 KiB allowed\.$/);
    });

    it('refuses an archive of more than 10,000 parts', async () => {
      const parts: Part[] = Array.from({ length: 10_001 }, (_, i) => ({ name: `p${i}`, pieces: [] }));
      const error = await domainErrorOf(new DocxDocumentParser({ timeoutMs: 1 }).parse(writeZip(parts)));
      expect(error).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The DOCX file holds 10001 parts, more than the 10000 allowed.' });
    });

    it('refuses a bomb whose headers lie, by counting what it really unpacks in the reader', async () => {
      // document.xml declares 1 KiB and unpacks to 300 MiB; the count names the cause long before the memory bound would stop it.
      const bomb = await rezipDocx([{ name: 'word/document.xml', pieces: [[Buffer.alloc(MiB, 0x20), 300]], declaredSize: 1024 }]);
      expect(readZipDirectory(bomb)?.unpackedBytes).toBeLessThan(MiB);
      const error = await domainErrorOf(new DocxDocumentParser({ maxUncompressedBytes: 32 * MiB }).parse(bomb));
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The DOCX file unpacks to more than the 32 MiB allowed.' });
    });

    it('keeps a lying bomb out of this process with the default limits: 1 GiB of document.xml costs a few hundred MiB at most', async () => {
      const bomb = await rezipDocx([{ name: 'word/document.xml', pieces: [[Buffer.alloc(MiB, 0x20), 1024]], declaredSize: 1024 }]);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      try {
        const error = await domainErrorOf(parser.parse(bomb));
        expect(error).toMatchObject({ code: 'REPOSITORY.PARSING_FAILED', message: 'The DOCX file unpacks to more than the 256 MiB allowed.' });
      } finally {
        clearInterval(sampler);
      }
      // Unpacked whole, as mammoth alone would, it takes more than 1 GiB (mostly ArrayBuffers, which no V8 heap limit counts).
      expect(Math.max(peak, process.memoryUsage().rss) - before).toBeLessThan(512 * MiB);
    }, 30_000);

    it('gives up on a DOCX that takes too long, without leaking the reader', async () => {
      const error = await domainErrorOf(new DocxDocumentParser({ timeoutMs: 1 }).parse(await buildDocx()));
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The DOCX file took longer than 1 ms to read.' });
    });

    it('stops a DOCX that needs more memory than its reader may hold', async () => {
      // mammoth needs about 500 MiB for 8 MiB of XML; the reader's process starts at about 60.
      const error = await domainErrorOf(new DocxDocumentParser({ maxMemoryMb: 160 }).parse(await rezipDocx([bigDocumentXml(8)])));
      expect(error).toMatchObject({ kind: 'invalid', code: 'REPOSITORY.PARSING_FAILED', message: 'The DOCX file needs more than 160 MiB of memory to read.' });
    });
  });
});

describe('readZipDirectory', () => {
  it('reads the number of parts and their declared unpacked size', async () => {
    const zip = writeZip([
      { name: 'a.xml', pieces: [[Buffer.from('hello'), 3]] },
      { name: 'b.bin', pieces: [[Buffer.alloc(1000), 2]], declaredSize: 10 },
    ]);
    expect(readZipDirectory(zip)).toEqual({ parts: 2, unpackedBytes: 15 + 10 });
    const docx = await buildDocx();
    expect(readZipDirectory(docx)?.parts).toBeGreaterThan(3);
  });

  it('gives up on a missing or damaged central directory, for the reader to judge', async () => {
    const docx = await buildDocx();
    expect(readZipDirectory(docx.subarray(0, docx.length - 200))).toBeNull();
    expect(readZipDirectory(docx.subarray(0, Math.floor(docx.length / 2)))).toBeNull();
    expect(readZipDirectory(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBeNull();
  });
});
