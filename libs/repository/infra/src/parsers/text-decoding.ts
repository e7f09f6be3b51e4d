import { parsingFailed } from './parsing-failure';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Windows-1252's characters for bytes 0x80–0x9F (Latin-1 has invisible controls there); the five
 * unassigned bytes stay controls. Spelled out because Node 20's TextDecoder decodes this label as Latin-1.
 */
const WINDOWS_1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/** Share of control characters above which content is taken for binary data. */
const MAX_CONTROL_RATIO = 0.02;

/**
 * The text of a file that should be text: UTF-8 (with or without BOM), UTF-16 with a BOM, or else
 * Windows-1252, the usual encoding of old Western text files. Refuses content that is binary (a NUL
 * byte, or more than 2 % control characters), so random bytes sent as Markdown or HTML end in
 * PARSING_FAILED rather than in an index full of noise.
 */
export function decodeText(content: Buffer, formatName: string): string {
  const text = decode(content);
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) throw binary(formatName);
    if ((code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) || (code >= 0x7f && code <= 0x9f) || code === 0xfffd) controls++;
  }
  if (controls > text.length * MAX_CONTROL_RATIO) throw binary(formatName);
  return text;
}

function decode(content: Buffer): string {
  if (content.length >= 2 && content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content);
  if (content.length >= 2 && content[0] === 0xfe && content[1] === 0xff) return new TextDecoder('utf-16be').decode(content);
  try {
    return UTF8.decode(content);
  } catch {
    return content.toString('latin1').replace(/[\u0080-\u009F]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);
  }
}

function binary(formatName: string): Error {
  return parsingFailed(`The file is not readable ${formatName}: it holds binary data, not text.`);
}
