import { createRequire } from 'node:module';
import type { ParsedDocument } from '@svc/repository-core';
import { htmlToDocument } from './html-document-parser';
import { ChildFailure, parseInChild } from './parse-in-child';
import { errorSummary, parsingFailed } from './parsing-failure';

export interface DocxParserOptions {
  /** A DOCX still being read after this long is refused (default 60 s). */
  timeoutMs?: number;
  /** Memory of the process that reads one DOCX, all of it (heap, ArrayBuffers, code), in MiB (default 512). */
  maxMemoryMb?: number;
  /** A DOCX whose parts unpack to more than this, declared or actual, is refused (default 256 MiB). */
  maxUncompressedBytes?: number;
}

/** Word's own title styles are not headings to mammoth; make them the top headings. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/** A ZIP (the container of every .docx) starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An OLE compound file: a legacy .doc, or a password-protected .docx. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** A real document has tens of parts; Word's biggest, a few thousand (one per image). */
const MAX_PARTS = 10_000;
const MiB = 1024 * 1024;

/** The name the reader gives the failure of its unpacked-size check. */
const UNPACKED_TOO_LARGE = 'UnpackedSizeExceeded';

interface ReaderSuccess {
  ok: true;
  html: string;
}

/**
 * Runs in the reader's child process. Plain CommonJS on purpose: it is run as a string, not compiled.
 * First unpacks every part once with the JSZip that mammoth uses, counting bytes and throwing them
 * away, and stops past `maxUncompressedBytes`: sizes in the ZIP headers can lie, and this refuses a
 * bomb by name, long before the child's memory bound would stop it. Then mammoth converts the
 * document to HTML, images left out.
 */
const READER_SOURCE = `
async function read(input) {
  const mammoth = require(input.mammothPath);
  const JSZip = require(input.jszipPath);
  const buffer = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  await checkUnpackedSize(await JSZip.loadAsync(buffer), input.maxUncompressedBytes, input.tooLargeName);
  const result = await mammoth.convertToHtml(
    { buffer },
    { styleMap: input.styleMap, includeDefaultStyleMap: true, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
  );
  return { ok: true, html: result.value };
}
async function checkUnpackedSize(zip, limit, tooLargeName) {
  let total = 0;
  for (const file of Object.values(zip.files)) {
    if (file.dir) continue;
    await new Promise((resolve, reject) => {
      const stream = file.internalStream('uint8array');
      stream
        .on('data', (chunk) => {
          total += chunk.length;
          if (total <= limit) return;
          stream.pause();
          reject(Object.assign(new Error('The parts unpack to more than the limit.'), { name: tooLargeName }));
        })
        .on('error', () => resolve()) // a damaged part is mammoth's to report, if it reads it
        .on('end', () => resolve())
        .resume();
    });
  }
}
`;

/**
 * DOCX through mammoth, which maps Word styles to semantic HTML (headings, lists, tables), then the
 * HTML parser, so the structure survives. Images are not extracted. A .docx is a ZIP, so it can be a
 * zip bomb: its central directory is checked first (declared size and number of parts), then the
 * file is read in a child process per file (`parseInChild`), which counts what it really unpacks, is
 * killed past `maxMemoryMb` of memory in all or after `timeoutMs`; whatever the file, this process
 * neither runs out of memory nor blocks, and gets back to its baseline after.
 */
export class DocxDocumentParser {
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;
  private readonly maxUncompressedBytes: number;

  constructor(options: DocxParserOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxMemoryMb = options.maxMemoryMb ?? 512;
    this.maxUncompressedBytes = options.maxUncompressedBytes ?? 256 * MiB;
  }

