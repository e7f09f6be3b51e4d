import { canonicalHash, canonicalText } from './canonical';

describe('canonical text', () => {
  const plain = 'Refund policy\n\nRefunds above 500 EUR must be approved by the finance team lead.\n\n- Keep the receipt.\n- Ask the store.';

  it.each([
    ['Markdown', '# Refund policy\n\nRefunds above **500 EUR** must be approved by the _finance team lead_.\n\n* Keep the receipt.\n* Ask the store.'],
    ['setext heading, numbered list, CRLF', 'Refund policy\r\n=============\r\n\r\nRefunds above 500 EUR must be\r\napproved by the finance team lead.\r\n\r\n1. Keep the receipt.\r\n2. Ask the store.'],
    ['HTML', '<h1>Refund policy</h1><p>Refunds above <b>500&nbsp;EUR</b> must be approved by the finance team lead.</p><ul><li>Keep the receipt.</li><li>Ask the store.</li></ul>'],
    ['upper case and full-width forms', 'REFUND POLICY\n\nREFUNDS ABOVE ５００ EUR MUST BE APPROVED BY THE FINANCE TEAM LEAD.\n\n+ KEEP THE RECEIPT.\n+ ASK THE STORE.'],
    ['spacing and invisible characters', '  Refund\u00a0policy  \n\n\n Refunds  above 500 EUR\tmust be approved by the fi\u00adnance team lead .\n\n-   Keep the receipt.\n-   Ask the store.\ufeff'],
  ])('%s: same words in the same order give the same text', (_name, variant) => {
    expect(canonicalText(variant)).toBe(canonicalText(plain));
    expect(canonicalHash(variant)).toBe(canonicalHash(plain));
  });

  it('is lower-cased, single-spaced and trimmed, with punctuation kept', () => {
    expect(canonicalText(plain)).toBe('refund policy refunds above 500 eur must be approved by the finance team lead. keep the receipt. ask the store.');
  });

  it('keeps link texts and drops their targets and images, tables keep their cells', () => {
    expect(canonicalText('See [the policy](https://intranet.example/policy "Policy") and ![a chart](chart.png) or <https://x.example/a>.')).toBe(
      'see the policy and or https://x.example/a.',
    );
    expect(canonicalText('| Item | Weight |\n| --- | ---: |\n| Tent | 2.1 kg |')).toBe('item weight tent 2.1 kg');
    expect(canonicalText('<table><tr><td>Tent</td><td>2.1 kg</td></tr></table>')).toBe('tent 2.1 kg');
  });

  it('decodes entities, keeps escaped punctuation and intra-word characters', () => {
    expect(canonicalText('R&amp;D &lt;team&gt; &#233;t&#xe9; &#X41; &amp;lt;')).toBe('r&d <team> été a &lt;');
    expect(canonicalText('Use \\[brackets\\], \\#tags and snake_case or snake\\_case names')).toBe('use [brackets], #tags and snake_case or snake_case names');
    expect(canonicalText('&unknown; &Bogus; & &amp')).toBe('&unknown; &bogus; & &amp');
  });

  it('reads a number at the start of a wrapped line as a list number only where a list can start', () => {
    expect(canonicalText('Approved in December\n2018. It applies to everyone.')).toBe('approved in december 2018. it applies to everyone.');
    expect(canonicalText('Steps:\n\n3. Open the form.\n4. Sign it.')).toBe('steps: open the form. sign it.');
  });

  it('tells different words apart, accents, signs and units included', () => {
    const pairs = [
      ['Refunds within 14 days.', 'Refunds within 30 days.'],
      ['La pêche est ouverte.', 'La peche est ouverte.'],
      ['Store at -5 °C.', 'Store at 5 °C.'],
      ['A discount of 10 %.', 'A discount of 10.'],
      ['first second third', 'second first third'],
    ];
    for (const [a, b] of pairs) expect(canonicalHash(a)).not.toBe(canonicalHash(b));
  });

  it('folds the case of ß and final sigma', () => {
    expect(canonicalText('STRASSE ΟΔΟΣ')).toBe(canonicalText('Straße οδος'));
  });

  it('hashes to 64 hex digits, of the canonical text unless told it already is', () => {
    expect(canonicalHash('Hello *world*')).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalHash('hello world', { canonical: true })).toBe(canonicalHash('Hello *world*'));
    expect(canonicalHash('Hello *world*', { canonical: true })).not.toBe(canonicalHash('Hello *world*'));
  });
});

