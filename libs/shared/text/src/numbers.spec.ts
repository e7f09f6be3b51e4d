import { plainFigures, readNumber } from './numbers';

describe('readNumber: a figure as written, in the format its separators point to', () => {
  it.each([
    // Plain figures and decimals.
    ['30', 30],
    ['12', 12],
    ['2.5', 2.5],
    ['0,75', 0.75],
    ['3,5', 3.5],
    ['1,5', 1.5],
    // Thousands: commas (English), points (French, two groups or more), spaces of any width.
    ['1,200', 1200],
    ['10,000', 10000],
    ['1,000,000', 1000000],
    ['1.000.000', 1000000],
    ['1 000', 1000],
    ['1\u00a0000', 1000],
    ['1\u202f000', 1000],
    ['1 200', 1200],
    ['1\u00a0200', 1200],
    ['1\u202f200', 1200],
    ['1 000 000', 1000000],
    // Both separators: the last one is the decimal separator.
    ['1,000.50', 1000.5],
    ['3,500.75', 3500.75],
    ['1.200,00', 1200],
    ['1.234,56', 1234.56],
    ['1 200,50', 1200.5],
    ['1\u00a0200,50', 1200.5],
    // One point and three digits: a decimal point, as the English model reads it.
    ['1.200', 1.2],
    // Words, in English then in French.
    ['three', 3],
    ['twenty-five', 25],
    ['a hundred', 100],
    ['douze', 12],
    ['trente', 30],
    ['vingt et un', 21],
  ] as const)('%j → %d', (text, value) => {
    expect(readNumber(text)).toBe(value);
  });

  it('gives NaN for what is not one number', () => {
    for (const text of ['', '  ', 'x', 'refund', '3 and 4', '12 EUR']) expect([text, readNumber(text)]).toEqual([text, Number.NaN]);
  });

  it('reads the same figure the same way every time (remembered readings included)', () => {
    expect([readNumber('1.200,00'), readNumber('1.200,00'), readNumber(' 1.200,00 ')]).toEqual([1200, 1200, 1200]);
  });
});

describe('plainFigures: grouped figures rewritten plain for the models of a language, offsets kept', () => {
  it.each([
    ['Il coûte 1 200,50 € et 12 500 salariés.', 'fr', 'Il coûte 1200,50 € et 12500 salariés.'],
    ['It costs EUR 1.200,00.', 'en', 'It costs EUR 1200.00.'],
    ['It costs EUR 1.200,00.', 'fr', 'It costs EUR 1200,00.'],
    ['1,200,000.50 USD and 1.000.000 people', 'en', '1200000.50 USD and 1000000 people'],
    ['Le prix\u00a0: 1\u202f200 €', 'fr', 'Le prix\u00a0: 1200 €'],
    // Left as written: one separator and three digits (the language reads it), dates, times, versions, plain figures.
    ['1.200 or 1,200, on 12.05.2024 at 9.00, v2.10.3, 30 days, 2023 2024', 'en', '1.200 or 1,200, on 12.05.2024 at 9.00, v2.10.3, 30 days, 2023 2024'],
  ] as const)('%j (%s)', (text, language, plain) => {
    expect(plainFigures(text, language).text).toBe(plain);
  });

  it('maps every offset of the plain text back to the same character of the text', () => {
    const text = 'Prix : 1 200,50 € (soit 1.000.000 de centimes), payé le 3 mars.';
    const { text: plain, original } = plainFigures(text, 'fr');
    for (let i = 0; i < plain.length; i += 1) {
      const ch = plain[i];
      expect({ i, ch, at: text[original(i)] }).toEqual({ i, ch, at: ch === ',' || ch === '.' ? expect.stringMatching(/[.,]/) : ch });
    }
    expect(original(plain.length)).toBe(text.length);
    expect(text.slice(original(plain.indexOf('1200')), original(plain.indexOf('€')) + 1)).toBe('1 200,50 €');
  });
});
