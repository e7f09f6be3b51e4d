import { HtmlDocumentParser, htmlToDocument } from './html-document-parser';

describe('htmlToDocument', () => {
  it('keeps headings, paragraphs, lists, tables and pre blocks in reading order', () => {
    const html = `<!doctype html><html><head><title>Refund policy</title><style>p { color: red }</style></head>
      <body>
        <nav><a href="/">Home</a> <a href="/faq">FAQ</a></nav>
        <main>
          <h1>Refunds</h1>
          <p>Refunds take <strong>30&nbsp;days</strong> &amp; need a receipt.</p>
          <h2>Steps</h2>
          <ol start="3"><li>Fill in the <em>form</em></li><li>Send it</li></ol>
          <ul><li>Keep the receipt<ul><li>paper</li><li>PDF</li></ul></li><li><p>Ask finance</p></li></ul>
          <table><caption>Delays</caption><thead><tr><th>Plan</th><th>Delay</th></tr></thead>
            <tbody><tr><td>Basic</td><td>30 days</td></tr><tr><td> </td><td></td></tr><tr><td>Pro</td><td>14&#32;days</td></tr></tbody></table>
          <pre><code>refund --order 42
  --reason "late"</code></pre>
        </main>
        <script>track("refunds")</script>
        <footer>© Example Inc.</footer>
      </body></html>`;
    expect(htmlToDocument(html)).toEqual({
      title: 'Refund policy',
      blocks: [
        { kind: 'heading', level: 1, text: 'Refunds' },
        { kind: 'paragraph', text: 'Refunds take 30 days & need a receipt.' },
        { kind: 'heading', level: 2, text: 'Steps' },
        { kind: 'list', text: '3. Fill in the form\n4. Send it' },
        { kind: 'list', text: '- Keep the receipt\n- paper\n- PDF\n- Ask finance' },
        { kind: 'paragraph', text: 'Delays' },
        { kind: 'table', text: 'Plan | Delay\nBasic | 30 days\nPro | 14 days' },
        { kind: 'code', text: 'refund --order 42\n  --reason "late"' },
      ],
    });
  });

  it('turns loose text between blocks into paragraphs, split at double line breaks', () => {
    const doc = htmlToDocument('<div>First <b>loose</b> line<br>same paragraph<br><br>Second paragraph</div><section>Third<div>Fourth</div></section>');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'First loose line same paragraph' },
      { kind: 'paragraph', text: 'Second paragraph' },
      { kind: 'paragraph', text: 'Third' },
      { kind: 'paragraph', text: 'Fourth' },
    ]);
  });

  it('takes the first h1 as title when there is no <title>, and ignores an SVG title', () => {
    const doc = htmlToDocument('<svg><title>icon</title></svg><h2>Intro</h2><h1>  Shipping\n rules </h1><h1>Other</h1>');
    expect(doc.title).toBe('Shipping rules');
    expect(htmlToDocument('<p>No title here</p>').title).toBeNull();
  });

  it('reads a <title> outside any <head> (HTML5 lets a page leave the head out) as the title, not as a paragraph', () => {
    expect(htmlToDocument('<!doctype html><title>Leave policy</title><h1>Leave policy</h1><p>Ask first.</p>')).toEqual({
      title: 'Leave policy',
      blocks: [
        { kind: 'heading', level: 1, text: 'Leave policy' },
        { kind: 'paragraph', text: 'Ask first.' },
      ],
    });
  });

  it('tolerates malformed markup', () => {
    const doc = htmlToDocument('<h1>Broken<p>unclosed paragraph<li>stray item<table><tr><td>cell</table></div></span>');
    expect(doc.blocks.map((b) => b.text).join(' ')).toContain('unclosed paragraph');
    expect(doc.blocks.map((b) => b.text).join(' ')).toContain('cell');
  });

  it('decodes the bytes of a file, BOM or not', async () => {
    const doc = await new HtmlDocumentParser().parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Délai de remboursement</p>')]));
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Délai de remboursement' }]);
  });
});
