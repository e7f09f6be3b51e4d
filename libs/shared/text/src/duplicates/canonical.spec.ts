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

  it('keeps link texts and drops their targets, tables keep their cells', () => {
    expect(canonicalText('See [the policy](https://intranet.example/policy "Policy") and ![a chart](chart.png) or <https://x.example/a>.')).toBe(
      'see the policy and a chart or https://x.example/a.',
    );
    expect(canonicalText('| Item | Weight |\n| --- | ---: |\n| Tent | 2.1 kg |')).toBe('item weight tent 2.1 kg');
    expect(canonicalText('<table><tr><td>Tent</td><td>2.1 kg</td></tr></table>')).toBe('tent 2.1 kg');
  });

  it('decodes entities, keeps escaped and intra-word characters', () => {
    expect(canonicalText('R&amp;D &lt;team&gt; &#233;t&#xe9;')).toBe('r&d <team> été');
    expect(canonicalText('Use \\*literal\\* stars and snake_case names')).toBe('use *literal* stars and snake_case names');
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
