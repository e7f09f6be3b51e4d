import { Culture, recognizeCurrency, recognizeDateTime, recognizeDimension, recognizePercentage } from '@microsoft/recognizers-text-suite';
import { mayHoldAmount, mayHoldDateTime, mayHoldPercentage, mayHoldQuantity } from './value-prefilters';

const CULTURE = { en: Culture.English, fr: Culture.French } as const;

/** Sentences each model reads something in (the prefilter must let them through) or nothing at all. */
const SENTENCES: [string, 'en' | 'fr'][] = [
  ['Refunds are processed within 14 days.', 'en'],
  ['A €25 voucher is offered.', 'en'],
  ['The fee is 30 %.', 'en'],
  ['Open 9:00 to 17:30.', 'en'],
  ['The parcel weighs 5 kg.', 'en'],
  ['Le remboursement prend 30 jours ouvrés.', 'fr'],
  ['Le paiement est dû le 5 mars 2024.', 'fr'],
  ['It costs USD 2,500 or 1 200 € or twelve dollars.', 'en'],
  ['Il coûte 5 millions de dollars et trois euros.', 'fr'],
  ['The cable is ten metres long and 2.5 cm thick.', 'en'],
  ['Refunds take two weeks.', 'en'],
  ['We meet every Monday at noon.', 'en'],
  ['Timesheets are due tomorrow morning.', 'en'],
  ['Les remboursements prennent deux semaines.', 'fr'],
  ['Nous ouvrons le lundi à midi.', 'fr'],
  ['Employees may work remotely.', 'en'],
  ['Use a second screen.', 'en'],
  ['Security badges must be worn at all times.', 'en'],
  ['Les badges doivent être portés en permanence.', 'fr'],
];

describe('value prefilters: each lets through every text its model reads a value in', () => {
  it.each(SENTENCES)('%s (%s)', (text, language) => {
    const culture = CULTURE[language];
    const withValue = (rs: { resolution?: { [k: string]: unknown } }[]) => rs.some((r) => r.resolution?.value !== undefined && r.resolution?.value !== null);
    if (withValue(recognizePercentage(text, culture))) expect(mayHoldPercentage(text, language)).toBe(true);
    if (withValue(recognizeCurrency(text, culture))) expect(mayHoldAmount(text)).toBe(true);
    if (withValue(recognizeDimension(text, culture))) expect(mayHoldQuantity(text)).toBe(true);
    if (recognizeDateTime(text, culture).length > 0) expect(mayHoldDateTime(text, language)).toBe(true);
  });

  it('skips the models on texts without a figure next to a unit, or without a date or time word', () => {
    expect(mayHoldAmount('Security badges must be worn at all times.')).toBe(false);
    expect(mayHoldQuantity('Security badges must be worn inside the building.')).toBe(false);
    expect(mayHoldDateTime('Badges must be worn inside the building.', 'en')).toBe(false);
    expect(mayHoldPercentage('Badges must be worn inside the building.', 'en')).toBe(false);
    expect(mayHoldDateTime('Les badges doivent être portés dans le bâtiment.', 'fr')).toBe(false);
  });

  it('lets through the usual spellings of amounts, quantities and dates', () => {
    for (const text of ['€25', '25 €', 'USD 2,500', '$2,500', '1200 euros', 'a £40 voucher', 'five dollars', 'CHF 40']) expect([text, mayHoldAmount(text)]).toEqual([text, true]);
    for (const [text, language] of [['30 %', 'en'], ['thirty percent', 'en'], ['30 per cent', 'en'], ['30 %', 'fr'], ['30 pourcent', 'fr']] as const) {
      expect([text, mayHoldPercentage(text, language)]).toEqual([text, true]);
    }
    for (const text of ['5 kg', '10 litres', '3 m long', 'ten miles', '500 mg', '6 feet']) expect([text, mayHoldQuantity(text)]).toEqual([text, true]);
    for (const [text, language] of [['two weeks', 'en'], ['every Monday', 'en'], ['at noon', 'en'], ['deux semaines', 'fr'], ['le lundi', 'fr'], ['à midi', 'fr'], ['next March', 'en']] as const) {
      expect([text, mayHoldDateTime(text, language)]).toEqual([text, true]);
    }
  });
});
