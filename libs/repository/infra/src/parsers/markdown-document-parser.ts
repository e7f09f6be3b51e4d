import type { DocumentBlock, ParsedDocument } from '@svc/repository-core';
import MarkdownIt from 'markdown-it';
import { htmlToDocument } from './html-document-parser';
import { decodeText } from './text-decoding';

type Token = MarkdownIt.Token;

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** A leading YAML front-matter block (`---` … `---`), which CommonMark would read as a rule and a heading. */
const FRONT_MATTER = /^---[^\S\n]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[^\S\n]*(?:\r?\n|$)/;

/** One list being collected: its lines so far and, per open item, the line that item writes to. */
interface OpenList {
  lines: string[];
  items: number[];
  ordered: boolean[];
}

/**
 * CommonMark + GFM tables through markdown-it's token stream: headings with levels, paragraphs,
 * lists (one `- item` / `1. item` line per item, nested items flattened), tables (`cell | cell`
 * rows), fenced and indented code; raw HTML blocks go through the HTML parser. Images and rules are
 * dropped. The title is the first h1, else the front matter's `title:`.
 */
export class MarkdownDocumentParser {
  private readonly markdown = new MarkdownIt('default', { html: true, linkify: false, typographer: false });

  async parse(content: Buffer): Promise<ParsedDocument> {
    return this.toDocument(decodeText(content, 'Markdown'));
  }

  toDocument(source: string): ParsedDocument {
    let body = source.replace(/^\uFEFF/, '');
    let frontMatterTitle: string | null = null;
    const frontMatter = FRONT_MATTER.exec(body);
    if (frontMatter && looksLikeYaml(frontMatter[1])) {
      frontMatterTitle = /^title:[^\S\n]*["']?(.*?)["']?[^\S\n]*$/m.exec(frontMatter[1])?.[1].trim() || null;
      body = body.slice(frontMatter[0].length);
    }
    const blocks = toBlocks(this.markdown.parse(body, {}));
    const h1 = blocks.find((b) => b.kind === 'heading' && b.level === 1);
    return { title: h1 ? h1.text : frontMatterTitle, blocks };
  }
}

/** Guards against a document that merely starts with a thematic break (`---`) and has another one later. */
function looksLikeYaml(block: string): boolean {
  return block.length <= 20_000 && block.split(/\r?\n/).every((line) => line.trim() === '' || /^(?:[\w.-]+\s*:|\s|-\s|#)/.test(line));
}

function toBlocks(tokens: Token[]): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let list: OpenList | null = null;
  let table: string[] | null = null;
  let row: string[] | null = null;
  const appendToItem = (text: string): void => {
    const line = oneLine(text);
    if (!list || list.items.length === 0 || line === '') return;
    const at = list.items[list.items.length - 1];
    list.lines[at] = `${list.lines[at]} ${line}`;
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token.type) {
      case 'heading_open': {
        const text = oneLine(inlineText(tokens[i + 1]));
        if (list) appendToItem(text);
        else blocks.push({ kind: 'heading', level: Number(token.tag.slice(1)), text });
        break;
      }
      case 'paragraph_open': {
        const text = oneLine(inlineText(tokens[i + 1]));
        if (list) appendToItem(text);
        else blocks.push({ kind: 'paragraph', text });
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        list ??= { lines: [], items: [], ordered: [] };
        list.ordered.push(token.type === 'ordered_list_open');
        break;
      case 'list_item_open':
        if (list) {
          const ordered = list.ordered[list.ordered.length - 1];
          list.items.push(list.lines.push(ordered ? `${token.info || '1'}.` : '-') - 1);
        }
        break;
      case 'list_item_close':
        list?.items.pop();
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        if (list) {
          list.ordered.pop();
          if (list.ordered.length === 0) {
            // An item without text (`-` alone) leaves only its marker: drop it.
            const lines = list.lines.filter((line) => !/^(?:-|\d+\.)$/.test(line));
            if (lines.length > 0) blocks.push({ kind: 'list', text: lines.join('\n') });
            list = null;
          }
        }
        break;
      case 'fence':
      case 'code_block':
        if (list) appendToItem(token.content);
        else blocks.push({ kind: 'code', text: token.content.replace(/\n$/, '') });
        break;
      case 'table_open':
        table = [];
        break;
      case 'tr_open':
        row = [];
        break;
      case 'th_open':
      case 'td_open':
        row?.push(oneLine(inlineText(tokens[i + 1])));
        break;
      case 'tr_close':
        if (table && row && row.some((cell) => cell !== '')) table.push(row.join(' | '));
        row = null;
        break;
      case 'table_close':
        if (table && table.length > 0) {
          const text = table.join('\n');
          if (list) appendToItem(text);
          else blocks.push({ kind: 'table', text });
        }
        table = null;
        break;
      case 'html_block': {
        const inner = htmlToDocument(token.content).blocks;
        if (list) for (const block of inner) appendToItem(block.text);
        else blocks.push(...inner);
        break;
      }
      default:
        break;
    }
  }
  return blocks;
}

/** The plain text of an `inline` token: text, code spans and link labels; images and raw HTML tags dropped. */
function inlineText(token: Token | undefined): string {
  if (!token || token.type !== 'inline') return '';
  let text = '';
  let hidden = 0;
  for (const child of token.children ?? []) {
    switch (child.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
        if (hidden === 0) text += child.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += ' ';
        break;
      case 'image':
        // An image's alt text lives in its children, which are not walked.
        break;
      case 'html_inline':
        // Tags are markup; text between them arrives as text tokens. Keep what a <script> holds out.
        if (/^<(script|style)\b/i.test(child.content)) hidden++;
        else if (/^<\/(script|style)\s*>/i.test(child.content)) hidden = Math.max(0, hidden - 1);
        break;
      default:
        break;
    }
  }
  return text;
}
