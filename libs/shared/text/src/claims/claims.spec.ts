import { extractClaims, namesOf, properNames } from './claims';
import { findContradictions } from './find-contradictions';

let n = 0;
const claimsOf = (documentId: string, text: string, names: ReadonlySet<string> = new Set(), entity: string[] = []) => extractClaims({ id: `kn_${++n}`, documentId, text }, { language: 'en', names, entity });

describe('full-audit claims and the rule-based judge', () => {
  it('reads a claim per checkable value, with what it is about and without the value', () => {
    const [claim] = claimsOf('kd_a', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.');
    expect(claim).toMatchObject({ attribute: 'duration', value: { key: 'duration:P30D', text: '30 days' } });
    expect(claim.subject).toEqual(expect.arrayContaining(['refund', 'order', 'process', 'request']));
    expect(claimsOf('kd_a', 'Timesheets are due every Monday. How long does it take?')).toEqual([]);
  });

  it('raises two documents that give different values for the same thing, not one document, not the same value', () => {
    const claims = [
      ...claimsOf('kd_a', 'Refunds of an order are processed within 30 days of the request.'),
      ...claimsOf('kd_b', 'Refunds of an order are processed within 14 days of the request.'),
      ...claimsOf('kd_c', 'Refunds of an order are processed within two weeks of the request.'),
      ...claimsOf('kd_d', 'The canteen opens its doors 30 minutes before noon.'),
    ];
    const found = findContradictions(claims);
    expect(found.map((f) => f.claims.map((c) => c.documentId).sort())).toEqual(expect.arrayContaining([['kd_a', 'kd_b'], ['kd_a', 'kd_c']]));
    expect(found.some((f) => f.claims.map((c) => c.documentId).sort().join() === 'kd_b,kd_c')).toBe(false);
    expect(found.some((f) => f.claims.some((c) => c.documentId === 'kd_d'))).toBe(false);
    // Same input, same fingerprints.
    expect(findContradictions(claims).map((f) => f.fingerprint)).toEqual(found.map((f) => f.fingerprint));
  });

  it('reads neither a document\'s own history nor a grade glued to its figure as a claim', () => {
    // Two versions of one policy say when each was approved: not a contradiction.
    expect(claimsOf('kd_a', 'Version 1.0, approved by the finance director in March 2022.')).toEqual([]);
    expect(claimsOf('kd_a', 'Last updated on 3 March 2025 by the HR team.')).toEqual([]);
    expect(extractClaims({ id: 'kn_fr', documentId: 'kd_a', text: 'Mis à jour le 3 mars 2025.' }, { language: 'fr', names: new Set(), entity: [] })).toEqual([]);
    // A date that is a rule stays a claim.
    expect(claimsOf('kd_a', 'The new expense policy applies from 1 March 2025.').map((c) => c.attribute)).toEqual(['date']);
    // "30D" nylon is a fabric grade, not thirty days; "30 days" stays a duration.
    const fabric = claimsOf('kd_a', 'The flysheet is made of 30D ripstop polyester.');
    expect(fabric.filter((c) => c.attribute === 'duration')).toEqual([]);
    expect(claimsOf('kd_a', 'The flysheet is replaced within 30 days.').map((c) => c.attribute)).toEqual(['duration']);
  });

  it('keeps apart sentences whose headings qualify one word differently ("Standard refunds" against "Express refunds")', () => {
    const under = (heading: string, documentId: string, days: number) => claimsOf(documentId, `## ${heading}\n\nRefunds of an order are processed within ${days} days of the request.`);
    const others = [...claimsOf('kd_c', 'The canteen opens its doors 30 minutes before noon.'), ...claimsOf('kd_d', 'Parcels are delivered within 3 working days.')];
    expect(findContradictions([...under('Standard refunds', 'kd_a', 30), ...under('Standard refunds', 'kd_b', 14), ...others])).toHaveLength(1);
    expect(findContradictions([...under('Standard refunds', 'kd_a', 30), ...under('Express refunds', 'kd_b', 14), ...others])).toEqual([]);
  });

  it('reads a year before a noun as an edition that limits the claim ("the 2025 price list"), and a year after a month or a preposition as a date', () => {
    const [faq] = claimsOf('kd_faq', 'The 2025 price list remains valid until 30 June 2026, after which the 2026 list applies.');
    expect(faq.scope).toEqual(['2025', '2026']);
    const [list] = claimsOf('kd_list', 'The 2025 price list is valid until 31 March 2026.');
    expect(list.scope).toEqual(['2025']);
    // The same edition: its two validity dates contradict, the shared year counting as a shared word.
    expect(findContradictions([faq, list]).map((f) => f.claims.map((c) => c.value.key).sort())).toEqual([['date-range:before:2026-03-31', 'date-range:before:2026-06-30']]);
    // Two editions may well have different dates.
    const [next] = claimsOf('kd_next', 'The 2026 price list is valid until 31 March 2027.');
    expect(findContradictions([list, next])).toEqual([]);
    expect(claimsOf('kd_d', 'Since 2020 employees get 25 days of leave, and in March 2024 staff got 2 more days.').flatMap((c) => c.scope)).toEqual([]);
  });

  it('keeps apart claims about different named things (two products, two cities)', () => {
    const texts = ['The Trailhead tent weighs 2.1 kg when packed.', 'The Basecamp tent weighs 7.8 kg when packed.', 'We sell the Trailhead and the Basecamp tents.'];
    const names = properNames(texts);
    expect([...names].sort()).toEqual(['basecamp', 'trailhead']);
    expect(namesOf('Trailhead 2 tent', names)).toEqual(['trailhead']);
    const claims = [...claimsOf('kd_a', texts[0], names), ...claimsOf('kd_b', texts[1], names)];
    expect(findContradictions(claims)).toEqual([]);
  });

  it('raises a modality flip across documents, in English and in French, and not "must" against "may"', () => {
    const en = [
      ...claimsOf('kd_a', 'Multi-factor authentication is mandatory for remote access to company systems.'),
      ...claimsOf('kd_b', 'Multi-factor authentication is optional for remote access to company systems.'),
    ];
    expect(en.map((c) => c.modality)).toEqual(['required', 'optional']);
    expect(findContradictions(en)).toHaveLength(1);
    const fr = [
      ...extractClaims({ id: 'p1', documentId: 'kd_c', text: "L'utilisation de clés USB personnelles est interdite sur les postes de travail." }, { language: 'fr' }),
      ...extractClaims({ id: 'p2', documentId: 'kd_d', text: "L'utilisation de clés USB personnelles est autorisée sur les postes de travail." }, { language: 'fr' }),
    ];
    expect(fr.map((c) => c.modality)).toEqual(['forbidden', 'permitted']);
    expect(findContradictions(fr)).toHaveLength(1);
    const compatible = [...claimsOf('kd_e', 'Contractors must use the VPN to access the staging network.'), ...claimsOf('kd_f', 'Contractors may use the VPN to access the staging network.')];
    expect(findContradictions(compatible)).toEqual([]);
  });

  it('keeps apart values limited to different scopes: countries, customer tiers, employee categories, clauses', () => {
    const texts = ['Employees in France receive 25 days of paid leave per year.', 'Employees in Germany receive 30 days of paid leave per year.'];
    const names = properNames([...texts, 'Our offices in France and Germany.']);
    expect(findContradictions([...claimsOf('kd_a', texts[0], names), ...claimsOf('kd_b', texts[1], names)])).toEqual([]);
    expect(findContradictions([...claimsOf('kd_a', 'Premium customers receive a refund within 7 days of the request.'), ...claimsOf('kd_b', 'Standard customers receive a refund within 30 days of the request.')])).toEqual([]);
    expect(findContradictions([...claimsOf('kd_a', 'Full-time employees work 38 hours per week in the warehouse.'), ...claimsOf('kd_b', 'Part-time employees work 20 hours per week in the warehouse.')])).toEqual([]);
    const fr = (documentId: string, text: string) => extractClaims({ id: documentId, documentId, text }, { language: 'fr' });
    expect(findContradictions([...fr('kd_a', 'Pour les clients professionnels, la livraison est gratuite dès 100 EUR de commande.'), ...fr('kd_b', 'Pour les clients particuliers, la livraison est gratuite dès 50 EUR de commande.')])).toEqual([]);
    // The same qualifier on both sides, or none on one side, is the same scope: still raised.
    expect(findContradictions([...claimsOf('kd_a', 'Premium customers receive a refund within 7 days of the request.'), ...claimsOf('kd_b', 'Premium customers receive a refund within 30 days of the request.')])).toHaveLength(1);
    // "120 EUR; Paris and London up to 180 EUR": the names limit the second value only.
    const hotel = 'Hotel costs are reimbursed up to 120 EUR per night; Paris and London up to 180 EUR.';
    const cities = properNames([hotel, 'Offices in Paris and London.']);
    expect(claimsOf('kd_a', hotel, cities).map((c) => c.scope)).toEqual([[], ['london', 'paris']]);
    // A name after "all" or "every" does not limit: "all Northwind products" is a general statement.
    const general = claimsOf('kd_a', 'All Northwind products carry a two-year warranty from the date of purchase.', new Set(['northwind']));
    expect(general[0].scope).toEqual([]);
  });

  it('reads counts, recurrences and dates, and a table row as its first cell and column header', () => {
    expect(claimsOf('kd_a', 'Passwords must be at least 14 characters long.')[0]).toMatchObject({ attribute: 'count:charact', value: { key: 'number:14' } });
    expect(claimsOf('kd_a', 'Laptops are replaced every three years.')[0]).toMatchObject({ attribute: 'recurrence' });
    expect(claimsOf('kd_a', 'The 2025 price list is valid until 31 March 2026.')[0]).toMatchObject({ attribute: 'date' });
    expect(claimsOf('kd_a', 'The Trailhead 2 tent is light.')).toEqual([]);
    const names = new Set(['ember']);
    const [row] = claimsOf('kd_a', '| Product | Reference | Price |\n| --- | --- | --- |\n| Ember 1 stove | CK-E1 | 79 EUR |', names);
    expect(row).toMatchObject({ attribute: 'amount:EUR', scope: ['ember'] });
    expect(row.subject).toEqual(expect.arrayContaining(['stove', 'price']));
    expect(row.subject).not.toContain('ck');
  });
});
