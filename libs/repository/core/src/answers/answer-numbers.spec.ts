import { findValues, parseNumber } from './answer-types';

/** The number formats the composer reads through @svc/text's readNumber, as the rest of the service reads them. */
describe('answer types: figures read through @svc/text', () => {
  it.each([
    ['30', 30],
    ['1 000', 1000],
    ['1\u00a0000', 1000],
    ['1\u202f000', 1000],
    ['1,200', 1200],
    ['1.200,00', 1200],
    ['1 200', 1200],
    ['1,000.50', 1000.5],
    ['1.234,56', 1234.56],
    ['3,5', 3.5],
    ['2.5', 2.5],
    ['1.000.000', 1000000],
    ['three', 3],
    ['douze', 12],
  ] as const)('parseNumber(%j) → %d', (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it.each([
    ['It costs €1,200.', 'amount:1200:EUR'],
    ['Il coûte EUR 1.200,00.', 'amount:1200:EUR'],
    ['Il coûte 1 200 €.', 'amount:1200:EUR'],
    ['Il coûte 1\u202f200,50 €.', 'amount:1200.5:EUR'],
    ['The bonus is 2,5 %.', 'percentage:2.5'],
    ['Refunds take 1,5 days.', 'duration:1.5'],
    ['We sell 1.000.000 units.', 'number:1000000'],
  ])('%s → %s', (sentence, key) => {
    expect(findValues(sentence).map((v) => v.key)).toEqual([key]);
  });
});
