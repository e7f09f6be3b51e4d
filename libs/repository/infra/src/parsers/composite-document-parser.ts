import { DomainError, isDomainError } from '@svc/kernel';
import {
  DOCX_MEDIA_TYPE,
  DocumentParser,
  HTML_MEDIA_TYPE,
  MARKDOWN_MEDIA_TYPE,
  normalizeMediaType,
  ParsedDocument,
  PDF_MEDIA_TYPE,
  PLAIN_TEXT_MEDIA_TYPE,
  SUPPORTED_MEDIA_TYPES,
  SupportedMediaType,
} from '@svc/repository-core';
import { DocxDocumentParser, DocxParserOptions } from './docx-document-parser';
import { HtmlDocumentParser } from './html-document-parser';
import { MarkdownDocumentParser } from './markdown-document-parser';
import { errorSummary, parsingFailed } from './parsing-failure';
import { PdfDocumentParser, PdfParserOptions } from './pdf-document-parser';
import { PlainTextDocumentParser } from './plain-text-document-parser';

/** One format's reader. Throws `REPOSITORY.PARSING_FAILED`; anything else it throws is wrapped into it. */
interface FormatParser {
  parse(content: Buffer): Promise<ParsedDocument>;
}

export interface CompositeDocumentParserOptions {
  pdf?: PdfParserOptions;
  docx?: DocxParserOptions;
}

const FORMAT_NAMES: Record<SupportedMediaType, string> = {
  [MARKDOWN_MEDIA_TYPE]: 'Markdown',
  [PLAIN_TEXT_MEDIA_TYPE]: 'text',
  [HTML_MEDIA_TYPE]: 'HTML',
  [PDF_MEDIA_TYPE]: 'PDF',
  [DOCX_MEDIA_TYPE]: 'DOCX',
};

/**
 * The `DocumentParser` of this deployment: picks the reader for the media type (Markdown, plain
 * text, HTML, PDF, DOCX) and keeps the port's error contract whatever the library underneath does.
 */
export class CompositeDocumentParser extends DocumentParser {
  private readonly parsers: Record<SupportedMediaType, FormatParser>;

  constructor(options: CompositeDocumentParserOptions = {}) {
    super();
    this.parsers = {
      [MARKDOWN_MEDIA_TYPE]: new MarkdownDocumentParser(),
      [PLAIN_TEXT_MEDIA_TYPE]: new PlainTextDocumentParser(),
      [HTML_MEDIA_TYPE]: new HtmlDocumentParser(),
      [PDF_MEDIA_TYPE]: new PdfDocumentParser(options.pdf),
      [DOCX_MEDIA_TYPE]: new DocxDocumentParser(options.docx),
    };
  }

  async parse(input: { content: Buffer; mediaType: string; fileName?: string }): Promise<ParsedDocument> {
    const mediaType = normalizeMediaType(input.mediaType);
    if (!isSupported(mediaType)) {
      throw DomainError.invalid('REPOSITORY.UNSUPPORTED_FORMAT', `Documents of type ${mediaType || '(none)'} cannot be parsed.`, {
        hint: `Supported: ${SUPPORTED_MEDIA_TYPES.join(', ')}.`,
      });
    }
    const format = FORMAT_NAMES[mediaType];
    if (input.content.length === 0) throw parsingFailed(`The ${format} file is empty.`);

    let parsed: ParsedDocument;
    try {
      parsed = await this.parsers[mediaType].parse(input.content);
    } catch (error) {
      if (isDomainError(error)) throw error;
      // A library failing in a way its reader did not foresee, such as a stack overflow on absurd nesting.
      if (error instanceof RangeError && /call stack/i.test(error.message)) throw parsingFailed(`The ${format} file is nested too deeply to read.`, error);
      throw parsingFailed(`The ${format} file could not be read: ${errorSummary(error) || 'unknown error'}`, error);
    }
    if (!parsed.blocks.some((block) => block.text.trim() !== '')) throw parsingFailed(`The ${format} file contains no text.`);
    return parsed;
  }
}

function isSupported(mediaType: string): mediaType is SupportedMediaType {
  return (SUPPORTED_MEDIA_TYPES as readonly string[]).includes(mediaType);
}