  async parse(content: Buffer): Promise<ParsedDocument> {
    if (content.subarray(0, OLE_MAGIC.length).equals(OLE_MAGIC)) {
      throw parsingFailed('The file is a legacy Word document (.doc) or a password-protected .docx; save it as an unprotected .docx.');
    }
    if (!content.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
      throw parsingFailed('The file is not a DOCX document (it is not a ZIP archive).');
    }
    const declared = readZipDirectory(content);
    if (declared !== null && declared.parts > MAX_PARTS) {
      throw parsingFailed(`The DOCX file holds ${declared.parts} parts, more than the ${MAX_PARTS} allowed.`);
    }
    if (declared !== null && declared.unpackedBytes > this.maxUncompressedBytes) {
      throw parsingFailed(`The DOCX file would unpack to ${formatSize(declared.unpackedBytes)}, more than the ${formatSize(this.maxUncompressedBytes)} allowed.`);
    }
    const result = await this.readInChild(content);
    if (!result.ok) {
      if (result.name === UNPACKED_TOO_LARGE) throw parsingFailed(`The DOCX file unpacks to more than the ${formatSize(this.maxUncompressedBytes)} allowed.`);
      throw parsingFailed(`The DOCX file is damaged or is not a Word document: ${errorSummary(result.message)}`, result);
    }
    return htmlToDocument(result.html);
  }

  private readInChild(content: Buffer): Promise<ReaderSuccess | ChildFailure> {
    const mammothPath = require.resolve('mammoth');
    return parseInChild({
      source: READER_SOURCE,
      input: {
        mammothPath,
        jszipPath: createRequire(mammothPath).resolve('jszip'), // mammoth's own copy, to see the archive as mammoth will
        styleMap: STYLE_MAP,
        maxUncompressedBytes: this.maxUncompressedBytes,
        tooLargeName: UNPACKED_TOO_LARGE,
        data: content,
      },
      timeoutMs: this.timeoutMs,
      maxMemoryMb: this.maxMemoryMb,
      subject: 'The DOCX file',
    });
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
/** The End Of Central Directory record (22 bytes) is followed by a comment of at most 65,535 bytes. */
const EOCD_SEARCH_BYTES = EOCD_SIZE + 0xffff;

/**
 * What a ZIP's central directory declares, read without unpacking anything: its number of parts and
 * their total unpacked size. Null when there is no readable directory (damaged, truncated, or ZIP64,
 * which no real .docx needs): the reader's JSZip then reports the damage, and its byte count still
 * applies. The declared sizes may lie; this check only refuses honest bombs and huge files early.
 */
export function readZipDirectory(zip: Buffer): { parts: number; unpackedBytes: number } | null {
  const searchFrom = Math.max(0, zip.length - EOCD_SEARCH_BYTES);
  let eocd = -1;
  for (let at = zip.length - EOCD_SIZE; at >= searchFrom && eocd === -1; at--) if (zip.readUInt32LE(at) === EOCD_SIGNATURE) eocd = at;
  if (eocd === -1) return null;
  const parts = zip.readUInt16LE(eocd + 10);
  const directorySize = zip.readUInt32LE(eocd + 12);
  const directoryOffset = zip.readUInt32LE(eocd + 16);
  if (parts === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) return null;
  // Bytes before the archive (a self-extracting stub) shift every offset; JSZip allows for them too.
  const extraBytes = eocd - (directoryOffset + directorySize);
  if (extraBytes < 0) return null;
  let position = extraBytes > 0 && !hasSignature(zip, directoryOffset, CENTRAL_HEADER_SIGNATURE) ? directoryOffset + extraBytes : directoryOffset;
  let unpackedBytes = 0;
  for (let found = 0; found < parts; found++) {
    if (position + CENTRAL_HEADER_SIZE > eocd || !hasSignature(zip, position, CENTRAL_HEADER_SIGNATURE)) return null;
    const size = zip.readUInt32LE(position + 24);
    if (size === 0xffffffff) return null;
    unpackedBytes += size;
    position += CENTRAL_HEADER_SIZE + zip.readUInt16LE(position + 28) + zip.readUInt16LE(position + 30) + zip.readUInt16LE(position + 32);
  }
  return { parts, unpackedBytes };
}

function hasSignature(zip: Buffer, at: number, signature: number): boolean {
  return at >= 0 && at + 4 <= zip.length && zip.readUInt32LE(at) === signature;
}

function formatSize(bytes: number): string {
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}
