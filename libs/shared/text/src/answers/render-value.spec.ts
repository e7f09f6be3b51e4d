import type { Language } from '../language';
import { extractValues } from '../values';
import { renderValue } from './render-value';

/** The sentence with its (only) value replaced by the expert's, as renderValue writes it; null when it cannot. */
function rewrite(sentence: string, language: Language, expert: string, expertLanguage: Language = language): string | null {
  const [stated] = extractValues(sentence, language);
  const [value] = extractValues(expert, expertLanguage);
  expect(stated).toBeDefined();
  expect(value).toBeDefined();
  const written = renderValue(value, stated, language);
  return written === undefined ? null : sentence.slice(0, stated.start) + written + sentence.slice(stated.end);
}

describe('renderValue: the expert value written in the sentence form', () => {
  it.each([
    // Durations: the sentence's unit when the value converts to it exactly, numbers as the sentence writes them.
    ['Refunds take two weeks.', '21 days', 'Refunds take three weeks.'],
    ['Refunds take 2 weeks.', '21 days', 'Refunds take 3 weeks.'],
    ['Refunds take two weeks.', '10 days', 'Refunds take ten days.'],
    ['Refunds take 14 days.', 'three weeks', 'Refunds take 21 days.'],
    ['Refunds take 14 days.', 'one day', 'Refunds take 1 day.'],
    ['Keep the receipt for 3 years.', 'two-year', 'Keep the receipt for 2 years.'],
    ['Claims are answered within 48 hours.', '3 days', 'Claims are answered within 72 hours.'],
    ['The course lasts 90 minutes.', '2 hours', 'The course lasts 120 minutes.'],
    ['Log it within 5 working days.', 'two working days', 'Log it within 2 working days.'],
    ['Log it within 5 working days.', '30 days', 'Log it within 30 days.'],
    ['Log it within 30 days.', '5 business days', 'Log it within 5 working days.'],
    ['Delivery takes 3 to 5 days.', '2 to 4 days', 'Delivery takes 2 to 4 days.'],
    ['Delivery takes between 3 and 5 days.', '7 days', 'Delivery takes 7 days.'],
    ['Delivery takes 7 days.', '3 to 5 days', 'Delivery takes 3 to 5 days.'],
    ['Refunds take 14 days.', '30', 'Refunds take 30 days.'],
    // Months and years have no exact length in days: they stay what the expert wrote.
    ['Invoices are payable within 30 days.', '6 years', 'Invoices are payable within 6 years.'],
    ['Refunds take 14 days.', 'one month', 'Refunds take 1 month.'],
    ['The contract runs for 12 months.', '2 years', 'The contract runs for 24 months.'],
    // Periods.
    ['Brakes are inspected every 6 months.', 'once a year', 'Brakes are inspected every 12 months.'],
    ['Renew it every 2 years.', 'every year', 'Renew it every year.'],
    ['Renew it every two years.', 'every three years', 'Renew it every three years.'],
    ['Renew it every year.', 'every 3 years', 'Renew it every 3 years.'],
    ['Each tram is cleaned every two weeks.', 'every four weeks', 'Each tram is cleaned every four weeks.'],
    ['Renew it every 2 years.', '3 years', 'Renew it every 3 years.'],
    // Amounts: currency as the sentence writes it, decimals as it writes them.
    ['The allowance is EUR 0.50 per day.', '1 euro', 'The allowance is EUR 1.00 per day.'],
    ['Hotels are reimbursed up to 150 EUR per night.', '120 EUR', 'Hotels are reimbursed up to 120 EUR per night.'],
    ['On-call is paid 95 euros per night.', 'EUR 85', 'On-call is paid 85 euros per night.'],
    ['On-call is paid 95 euros per night.', 'EUR 1', 'On-call is paid 1 euro per night.'],
    ['Purchases above 5,000 EUR need approval.', '10000 EUR', 'Purchases above 10,000 EUR need approval.'],
    ['The jacket costs €89.', '79 euros', 'The jacket costs €79.'],
    ['The jacket costs €89.', '$79', 'The jacket costs $79.'],
    ['The jacket costs €89.', '79.5 EUR', 'The jacket costs €79.50.'],
    ['The penalty is EUR 80.', '25', 'The penalty is EUR 25.'],
    // Percentages, quantities, numbers.
    ['Seniors get a 50% reduction.', 'forty per cent', 'Seniors get a 40% reduction.'],
    ['Seniors get a thirty percent reduction.', '40%', 'Seniors get a forty percent reduction.'],
    ['Packed weight: 2.1 kg', '2.4 kg', 'Packed weight: 2.4 kg'],
    ['Passwords need at least 12 characters.', '14', 'Passwords need at least 14 characters.'],
    // Clock times in the sentence's 12- or 24-hour style.
    ['Open from 9:00 to 17:00.', '8 am to 6 pm', 'Open from 8:00 to 18:00.'],
    ['Cork | 09:00-13:00 | Closed', 'from 8:30 to 12:00', 'Cork | 08:30-12:00 | Closed'],
    ['Open from 9 a.m. to 5 p.m.', '08:00 to 18:30', 'Open from 8 a.m. to 6:30 p.m.'],
    ['The desk opens at 8:30.', '9:15', 'The desk opens at 9:15.'],
    ['The desk opens at 9 am.', '14:00', 'The desk opens at 2 pm.'],
    // Dates in the sentence's style.
    ['The new fares apply from 1 January 2025.', '1 February 2025', 'The new fares apply from 1 February 2025.'],
    ['The new fares apply from January 1, 2025.', '15 March 2025', 'The new fares apply from March 15, 2025.'],
    ['The new fares apply from 2025-01-01.', '1 February 2025', 'The new fares apply from 2025-02-01.'],
    ['Use the days by 31 March.', '30 April', 'Use the days by 30 April.'],
    ['Use the days by 31 March 2026.', '30 April', 'Use the days by 30 April 2026.'],
    ['The office is open Monday to Friday.', 'Monday to Saturday', 'The office is open Monday to Saturday.'],
  ] as const)('%s + "%s" → %s', (sentence, expert, expected) => {
    expect(rewrite(sentence, 'en', expert)).toBe(expected);
  });

  it.each([
    ['Les remboursements prennent deux semaines.', '21 days', 'en', 'Les remboursements prennent trois semaines.'],
    ['Le délai est de 10 jours.', '14 days', 'en', 'Le délai est de 14 jours.'],
    ['Le délai est de 10 jours.', 'two weeks', 'en', 'Le délai est de 14 jours.'],
    ['Le délai est de deux semaines.', '10 days', 'en', 'Le délai est de dix jours.'],
    ['Présentez-vous 15 minutes avant le départ.', "dix minutes avant l'heure", 'fr', 'Présentez-vous 10 minutes avant le départ.'],
    ['Déclarez-le sous 3 jours ouvrés.', '5 working days', 'en', 'Déclarez-le sous 5 jours ouvrés.'],
    ['Déclarez-le sous 3 jours ouvrés.', '10 working days', 'en', 'Déclarez-le sous 10 jours ouvrés.'],
    ['La formation est renouvelée tous les deux ans.', 'every year', 'en', 'La formation est renouvelée tous les ans.'],
    ['La formation est renouvelée tous les ans.', 'every 3 years', 'en', 'La formation est renouvelée tous les 3 ans.'],
    ["L'indemnité est de 0,50 € par jour.", '1 euro', 'en', "L'indemnité est de 1,00 € par jour."],
    ["L'indemnité est de 1 200 € par an.", '1500 EUR', 'en', "L'indemnité est de 1 500 € par an."],
    ['La prime est de 95 euros par nuit.', 'EUR 1.50', 'en', 'La prime est de 1,50 euro par nuit.'],
    ['La réduction est de 50 %.', '40%', 'en', 'La réduction est de 40 %.'],
    ['Au plus 6 astreintes de nuit par mois.', 'quatre', 'fr', 'Au plus 4 astreintes de nuit par mois.'],
    ['Ouvert de 9 h à 17 h.', '8:00 to 18:30', 'en', 'Ouvert de 8 h à 18 h 30.'],
    ['Ouvert de 9h à 17h.', '08:00 to 18:00', 'en', 'Ouvert de 8h à 18h.'],
    ['Les tarifs changent le 1 mars 2026.', '15 April 2026', 'en', 'Les tarifs changent le 15 avril 2026.'],
    ['Ouvert du lundi au vendredi.', 'Monday to Saturday', 'en', 'Ouvert du lundi au samedi.'],
  ] as const)('%s + "%s" (%s) → %s', (sentence, expert, expertLanguage, expected) => {
    expect(rewrite(sentence, 'fr', expert, expertLanguage)).toBe(expected);
  });

  it.each([
    // Another kind, or a form the sentence's value cannot take: nothing is written.
    ['Passwords need at least 12 characters.', 'en', '5 working days'],
    ['Laptops are renewed every four years.', 'en', '10 working days'],
    ['Delivery is free of charge.', 'en', 'EUR 5'],
    ['The desk opens at 8:30.', 'en', '9:00 to 17:00'],
  ] as const)('%s (%s) + "%s" → nothing', (sentence, language, expert) => {
    expect(rewrite(sentence, language, expert, 'en')).toBeNull();
  });
});
