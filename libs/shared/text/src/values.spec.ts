import { extractValues, preloadValueModels, valueKeys } from './values';

/** A seeded generator (mulberry32): property tests that fail the same way every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const only = (text: string, language: 'en' | 'fr') => {
  const values = extractValues(text, language);
  expect(values).toHaveLength(1);
  return values[0];
};

describe('typed values and their canonical keys', () => {
  it.each([
    ['Refunds take two weeks.', 'en', 'duration', 'two weeks', 'duration:P14D'],
    ['Refunds are processed within 14 days.', 'en', 'duration', '14 days', 'duration:P14D'],
    ['Les remboursements prennent deux semaines.', 'fr', 'duration', 'deux semaines', 'duration:P14D'],
    ['sous 14 jours', 'fr', 'duration', '14 jours', 'duration:P14D'],
    ['It costs €1,200.', 'en', 'amount', '€1,200', 'amount:EUR:1200'],
    ['Il coûte EUR 1.200,00.', 'fr', 'amount', 'EUR 1.200,00', 'amount:EUR:1200'],
    ['Il coûte 1 200 €.', 'fr', 'amount', '1 200 €', 'amount:EUR:1200'],
    ['1200 euros', 'fr', 'amount', '1200 euros', 'amount:EUR:1200'],
    ['USD 2,500', 'en', 'amount', 'USD 2,500', 'amount:USD:2500'],
    // Figures grouped by spaces, decimal commas, and the other language's format.
    ['The price is EUR 1.200,00.', 'en', 'amount', 'EUR 1.200,00', 'amount:EUR:1200'],
    ['Le prix est de 1200,50 €.', 'fr', 'amount', '1200,50 €', 'amount:EUR:1200.5'],
    ['Le prix est de 1 200,50 €.', 'fr', 'amount', '1 200,50 €', 'amount:EUR:1200.5'],
    ['Le prix est de 1\u00a0200,50 euros.', 'fr', 'amount', '1\u00a0200,50 euros', 'amount:EUR:1200.5'],
    ['The fee is 1 200.50 EUR.', 'en', 'amount', '1 200.50 EUR', 'amount:EUR:1200.5'],
    ['The price is 1,200,000.50 USD.', 'en', 'amount', '1,200,000.50 USD', 'amount:USD:1200000.5'],
    ['Il y a 12 500 salariés.', 'fr', 'number', '12 500', 'number:12500'],
    ['$2,500', 'en', 'amount', '$2,500', 'amount:USD:2500'],
    ['a £40 voucher', 'en', 'amount', '£40', 'amount:GBP:40'],
    ['30 %', 'en', 'percentage', '30 %', 'percentage:30'],
    ['thirty percent', 'en', 'percentage', 'thirty percent', 'percentage:30'],
    ['trente pour cent', 'fr', 'percentage', 'trente pour cent', 'percentage:30'],
    ['The deadline is March 3, 2026.', 'en', 'date', 'March 3, 2026', 'date:2026-03-03'],
    ['Le 3 mars 2026.', 'fr', 'date', '3 mars 2026', 'date:2026-03-03'],
    ['Ouvert de 9h à 17h.', 'fr', 'time-range', 'de 9h à 17h', 'time-range:09:00-17:00'],
    ['The office opens at 8:30.', 'en', 'time', '8:30', 'time:08:30'],
    ['Lunch is served at noon.', 'en', 'time', 'noon', 'time:12:00'],
    ['Between 1 and 15 June 2026.', 'en', 'date-range', 'Between 1 and 15 June 2026', 'date-range:(2026-06-01,2026-06-15,P14D)'],
  ] as const)('%s (%s) → %s %s = %s', (text, language, kind, written, key) => {
    const value = only(text, language);
    expect(value).toMatchObject({ kind, text: written, key });
    expect(text.slice(value.start, value.end)).toBe(written);
  });

  it.each([
    // Ranges of durations: one value, keyed <low>-<high> in the unit of the high end.
    ['Delivery takes 3 to 5 days.', 'en', 'duration', '3 to 5 days', 'duration:P3D-P5D'],
    ['Refunds take 2-3 business days.', 'en', 'duration', '2-3 business days', 'duration:P2WD-P3WD'],
    ['Allow between 3 and 5 days.', 'en', 'duration', 'between 3 and 5 days', 'duration:P3D-P5D'],
    ['It takes two to three weeks.', 'en', 'duration', 'two to three weeks', 'duration:P14D-P21D'],
    ['Setup takes 10–15 minutes.', 'en', 'duration', '10–15 minutes', 'duration:PT600S-PT900S'],
    ['La livraison prend 3 à 5 jours.', 'fr', 'duration', '3 à 5 jours', 'duration:P3D-P5D'],
    ['Le remboursement prend entre 3 et 5 jours ouvrés.', 'fr', 'duration', 'entre 3 et 5 jours ouvrés', 'duration:P3WD-P5WD'],
    ['Comptez 2 ou 3 semaines.', 'fr', 'duration', '2 ou 3 semaines', 'duration:P14D-P21D'],
    // Nothing to pay: an amount of 0, in any currency.
    ['Delivery is free of charge.', 'en', 'amount', 'free of charge', 'amount:0'],
    ['Repairs are made at no extra cost.', 'en', 'amount', 'at no extra cost', 'amount:0'],
    ['La livraison est gratuite.', 'fr', 'amount', 'gratuite', 'amount:0'],
    ['Le remplacement se fait sans frais.', 'fr', 'amount', 'sans frais', 'amount:0'],
    // No time to wait: a duration of 0.
    ['Report incidents immediately.', 'en', 'duration', 'immediately', 'duration:P0D'],
    ['Orders ship the same day.', 'en', 'duration', 'same day', 'duration:P0D'],
    ['Signalez tout incident immédiatement.', 'fr', 'duration', 'immédiatement', 'duration:P0D'],
    ['Le remboursement est effectué le jour même.', 'fr', 'duration', 'le jour même', 'duration:P0D'],
    // A day of a recurring period: <period>:<n><unit>, n the ordinal or L (last), D a day, WD a working day, W1-W7 a weekday.
    ['Salaries are paid on the 1st of each month.', 'en', 'recurrence', '1st of each month', 'recurrence:P1M:1D'],
    ['Salaries are paid on the first day of each month.', 'en', 'recurrence', 'first day of each month', 'recurrence:P1M:1D'],
    ['Reports are due the fifth working day of the month.', 'en', 'recurrence', 'fifth working day of the month', 'recurrence:P1M:5WD'],
    ['We meet the last Friday of every month.', 'en', 'recurrence', 'last Friday of every month', 'recurrence:P1M:LW5'],
    ['Les salaires sont versés le 1er de chaque mois.', 'fr', 'recurrence', '1er de chaque mois', 'recurrence:P1M:1D'],
    ['Les salaires sont versés le 25 de chaque mois.', 'fr', 'recurrence', '25 de chaque mois', 'recurrence:P1M:25D'],
    ['Le rapport est dû le cinquième jour ouvré du mois.', 'fr', 'recurrence', 'cinquième jour ouvré du mois', 'recurrence:P1M:5WD'],
    ['Nous nous réunissons le dernier vendredi du mois.', 'fr', 'recurrence', 'dernier vendredi du mois', 'recurrence:P1M:LW5'],
    // How often, as times per period or a period the recognizers miss: keyed by the period between two occurrences.
    ['Access rights are reviewed twice a year.', 'en', 'recurrence', 'twice a year', 'recurrence:P6M'],
    ['Fire drills are held three times a year.', 'en', 'recurrence', 'three times a year', 'recurrence:P4M'],
    ['Backups are tested twice a month.', 'en', 'recurrence', 'twice a month', 'recurrence:P15D'],
    ['Managers review access rights every quarter.', 'en', 'recurrence', 'every quarter', 'recurrence:P3M'],
    ['Les droits sont revus deux fois par an.', 'fr', 'recurrence', 'deux fois par an', 'recurrence:P6M'],
    ['Les droits sont revus chaque trimestre.', 'fr', 'recurrence', 'chaque trimestre', 'recurrence:P3M'],
    // A part of a recurring period, and a month (or a part of one) without a day or a year in French.
    ['Expense reports are due at the end of the month.', 'en', 'date-range', 'end of the month', 'date-range:end:month'],
    ['Inventory is counted at year-end.', 'en', 'date-range', 'year-end', 'date-range:end:year'],
    ['Les notes de frais sont dues à la fin du mois.', 'fr', 'date-range', 'fin du mois', 'date-range:end:month'],
    ["Les primes sont versées en début d'année.", 'fr', 'date-range', "début d'année", 'date-range:start:year'],
    ['The report is published at the end of March.', 'en', 'date-range', 'end of March', 'date-range:end:XXXX-03'],
    ['Le bilan est publié fin mars.', 'fr', 'date-range', 'fin mars', 'date-range:end:XXXX-03'],
    ['Le bilan est publié à la mi-mars.', 'fr', 'date-range', 'mi-mars', 'date-range:mid:XXXX-03'],
    ['Postulez avant mars.', 'fr', 'date-range', 'avant mars', 'date-range:before:XXXX-03'],
    ['Candidatures avant fin mars.', 'fr', 'date-range', 'avant fin mars', 'date-range:before-end:XXXX-03'],
  ] as const)('%s (%s) → %s %s = %s', (text, language, kind, written, key) => {
    const value = only(text, language);
    expect(value).toMatchObject({ kind, text: written, key });
    expect(text.slice(value.start, value.end)).toBe(written);
  });

  it('gives one key to a range, a free amount, a recurring day or a part of a period in English and in French', () => {
    const same: [string, string][] = [
      ['within 3 to 5 days', 'entre 3 et 5 jours'],
      ['2-3 business days', '2 à 3 jours ouvrés'],
      ['free of charge', 'gratuitement'],
      ['immediately', 'sans délai'],
      ['on the 1st of each month', 'le premier jour de chaque mois'],
      ['the last working day of the month', 'le dernier jour ouvré du mois'],
      ['at the end of the month', 'en fin de mois'],
      ['at the end of March', 'fin mars'],
      ['by the end of March', "d'ici fin mars"],
    ];
    for (const [en, fr] of same) expect([en, valueKeys(en, 'en')]).toEqual([en, valueKeys(fr, 'fr')]);
  });

  it('compares ranges, free amounts and immediate durations; a recurring day or a part of a period does not compare', () => {
    for (const [text, language] of [['3 to 5 days', 'en'], ['free of charge', 'en'], ['immediately', 'en'], ['gratuit', 'fr']] as const) {
      expect([text, only(text, language).comparable]).toEqual([text, true]);
    }
    for (const [text, language] of [['the 1st of each month', 'en'], ['end of the month', 'en'], ['fin mars', 'fr'], ['le 15 de chaque mois', 'fr']] as const) {
      expect([text, only(text, language).comparable]).toEqual([text, false]);
    }
  });

  it('reads no range, free amount or immediate duration where there is none', () => {
    expect(extractValues('Feel free to ask.', 'en')).toEqual([]);
    expect(extractValues('Embauche sans délai de carence.', 'fr')).toEqual([]);
    expect(extractValues('We have 2 offices and 3 days of training.', 'en').map((v) => v.key)).toEqual(['number:2', 'duration:P3D']);
    expect(extractValues('Le 5 mars 2026.', 'fr').map((v) => v.key)).toEqual(['date:2026-03-05']);
  });

  it('reads each figure once, by its most specific meaning: an amount, a duration, a bare number', () => {
    expect(extractValues('The hotel limit is 150 EUR per night for 3 nights and 2 guests.', 'en').map((v) => [v.kind, v.key])).toEqual([
      ['amount', 'amount:EUR:150'],
      ['duration', 'duration:P3D'],
      ['number', 'number:2'],
    ]);
  });

  it('reads one unit as a duration when a numeral or a word asking for a length of time says so, and "in 7 days" as a duration', () => {
    for (const [text, language] of [['Refunds are processed within one week.', 'en'], ['Refunds take a week.', 'en'], ['Remboursement sous une semaine.', 'fr'], ['Refunds are issued within 7 days.', 'en']] as const) {
      expect([text, only(text, language).key]).toEqual([text, 'duration:P7D']);
    }
    expect(only('Refunds are issued in 7 days.', 'en')).toMatchObject({ kind: 'duration', key: 'duration:P7D', comparable: true });
    expect(only('Le remboursement arrive dans 7 jours.', 'fr')).toMatchObject({ kind: 'duration', key: 'duration:P7D' });
    // A unit word alone is still no duration.
    expect(extractValues('Use a second screen.', 'en')).toEqual([]);
  });

  it('keys working days apart from calendar days, in English and French', () => {
    expect(only('Refunds take 30 working days.', 'en')).toMatchObject({ key: 'duration:P30WD', text: '30 working days' });
    expect(only('Le remboursement prend 30 jours ouvrés.', 'fr')).toMatchObject({ key: 'duration:P30WD', text: '30 jours ouvrés' });
  });

  it('does not read the verb "may" as the month', () => {
    expect(extractValues('Employees may work remotely.', 'en')).toEqual([]);
    expect(only('Payments are due on 5 May 2026.', 'en')).toMatchObject({ kind: 'date', key: 'date:2026-05-05' });
  });

  it('reads clock times written with a point ("08.00–18.00", "before 14.00") as times, not prices or section numbers', () => {
    expect(only('The office is open 9.00 to 17.30.', 'en')).toMatchObject({ kind: 'time-range', key: 'time-range:09:00-17:30', text: '9.00 to 17.30' });
    expect(only('Orders placed before 14.00 are dispatched.', 'en')).toMatchObject({ kind: 'time-range', key: only('Orders placed before 14:00 are dispatched.', 'en').key });
    expect(only('Quiet hours start at 10.30 pm.', 'en')).toMatchObject({ kind: 'time', key: 'time:22:30' });
    // A price, a price range, a one-digit hour below 5 and a section number stay figures.
    expect(extractValues('It costs £10.50 to 12.00.', 'en').map((v) => v.kind)).toEqual(['amount', 'number']);
    expect(extractValues('Prices went from 2.50 to 3.00.', 'en').map((v) => v.kind)).toEqual(['number', 'number']);
    expect(extractValues('The fee is 10.50 per day.', 'en').map((v) => v.kind)).toEqual(['number']);
    expect(extractValues('Section 3.15 applies.', 'en').map((v) => v.kind)).toEqual(['number']);
  });

  it('does not read a time out of a word without a figure ("per night")', () => {
    expect(extractValues('Hotels are reimbursed per night.', 'en')).toEqual([]);
  });

  it('marks recurrences as not comparable (phrasings vary too much to call two keys a disagreement)', () => {
    const [value] = extractValues('Timesheets are due every Monday.', 'en');
    expect(value).toMatchObject({ kind: 'recurrence', comparable: false });
  });

  it('gives one key to one period ("every 12 months" = "every year", "every 14 days" = "every two weeks")', () => {
    const key = (text: string) => extractValues(text, 'en').map((v) => v.key);
    expect(key('Renew it every 12 months.')).toEqual(key('Renew it every year.'));
    expect(key('Renew it every 24 months.')).toEqual(['recurrence:P2Y']);
    expect(key('Renew it every 14 days.')).toEqual(key('Renew it every two weeks.'));
    expect(key('Renew it every 10 days.')).toEqual(['recurrence:P10D']);
  });

  it('gives one key to one clock time written in 12 h or 24 h form ("before 2 p.m." = "before 14:00")', () => {
    const key = (text: string) => extractValues(text, 'en').filter((v) => v.kind === 'time-range').map((v) => v.key);
    expect(key('Orders placed before 2 p.m. ship today.')).toEqual(key('Orders placed before 14:00 ship today.'));
    expect(key('Orders placed before 2pm ship today.')).toEqual(['time-range:T14:00']);
    expect(key('Orders placed before 3 p.m. ship today.')).not.toEqual(key('Orders placed before 14:00 ship today.'));
    expect(extractValues('Commandes passées avant 14h00 expédiées le jour même.', 'fr').find((v) => v.kind === 'time-range')?.key).toBe('time-range:T14:00');
  });

  it('reads a French hour as written: "15 h" is 15:00, "de 6 h 30 à 23 h" ends at 23:00 (the recognizer offers the morning first)', () => {
    const keys = (text: string) => extractValues(text, 'fr').filter((v) => v.kind === 'time' || v.kind === 'time-range').map((v) => v.key);
    expect(keys('Les chambres sont disponibles à partir de 15 h.')).toEqual(['time:15:00']);
    expect(keys('Le service en chambre est disponible de 6 h 30 à 23 h.')).toEqual(['time-range:06:30-23:00']);
    expect(keys('Les commandes passées avant 14 h partent le jour même.')).toEqual(['time-range:T14:00']);
    // An hour of the morning stays one.
    expect(keys('Prise de service à 8 h.')).toEqual(['time:08:00']);
    expect(keys('Le petit-déjeuner est servi de 7 h à 10 h 30.')).toEqual(['time-range:07:00-10:30']);
  });

  it('reads a clock time on a day named relatively as the time: "before 2 p.m. on the day before arrival" is before 14:00, not a date from today', () => {
    const keys = (text: string) => extractValues(text, 'en').filter((v) => v.comparable).map((v) => v.key);
    expect(keys('Guests can cancel without penalty before 2 p.m. on the day before they are due to arrive.')).toEqual(['time-range:T14:00']);
    expect(keys('Cancel free of charge until 18:00 on the day before arrival.')).toEqual(expect.arrayContaining(['time-range:T18:00']));
    // A written date stays a date.
    expect(extractValues('Apply before 2 p.m. on 3 March 2026.', 'en').map((v) => v.kind)).toEqual(['date']);
  });

  it('reads no time or length out of words without a figure: "afternoon tea", "the end of the day", "les jours fériés", "les heures de service", "24 h sur 24"', () => {
    const kinds = (text: string, language: 'en' | 'fr') => extractValues(text, language).filter((v) => ['time', 'time-range', 'duration'].includes(v.kind)).map((v) => v.key);
    expect(kinds('Classic afternoon tea costs £38 per person.', 'en')).toEqual([]);
    expect(kinds('Perishable food is thrown away at the end of the day.', 'en')).toEqual([]);
    expect(kinds('Le week-end et les jours fériés, nous le servons de 7 h à 11 h.', 'fr')).toEqual(['time-range:07:00-11:00']);
    expect(kinds('Les heures de service sont affichées à la réception.', 'fr')).toEqual([]);
    expect(kinds('Pendant les semaines de fermeture, le spa reste ouvert.', 'fr')).toEqual([]);
    expect(kinds('La réception est ouverte 24 h sur 24.', 'fr')).toEqual([]);
    // With a figure, or as noon or midnight, they are values.
    expect(kinds('Afternoon tea is served from 13:00 to 17:00.', 'en')).toEqual(['time-range:13:00-17:00']);
    expect(kinds('Orders placed before midnight ship the next day.', 'en')).toEqual(['time-range:T00:00']);
    expect(kinds("Deux semaines avant l'arrivée.", 'fr')).toEqual(['duration:P14D']);
  });

  it('compares a day of a month given without a year (a date of every year), not a date resolved against today', () => {
    expect(extractValues('Carried-over days must be used by 31 March.', 'en')).toEqual([expect.objectContaining({ key: 'date-range:before:XXXX-03-31', comparable: true })]);
    expect(extractValues('Les congés reportés doivent être pris avant le 30 juin.', 'fr').filter((v) => v.kind === 'date')).toEqual([expect.objectContaining({ key: 'date:XXXX-06-30', comparable: true })]);
    const nextMonday = extractValues('Send it next Monday.', 'en');
    expect(nextMonday.length).toBeGreaterThan(0);
    expect(nextMonday.every((v) => !v.comparable)).toBe(true);
  });

  it('still reads each kind of value now that each model runs only when its prefilter says it may match', () => {
    const read = (text: string, language: 'en' | 'fr') => extractValues(text, language).map((v) => [v.kind, v.text, v.key]);
    expect(read('14 days', 'en')).toEqual([['duration', '14 days', 'duration:P14D']]);
    expect(read('€25', 'en')).toEqual([['amount', '€25', 'amount:EUR:25']]);
    expect(read('30 %', 'en')).toEqual([['percentage', '30 %', 'percentage:30']]);
    expect(read('9:00 to 17:30', 'en')).toEqual([['time-range', '9:00 to 17:30', 'time-range:09:00-17:30']]);
    expect(read('5 kg', 'en')).toEqual([['quantity', '5 kg', 'quantity:kilogram:5']]);
    expect(read('30 jours ouvrés', 'fr')).toEqual([['duration', '30 jours ouvrés', 'duration:P30WD']]);
    expect(read('le 5 mars 2024', 'fr')).toEqual([['date', '5 mars 2024', 'date:2024-03-05']]);
    expect(read('Security badges must be worn at all times.', 'en')).toEqual([]);
  });

  it('property: any whole number of weeks equals seven times as many days, in English and French', () => {
    const next = random(7);
    for (let i = 0; i < 20; i++) {
      const weeks = 1 + Math.floor(next() * 12);
      expect(valueKeys(`within ${weeks} weeks`, 'en')).toEqual(valueKeys(`within ${weeks * 7} days`, 'en'));
      expect(valueKeys(`sous ${weeks} semaines`, 'fr')).toEqual(valueKeys(`sous ${weeks * 7} jours`, 'fr'));
      expect(valueKeys(`within ${weeks} weeks`, 'en')).toEqual(valueKeys(`sous ${weeks * 7} jours`, 'fr'));
    }
  });

  it('property: an amount printed the English way, the French way or with the currency code has one key', () => {
    const next = random(42);
    for (let i = 0; i < 20; i++) {
      const amount = 1000 + Math.floor(next() * 98_000);
      const english = `€${amount.toLocaleString('en-US')}`;
      const french = `${amount.toLocaleString('fr-FR').replace(/\u202f/g, ' ')} €`;
      const code = `EUR ${amount.toLocaleString('de-DE')},00`;
      const key = `amount:EUR:${amount}`;
      expect([valueKeys(english, 'en'), valueKeys(french, 'fr'), valueKeys(code, 'fr'), valueKeys(`${amount} euros`, 'fr')]).toEqual([[key], [key], [key], [key]]);
    }
  });

  it('property: a percentage in figures or in words has one key', () => {
    const words: [number, string, string][] = [
      [5, 'five percent', 'cinq pour cent'],
      [10, 'ten percent', 'dix pour cent'],
      [20, 'twenty percent', 'vingt pour cent'],
      [50, 'fifty percent', 'cinquante pour cent'],
    ];
    for (const [n, en, fr] of words) {
      expect(valueKeys(en, 'en')).toEqual([`percentage:${n}`]);
      expect(valueKeys(fr, 'fr')).toEqual([`percentage:${n}`]);
      expect(valueKeys(`${n} %`, 'fr')).toEqual([`percentage:${n}`]);
    }
  });
});

describe('preloadValueModels', () => {
  it('wakes every model of a language, so its sentence reads as a whole', () => {
    const took = preloadValueModels(['en']);
    expect(Object.keys(took)).toEqual(['en']);
    expect(took.en).toBeGreaterThanOrEqual(0);
    expect(valueKeys('On 1 March 2026 at 9:00, the 3 kg parcel costs 10 euros, 5% less, delivered within 14 days.', 'en')).toEqual(
      expect.arrayContaining(['datetime:2026-03-01T09:00', 'quantity:kilogram:3', 'amount:EUR:10', 'percentage:5', 'duration:P14D']),
    );
    expect(preloadValueModels([])).toEqual({});
  });
});