describe('canonical text of one document written in Markdown and in HTML', () => {
  it.each([
    [
      'headings: ATX with closing marks, setext',
      '# Leave policy\n\nCarrying over\n-------------\n\n### Notice ###\n\nAsk first.',
      '<h1>Leave policy</h1>\n<h2 id="carrying-over">Carrying over</h2>\n<H3>Notice</H3>\n<p>Ask first.</p>',
    ],
    [
      'a whole page: head, title, style, script, navigation and footer hold none of the text',
      '# Leave policy\n\nEmployees receive 25 days of paid leave per year.',
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Leave policy | Intranet</title>\n<style>body { font-family: sans-serif; }</style>\n</head>\n<body>\n<nav><a href="/">Home</a> <a href="/hr">HR</a></nav>\n<main><h1>Leave policy</h1>\n<p>Employees receive 25 days of paid leave per year.</p></main>\n<footer>&copy; 2025 Example</footer>\n<script>track("leave")</script>\n</body>\n</html>',
    ],
    ['a page without <head>, as HTML5 allows', '# Leave policy\n\nAsk first.', '<!doctype html><title>Leave policy</title><h1>Leave policy</h1><p>Ask first.</p>'],
    [
      'lists: bullets, nested numbers, a list from 3, task boxes',
      '- Ask your manager.\n- Book ahead:\n  1. open the form;\n  2. sign it.\n\n3) Third.\n4) Fourth.\n\n- [ ] Pack the tent.\n- [x] Book the train.',
      '<ul><li>Ask your manager.</li><li>Book ahead:<ol><li>open the form;</li><li>sign it.</li></ol></li></ul>\n<ol start="3"><li>Third.</li><li>Fourth.</li></ol>\n<ul><li><input type="checkbox"> Pack the tent.</li><li><input type="checkbox" checked> Book the train.</li></ul>',
    ],
    [
      'tables: alignment row, rows without outer pipes, an escaped pipe',
      '| Item | Weight |\n|:-----|-------:|\n| Tent | 2.1 kg |\nStove | 0.3 kg\n| Pole \\| peg | 0.1 kg |',
      '<table>\n  <thead><tr><th align="left">Item</th><th align="right">Weight</th></tr></thead>\n  <tbody>\n    <tr><td>Tent</td><td>2.1 kg</td></tr>\n    <tr><td>Stove</td><td>0.3 kg</td></tr>\n    <tr><td>Pole | peg</td><td>0.1 kg</td></tr>\n  </tbody>\n</table>',
    ],
    [
      'links: inline with a title, by reference, autolinks; images, alt text included',
      'See [the portal](https://hr.example/leave "HR") or [the FAQ][faq], or <https://x.example>. ![Leave chart](chart.png)\n\n[faq]: https://hr.example/faq',
      '<p>See <a href="https://hr.example/leave" title="HR">the portal</a> or <a href="https://hr.example/faq">the FAQ</a>, or <a href="https://x.example">https://x.example</a>. <img src="chart.png" alt="Leave chart"></p>',
    ],
    [
      'emphasis and code: strong, em, underscores, strike-through, code spans, escaped marks',
      'Up to **five** days, *not* more, __ever__, ~~six~~ `code` ***both***, snake_case and a \\* star.',
      '<p>Up to <strong>five</strong> days, <em>not</em> more, <B>ever</B>, <del>six</del> <code>code</code> <strong><em>both</em></strong>, snake_case and a * star.</p>',
    ],
    [
      'entities: Latin-1, typographic and symbol names, numeric, in capitals',
      'Café & R&D: 5 € × 2 ≤ 12 €, ½ day — “approved” © 2025 Ünal’s Œuvre',
      '<p>Caf&eacute; &AMP; R&amp;D: 5 &euro; &times; 2 &le; 12 &#8364;, &frac12; day &mdash; &ldquo;approved&rdquo; &COPY; 2025 &Uuml;nal&#x2019;s &OElig;uvre</p>',
    ],
    [
      'typographic quotes and dashes against their plain spelling',
      'It\'s "half" -- or 10-20 days --- at most.',
      '<p>It&rsquo;s &ldquo;half&rdquo; &ndash; or 10&ndash;20 days &mdash; at most.</p>',
    ],
    [
      'block quotes, code blocks, rules, hard line breaks, comments',
      '> Note: part-time staff\n> get a share.\n\n```sh\nleave --request\n```\n\n---\n\nLine one  \nLine two\\\nLine three<!-- draft -->',
      '<blockquote><p>Note: part-time staff get a share.</p></blockquote>\n<pre><code class="language-sh">leave --request\n</code></pre>\n<hr/>\n<p>Line one<br>Line two<br/>Line three</p><!-- draft -->',
    ],
  ])('%s', (_name, markdown, html) => {
    expect(canonicalText(html)).toBe(canonicalText(markdown));
    expect(canonicalText(markdown)).not.toMatch(/[<>*#|[\]`]|&[a-z]+;/);
  });

  it('removes a page element without its closing tag by its tag only, in one pass over the text', () => {
    expect(canonicalText('<nav>Home <p>Text.</p>')).toBe('home text.');
    const many = '<title>x '.repeat(20_000);
    const started = performance.now();
    expect(canonicalText(many)).toBe('x '.repeat(20_000).trim());
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
