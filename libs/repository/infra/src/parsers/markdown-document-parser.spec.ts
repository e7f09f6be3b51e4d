import { MarkdownDocumentParser } from './markdown-document-parser';

const parser = new MarkdownDocumentParser();

describe('MarkdownDocumentParser', () => {
  it('maps headings, paragraphs, lists, tables and code blocks', () => {
    const source = [
      '# Refunds &amp; returns',
      '',
      'Refunds take **30 days**,',
      'see `refund-policy` and [the form](https://example.com/form). ![logo](logo.png)',
      '',
      'Deadlines',
      '---------',
      '',
      '- Ask within *two* weeks',
      '- Keep the receipt',
      '  - paper or PDF',
      '',
      '3. Fill in the form',
      '4. Send it',
      '',
      '| Plan | Delay |',
      '|------|------:|',
      '| Basic | 30 days |',
      '| Pro | 14 days |',
      '',
      '```sh',
      'refund --order 42',
      '```',
      '',
      '    indented code',
      '',
      '> Quoted advice.',
      '',
      '***',
    ].join('\n');
    expect(parser.toDocument(source)).toEqual({
      title: 'Refunds & returns',
      blocks: [
        { kind: 'heading', level: 1, text: 'Refunds & returns' },
        { kind: 'paragraph', text: 'Refunds take 30 days, see refund-policy and the form.' },
        { kind: 'heading', level: 2, text: 'Deadlines' },
        { kind: 'list', text: '- Ask within two weeks\n- Keep the receipt\n- paper or PDF' },
        { kind: 'list', text: '3. Fill in the form\n4. Send it' },
        { kind: 'table', text: 'Plan | Delay\nBasic | 30 days\nPro | 14 days' },
        { kind: 'code', text: 'refund --order 42' },
        { kind: 'code', text: 'indented code' },
        { kind: 'paragraph', text: 'Quoted advice.' },
      ],
    });
  });

  it('joins the paragraphs of a loose list item into its line', () => {
    const doc = parser.toDocument('- First item\n\n  continued here\n\n- Second item\n');
    expect(doc.blocks).toEqual([{ kind: 'list', text: '- First item continued here\n- Second item' }]);
  });

  it('reads raw HTML blocks with the HTML parser and drops inline scripts', () => {
    const doc = parser.toDocument('<div align="center">\n<h2>Badges</h2>\n<p>Hello <b>there</b></p>\n</div>\n\nText <script>alert(1)</script> after.\n');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Badges' },
      { kind: 'paragraph', text: 'Hello there' },
      { kind: 'paragraph', text: 'Text after.' },
    ]);
  });

  it('takes the title from the first h1, else from the front matter, else none', () => {
    expect(parser.toDocument('## Intro\n\n# Main title\n').title).toBe('Main title');
    const withFrontMatter = parser.toDocument('---\ntitle: "Handbook"\ntags: [a, b]\n---\n## Intro\n\nBody.\n');
    expect(withFrontMatter.title).toBe('Handbook');
    expect(withFrontMatter.blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Intro' },
      { kind: 'paragraph', text: 'Body.' },
    ]);
    expect(parser.toDocument('Just text.').title).toBeNull();
  });

  it('does not mistake a leading thematic break for front matter', () => {
    const doc = parser.toDocument('---\nSome intro sentence, not YAML.\n\n---\n\nMore.\n');
    expect(doc.blocks.map((b) => b.text)).toEqual(['Some intro sentence, not YAML.', 'More.']);
  });

  it('decodes bytes (BOM included) before parsing', async () => {
    const doc = await parser.parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Délais\n\nTexte.')]));
    expect(doc).toEqual({ title: 'Délais', blocks: [{ kind: 'heading', level: 1, text: 'Délais' }, { kind: 'paragraph', text: 'Texte.' }] });
  });
});
