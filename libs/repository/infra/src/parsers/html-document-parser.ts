import type { DocumentBlock, ParsedDocument } from '@svc/repository-core';
import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { decodeText } from './text-decoding';

/** Elements whose content is not part of the document's text (code, chrome, widgets). */
const DROPPED = new Set(['script', 'style', 'nav', 'footer', 'head', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas', 'button', 'select', 'textarea']);

/** Elements that flow inside a line of text; any other element breaks the text into blocks. */
const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'input', 'ins', 'kbd',
  'label', 'mark', 'math', 'meter', 'nobr', 'output', 'progress', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong',
  'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]);

const HEADING = /^h([1-6])$/;

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** HTML (also mammoth's output for DOCX, and raw HTML inside Markdown) to blocks. */
export class HtmlDocumentParser {
  async parse(content: Buffer): Promise<ParsedDocument> {
    return htmlToDocument(decodeText(content, 'HTML'));
  }
}

/**
 * Headings h1–h6, paragraphs, lists (one `- item` or `1. item` line per item, nested items
 * flattened), tables (one `cell | cell` line per row) and `pre` blocks, in reading order; loose text
 * between blocks becomes paragraphs (split at blank lines and `<br><br>`). Scripts, styles,
 * navigation, footers and the head are dropped; entities are decoded. The title is `<title>`, else
 * the first h1.
 */
export function htmlToDocument(html: string): ParsedDocument {
  const root = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const titleElement = findElement(root.children, 'title');
  const blocks = new BlockCollector().collect(root.children);
  const firstH1 = blocks.find((b) => b.kind === 'heading' && b.level === 1);
  const title = oneLine(titleElement ? textOf(titleElement) : '') || oneLine(firstH1?.text ?? '') || null;
  return { title, blocks };
}

class BlockCollector {
  private readonly blocks: DocumentBlock[] = [];
  private inline: string[] = [];

  collect(nodes: AnyNode[]): DocumentBlock[] {
    this.walk(nodes);
    this.flush();
    return this.blocks;
  }

  private walk(nodes: AnyNode[]): void {
    for (const node of nodes) {
      if (isText(node)) {
        this.inline.push(node.data);
        continue;
      }
      // The <title> is the document's title, not its text, even where no <head> encloses it (HTML5 allows that).
      if (!isTag(node) || DROPPED.has(node.name) || node.name === 'title') continue;
      const heading = HEADING.exec(node.name);
      if (heading) {
        this.push({ kind: 'heading', level: Number(heading[1]), text: textOf(node) });
      } else if (node.name === 'p') {
        this.push({ kind: 'paragraph', text: textOf(node) });
      } else if (node.name === 'ul' || node.name === 'ol') {
        this.push({ kind: 'list', text: listLines(node).join('\n') });
      } else if (node.name === 'table') {
        const caption = findElement(node.children, 'caption');
        if (caption) this.push({ kind: 'paragraph', text: textOf(caption) });
        this.push({ kind: 'table', text: tableRows(node).join('\n') });
      } else if (node.name === 'pre') {
        this.push({ kind: 'code', text: textOf(node, true) });
      } else if (node.name === 'br') {
        this.inline.push('\n');
      } else if (INLINE.has(node.name)) {
        this.walk(node.children);
      } else {
        this.flush();
        this.walk(node.children);
        this.flush();
      }
    }
  }

  private push(block: DocumentBlock): void {
    this.flush();
    const text = block.kind === 'heading' || block.kind === 'paragraph' ? oneLine(block.text) : block.text;
    if (text.trim() !== '') this.blocks.push({ ...block, text });
  }

  /** Loose text collected so far becomes paragraphs, split at blank lines (or `<br><br>`). */
  private flush(): void {
    const text = this.inline.join('');
    this.inline = [];
    for (const paragraph of text.split(/\n[^\S\n]*\n/)) {
      const line = oneLine(paragraph);
      if (line !== '') this.blocks.push({ kind: 'paragraph', text: line });
    }
  }
}

/** The text of an element; block-level children are separated by spaces (or newlines in `pre`). */
function textOf(node: AnyNode, preserveLines = false): string {
  if (isText(node)) return node.data;
  if (!isTag(node) || DROPPED.has(node.name)) return '';
  if (node.name === 'br') return '\n';
  const inner = node.children.map((child) => textOf(child, preserveLines)).join('');
  if (INLINE.has(node.name)) return inner;
  return preserveLines ? inner : ` ${inner} `;
}

function listLines(list: Element): string[] {
  const ordered = list.name === 'ol';
  let number = Number.parseInt(list.attribs['start'] ?? '1', 10);
  if (!Number.isFinite(number)) number = 1;
  const lines: string[] = [];
  for (const item of list.children) {
    if (!isTag(item) || DROPPED.has(item.name)) continue;
    if (item.name !== 'li') {
      // Stray content between items (invalid, yet common): keep its text and nested lists.
      if (item.name === 'ul' || item.name === 'ol') lines.push(...listLines(item));
      continue;
    }
    const nested: string[] = [];
    const own = item.children
      .map((child) => {
        if (isTag(child) && (child.name === 'ul' || child.name === 'ol')) {
          nested.push(...listLines(child));
          return ' ';
        }
        return textOf(child);
      })
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (own !== '') lines.push(`${ordered ? `${number}.` : '-'} ${own}`);
    number++;
    lines.push(...nested);
  }
  return lines;
}

function tableRows(table: Element): string[] {
  const rows: string[] = [];
  const visit = (nodes: AnyNode[]): void => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (node.name === 'tr') {
        const cells = node.children.filter((c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th')).map((c) => oneLine(textOf(c)));
        if (cells.some((c) => c !== '')) rows.push(cells.join(' | '));
      } else if (node.name === 'thead' || node.name === 'tbody' || node.name === 'tfoot') {
        visit(node.children);
      }
    }
  };
  visit(table.children);
  return rows;
}

/** The first element of that name, depth first (SVG excluded: its `<title>` is not the page's). */
function findElement(nodes: AnyNode[], name: string): Element | null {
  for (const node of nodes) {
    if (!isTag(node) || node.name === 'svg') continue;
    if (node.name === name) return node;
    const found = findElement(node.children, name);
    if (found) return found;
  }
  return null;
}
