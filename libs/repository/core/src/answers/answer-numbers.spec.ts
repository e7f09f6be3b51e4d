import { answerValues } from './answer-types';
import { guessLanguage } from './text-analysis';

/**
 * The number formats the composer reads through @svc/text's extractValues (in the language of the text), as the
 * rest of the service reads them. How a lone figure reads (readNumber) is tested in @svc/text's numbers.spec.ts.
 */
describe('answer values: figures read through @svc/text', () => {
  it.each([
    ['It costs €1,200.', 'amount:EUR:1200'],
    ['Il coûte EUR 1.200,00.', 'amount:EUR:1200'],
    ['Il coûte 1 200 €.', 'amount:EUR:1200'],
    ['Il coûte 1\u202f200,50 €.', 'amount:EUR:1200.5'],
    ['The bonus is 2,5 %.', 'percentage:2.5'],
    // One and a half days: 36 hours.
    ['Refunds take 1,5 days.', 'duration:PT129600S'],
    ['We sell 1.000.000 units.', 'number:1000000'],
  ])('%s → %s', (sentence, key) => {
    expect(answerValues(sentence, guessLanguage(sentence)).map((v) => v.key)).toEqual([key]);
  });

  it('reads one and a half days as 36 hours', () => {
    expect(answerValues('Refunds take 1,5 days.', 'en').map((v) => v.key)).toEqual(answerValues('Refunds take 36 hours.', 'en').map((v) => v.key));
  });
});
