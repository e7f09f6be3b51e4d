import type { Language } from '@svc/text';
import { answerValues, findNamedValue, isNegative, questionIntent, yesNoEvidence } from './answer-types';

describe('answer types', () => {
  it.each([
    ['How long does a refund take?', 'duration'],
    ['How many days per week can I work remotely?', 'duration'],
    ['Within how many weeks must I apply?', 'duration'],
    ['What is the refund deadline?', 'duration'],
    ['Quel est le délai de remboursement ?', 'duration'],
    ['Combien de temps faut-il pour être remboursé ?', 'duration'],
    ['Combien de jours de congé ?', 'duration'],
    ['How many characters must a password contain?', 'quantity'],
    ['Combien de salariés ?', 'quantity'],
    ['How much does a hotel night cost?', 'amount'],
    ['Combien coûte le déjeuner ?', 'amount'],
    ['What is the price of lunch?', 'amount'],
    ['What percentage of salary is the bonus?', 'percentage'],
    ['Quel est le taux de remboursement ?', 'percentage'],
    ['When are expense reports due?', 'date'],
    ['Quand les notes de frais sont-elles dues ?', 'date'],
    ['How often do passwords expire?', 'date'],
    ['What time does the cafeteria open?', 'time'],
    ['À quelle heure ouvre la cafétéria ?', 'time'],
    ['Are gift cards refundable?', 'yesno'],
    ['Can I change my delivery address?', 'yesno'],
    ['Peut-on changer l’adresse de livraison ?', 'yesno'],
    ['Est-ce que les cartes cadeaux sont remboursables ?', 'yesno'],
    ['Les cartes cadeaux sont-elles remboursables ?', 'yesno'],
    ['Who approves vacation requests?', 'named'],
    ['Which team handles refunds?', 'named'],
    ['Où envoyer les justificatifs ?', 'named'],
    ['Qui valide les congés ?', 'named'],
    ['What is the refund policy?', 'open'],
    ['How do I request a refund?', 'open'],
    ['Why are gift cards not refundable?', 'open'],
  ])('%s → %s', (question, type) => {
    expect(questionIntent(question).type).toBe(type);
  });

  it('marks the words that only frame the question', () => {
    expect([...questionIntent('How long does a refund take?').framing]).toEqual([0, 1]);
    expect([...questionIntent('How many days of leave?').framing]).toEqual([0, 1, 2]);
    expect([...questionIntent('Combien de temps faut-il ?').framing]).toEqual([0, 2]);
  });

  it('finds durations, amounts, percentages, dates, times and numbers, each once, in order', () => {
    const values = answerValues(
      'Hotel costs are reimbursed up to 120 EUR per night; Paris up to €1,000.50, within 2-3 business days, on 5 March 2024 at 14h30, 50% of it, the fifth working day of each month, 12 items.',
      'en',
    );
    expect(values.map((v) => [v.kind, v.text, v.key])).toEqual([
      ['amount', '120 EUR', 'amount:EUR:120'],
      ['amount', '€1,000.50', 'amount:EUR:1000.5'],
      ['duration', '2-3 business days', 'duration:P2WD-P3WD'],
      // A date with its time is one value.
      ['date', '5 March 2024 at 14h30', 'datetime:2024-03-05T14:30'],
      ['percentage', '50%', 'percentage:50'],
      ['date', 'fifth working day of each month', 'recurrence:P1M:5WD'],
      ['number', '12', 'number:12'],
    ]);
    // Values are read in the language of their text.
    expect(answerValues('Le remboursement prend trois jours, le 5 mars à 14h30.', 'fr').map((v) => [v.kind, v.text])).toEqual([
      ['duration', 'trois jours'],
      ['date', '5 mars à 14h30'],
    ]);
    expect(answerValues('The desk opens at 14h30.', 'en').map((v) => [v.kind, v.text, v.key])).toEqual([['time', '14h30', 'time:14:30']]);
  });

  it('gives equal keys to equal values written differently', () => {
    const key = (text: string, language: Language = 'en') => answerValues(text, language)[0]?.key;
    expect(key('within one week')).toBe(key('within 7 days'));
    expect(key('sous une semaine', 'fr')).toBe(key('in 7 days'));
    expect(key('1 000 €', 'fr')).toBe(key('EUR 1000'));
    expect(key('at noon')).toBe(key('at 12:00'));
    expect(key('at 2 pm')).toBe(key('à 14h', 'fr'));
    expect(key('March 5')).toBe(key('5th of March'));
    expect(key('free of charge')).toBe('amount:0');
    expect(key('gratuit', 'fr')).toBe('amount:0');
    expect(answerValues('within 30 days', 'en').every((v) => v.comparable)).toBe(true);
    // A weekday recurrence does not compare; a plain period does ("every month" and "every week" disagree).
    expect(answerValues('every Monday', 'en')[0]).toMatchObject({ kind: 'date', comparable: false });
    expect(answerValues('every month', 'en')[0]).toMatchObject({ kind: 'date', comparable: true });
  });

  it('does not take "may" the verb for May, nor "one" the pronoun for a number; compares a day of a month without a year', () => {
    expect(answerValues('Employees may work remotely; one of them may not.', 'en')).toEqual([]);
    expect(answerValues('Un salarié sur deux travaille à distance.', 'fr').map((v) => v.text)).toEqual(['deux']);
    expect(answerValues('Payments are due on 5 May.', 'en')[0]).toMatchObject({ kind: 'date', key: 'date:XXXX-05-05', comparable: true });
  });

  it('takes a counted recurrence for a duration too, and a date with its time for a time too', () => {
    expect(answerValues('Laptops are renewed every four years.', 'en')).toEqual([
      { kind: 'date', also: ['duration'], text: 'every four years', key: 'recurrence:P4Y', comparable: true },
    ]);
    expect(answerValues('Your annual leave entitlement is described below.', 'en').map((v) => [v.kind, v.also])).toEqual([['date', []]]);
    expect(answerValues('The meeting is on 5 March 2024 at 14h30.', 'en').map((v) => [v.kind, v.also])).toEqual([['date', ['time']]]);
  });

  it('reads the polarity and the yes/no cues of a sentence', () => {
    expect(isNegative('Gift cards are not refundable.')).toBe(true);
    expect(isNegative("Gift cards can't be refunded.")).toBe(true);
    expect(isNegative('Les cartes cadeaux ne sont pas remboursables.')).toBe(true);
    expect(isNegative("Ce n'est pas possible.")).toBe(true);
    expect(isNegative('Yes, until the parcel leaves the warehouse.')).toBe(false);
    expect(isNegative('Refunds are processed within 30 days.')).toBe(false);
    expect(yesNoEvidence('No, gift cards cannot be refunded.')).toBe(1);
    expect(yesNoEvidence('Employees may work remotely.')).toBe(0.9);
    expect(yesNoEvidence('Refunds are processed within 30 days.')).toBe(0.7);
  });

  it('finds the named value a sentence gives that the question does not already hold', () => {
    expect(findNamedValue('Equipment is provided by the IT desk.', 'Who provides equipment?')).toBe('IT');
    expect(findNamedValue('Write to helpdesk@example.com for a new password.', 'Who resets passwords?')).toBe('helpdesk@example.com');
    expect(findNamedValue('Requests in Paris are approved by Jane Doe.', 'Who approves requests in Paris?')).toBe('Jane Doe');
    expect(findNamedValue('Requests are approved by the manager.', 'Who approves requests?')).toBeUndefined();
  });
});
