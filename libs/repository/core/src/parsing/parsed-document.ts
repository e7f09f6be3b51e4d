/** The structural kinds a parser keeps; everything else (images, navigation, styling) is dropped. */
export type BlockKind = 'heading' | 'paragraph' | 'list' | 'table' | 'code';

/**
 * One block of a document, in reading order. `text` is plain text: a list holds one item per line
 * (`- item` or `1. item`), a table one row per line (`cell | cell`), code its lines as written.
 */
export interface DocumentBlock {
  kind: BlockKind;
  text: string;
  /** Headings only: 1 (top) to 6. */
  level?: number;
}

/** What a parser makes of a file, whatever its format: a title when the file names one, and its blocks. */
export interface ParsedDocument {
  title: string | null;
  blocks: DocumentBlock[];
}
