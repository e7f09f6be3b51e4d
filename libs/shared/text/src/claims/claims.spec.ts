import { namesOf, organisationNames, properNames } from '../names';
import { extractClaims } from './claims';
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

  it('reads neither a clause number as a count nor a heading\'s number or names as what its sentences are about', () => {
    // "7.1" numbers the clause: no count of questions.
    expect(claimsOf('kd_a', '7.1 Questions about points or payments go to the troncmaster.')).toEqual([]);
    expect(claimsOf('kd_a', '3 members of staff are on duty.').map((c) => c.attribute)).toEqual(['count:member']);
    const names = properNames(['Staying at Ravensmere York is a pleasure.']);
    const [claim] = claimsOf('kd_a', '## 7. Ravensmere payment terms\n\nInvoices are payable within 30 days.', names);
    expect(claim.subject).toEqual(expect.arrayContaining(['payment', 'invoic']));
    expect(claim.subject).not.toContain('7');
    expect(claim.subject).not.toContain('ravensmer');
  });

  it('reads the period a rate is counted over as its frame, not a value: two sick-pay rates over one year disagree on the rate', () => {
    const a = claimsOf('kd_a', 'Company sick pay covers up to 10 working days of absence in any rolling 12-month period.');
    const b = claimsOf('kd_b', 'The company pays full sick pay for the first 15 days of absence in any 12 months.');
    expect(a.map((c) => c.value.key)).toEqual(['duration:P10WD']);
    expect(b.map((c) => c.value.key)).toEqual(['duration:P15D']);
    expect(findContradictions([...a, ...b])).toHaveLength(1);
    // A validity of twelve months is a value.
    expect(claimsOf('kd_c', 'Gift vouchers are valid for 12 months from the date of purchase.').map((c) => c.attribute)).toEqual(['duration']);
  });

  it("reads a document's control line (its effective date, its issue) as no claim", () => {
    expect(claimsOf('kd_a', '| Effective | 1 April 2025 |')).toEqual([]);
    expect(claimsOf('kd_a', 'Ravensmere Hotels · ENG-02 · Issue 2 · Effective 1 September 2024 · Owner: Group Head of Engineering')).toEqual([]);
    expect(claimsOf('kd_a', 'Effective date: 1 March 2023')).toEqual([]);
    // A date a rule takes effect on is a statement.
    expect(claimsOf('kd_a', 'The new lunch allowance takes effect on 1 May 2025.').map((c) => c.attribute)).toEqual(['date']);
  });

  it("reads an organisation's legal name as one name, its first word: the rest is neither scope nor subject", () => {
    const text = 'Overdue sums owed to Quillmoor Freight Ltd carry interest at 4% above the base rate.';
    const names = properNames([text, 'Quillmoor Freight staff and Quillmoor customers.']);
    const organisation = organisationNames(['Quillmoor Freight Ltd – Standard Trading Conditions']);
    expect([...organisation].sort()).toEqual(['freight', 'ltd']);
    const [claim] = extractClaims({ id: 'kn_org', documentId: 'kd_a', text }, { language: 'en', names, organisation });
    expect(claim.scope).toEqual(['quillmoor']);
    expect(claim.subject).not.toContain('freight');
    expect(claim.subject).toEqual(expect.arrayContaining(['overdu', 'sum', 'interest']));
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

  it("reads a value's qualifiers in its own clause: another clause's adjectives do not set its scope", () => {
    // "a long time" and "good time" qualify clauses that give no value; both rules are about notice after probation.
    const handbook = claimsOf('kd_a', "We hope you stay a long time, but if you decide to resign, staff who have completed probation must give one month's notice in writing.");
    const guide = claimsOf('kd_b', "Staff who have completed probation must give eight weeks' notice in writing, so that there is good time for a handover.");
    expect(handbook.find((c) => c.attribute === 'duration')!.qualifiers).not.toContain('time<long');
    expect(guide.find((c) => c.attribute === 'duration')!.qualifiers).not.toContain('time<good');
    expect(findContradictions([...handbook, ...guide]).map((p) => p.claims.map((c) => c.value.text))).toEqual([['one month', 'eight weeks']]);
    // A clause's own qualifiers still set its scope ("Part-time staff ...; full-time staff ...").
    expect(findContradictions([...claimsOf('kd_a', 'Full-time staff, but not contractors, get 25 days of leave.'), ...claimsOf('kd_b', 'Part-time staff get 15 days of leave.')])).toEqual([]);
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

  // Causes found on the third corpus (tools/eval/third-corpus), each a general reading of English or French.
  describe('readings of documents the judge had never seen', () => {
    const pairs = (a: string, b: string, names: ReadonlySet<string> = new Set(), language: 'en' | 'fr' = 'en') => {
      const read = (id: string, text: string) => extractClaims({ id: `kn_${++n}`, documentId: id, text }, { language, names, entity: [] });
      return findContradictions([...read('kd_a', a), ...read('kd_b', b)]).map((f) => f.claims.map((c) => c.value.text).sort());
    };

    it('takes neither title lines, months and days, nor the name of a kind of document ("these Terms") for proper names, and keeps a product named in a table cell', () => {
      const names = properNames(['Patient Billing and Payment Terms', 'Invoices under these Terms are due on 31 March.', 'We are open on Saturdays.', '| Footprint for Trailhead 2 | 39 EUR |']);
      expect([...names].sort()).toEqual(['trailhead']);
      // A sentence is no title, however many names it holds.
      expect(properNames(['Offices in Paris and London.'])).toEqual(new Set(['paris', 'london']));
    });

    it('compares a day of a month without a year with the same alone, and reads "every year" and "every 12 months" as one period', () => {
      expect(pairs('Carried-over days must be used by 31 March of the following year.', 'Carried-over days must be taken before 30 June of the following year.')).toEqual([['before 30 June', 'by 31 March']]);
      expect(claimsOf('kd_a', 'The 2025 price list is valid until 31 March 2026.').map((c) => c.attribute)).toEqual(['date']);
      expect(claimsOf('kd_a', 'All staff complete fire safety training every year.').map((c) => c.value.key)).toEqual(['recurrence:P1Y']);
      expect(pairs('All staff complete fire safety awareness training every year.', 'All staff complete fire safety awareness training every 12 months.')).toEqual([]);
      expect(pairs('All staff complete fire safety awareness training every year.', 'All staff complete fire safety awareness training every 2 years.')).toEqual([['every 2 years', 'every year']]);
    });

    it('reads "voluntary" as optional, a rule beside a figure, and the rule of the sentence rather than that of its relative clause', () => {
      expect(pairs('Seasonal flu vaccination is mandatory for clinical staff.', 'Seasonal flu vaccination is voluntary for clinical staff.')).toEqual([['is mandatory', 'is voluntary']]);
      // A figure does not hide the rule of its sentence.
      expect(claimsOf('kd_a', 'Flu vaccination is voluntary and costs 10 EUR for visitors.').map((c) => c.attribute)).toEqual(['amount:EUR', 'modality']);
      expect(claimsOf('kd_a', 'A clinician who cannot be vaccinated must wear a surgical mask.').map((c) => c.modality)).toEqual(['required']);
      expect(extractClaims({ id: 'kn_fr2', documentId: 'kd_a', text: 'Les salariés qui ne peuvent pas venir doivent prévenir leur responsable.' }, { language: 'fr' }).map((c) => c.modality)).toEqual(['required']);
    });

    it('meets counts of two nouns that both sides name ("four on-call nights", "6 nights on call")', () => {
      expect(pairs("Un collaborateur assure au maximum quatre nuits d'astreinte par mois.", 'Aucun collaborateur ne peut assurer plus de 6 astreintes de nuit par mois.', new Set(), 'fr')).toEqual([['6', 'quatre']]);
      // Counts of different things stay apart.
      expect(pairs('A manager approves at most four requests per month for each team.', 'A manager approves at most 6 trainings per month for each team.')).toEqual([]);
    });

    it('reads a value with the words of its own clause, and the days written next to it', () => {
      // The second clause's "public holiday" is not what the 95 euros are about.
      expect(pairs('Weekday on-call is paid at a flat rate of 95 euros per night; public holiday rates are set in the schedule.', '| Public holiday on-call rate | 200 euros |')).toEqual([]);
      // On weekdays 08:00 to 18:00, on Saturdays 10:00 to 14:00: only the Saturday hours meet a Saturday timetable.
      expect(pairs('The Cork clinic is open from 08:00 to 18:00 on weekdays and on Saturdays from 10:00 to 14:00.', '| Site | Saturday |\n| --- | --- |\n| Cork clinic | 09:00-13:00 |', new Set(['cork']))).toEqual([['09:00-13:00', 'from 10:00 to 14:00']]);
      expect(pairs('The Cork clinic is open from 08:00 to 18:00 on weekdays.', 'The Cork clinic is open from 09:00 to 13:00 on Saturdays.', new Set(['cork']))).toEqual([]);
    });

    it('keeps apart two committees that share a word of their names, and a plural modifier is no contrast', () => {
      const committees = new Set(['committee', 'governance', 'people', 'culture', 'clinical']);
      expect(pairs('The Clinical Governance Committee reviews the incident policy every month.', 'The People Culture Committee reviews the incident policy every two years.', committees)).toEqual([]);
      expect(pairs('Self-pay patients booking a day procedure pay a deposit of 30% of the quoted fee.', 'When a self-pay patient books a day procedure, a deposit equal to 25% of the quoted price is taken.')).toEqual([['25%', '30%']]);
    });

    it("reads no date out of a document's own approval or edition line, whatever its wording", () => {
      expect(claimsOf('kd_a', 'Human Resources - Policy HR-04, version 6, approved 1 January 2025')).toEqual([]);
      expect(claimsOf('kd_a', 'Operations Department - Edition 7, approved by the Head of Operations on 6 January 2025')).toEqual([]);
      expect(extractClaims({ id: 'kn_fr3', documentId: 'kd_a', text: 'Direction du dépôt de Saint-Aubin - édition janvier 2025' }, { language: 'fr' })).toEqual([]);
      expect(extractClaims({ id: 'kn_fr4', documentId: 'kd_a', text: 'Version 4, approuvée par la direction du dépôt en septembre 2024' }, { language: 'fr' })).toEqual([]);
      // A date that is a rule stays a claim.
      expect(claimsOf('kd_a', 'From 1 March 2025, new fares will apply on all buses.').map((c) => c.attribute)).toEqual(['date']);
    });

    it('reads no length of time in "a day ticket", and leaves "at least" and "without" out of what a value is about', () => {
      expect(claimsOf('kd_a', 'Children pay EUR 3.20 for a day ticket.').map((c) => c.attribute)).toEqual(['amount:EUR']);
      expect(claimsOf('kd_a', 'Refunds are issued within a day of the request.').map((c) => c.attribute)).toEqual(['duration']);
      const [rest] = claimsOf('kd_a', 'Weekly rest: at least 45 consecutive hours.');
      expect(rest.subject).not.toContain('least');
      const [fare] = claimsOf('kd_a', 'Passengers without a valid ticket pay EUR 80.');
      expect(fare.subject).not.toContain('without');
    });

    it('counts a shared name once however many words it has, and prefers the row qualified as the sentence is ("a valid ticket")', () => {
      const office = new Set(['central', 'ticket', 'office']);
      expect(pairs('Collect the card at the Central Ticket Office within five working days.', 'Penalty fares are paid at the Central Ticket Office within 14 days.', office)).toEqual([]);
      const table = '## Penalty fare schedule\n\n| Offence | Penalty fare |\n| --- | --- |\n| Travelling without a valid ticket | EUR 60 |\n| Ticket not validated on boarding | EUR 25 |';
      expect(pairs(table, 'Passengers found without a valid ticket are charged a penalty fare of EUR 80.')).toEqual([['EUR 60', 'EUR 80']]);
    });

    it("compares a statement with a document about the same named thing, even when the document's name names more", () => {
      const names = new Set(['central', 'service', 'station', 'square']);
      const guide = extractClaims({ id: `kn_${++n}`, documentId: 'kd_a', text: '## Opening hours\n\n- Monday to Friday: the ticket office opens 07:30 to 19:00' }, { language: 'en', names, entity: ['central', 'service'] });
      const charter = extractClaims({ id: `kn_${++n}`, documentId: 'kd_b', text: 'The Central ticket office on Station Square opening hours are 8:00 to 18:00 from Monday to Friday.' }, { language: 'en', names, entity: [] });
      expect(guide.find((c) => c.attribute === 'time-range')?.entity).toEqual(['central', 'service']);
      expect(findContradictions([...guide, ...charter]).map((f) => f.claims.map((c) => c.value.text).sort())).toEqual([['07:30 to 19:00', '8:00 to 18:00']]);
    });

    it('reads the rule of sentences whose words only look like a relative clause or a title, and a French approval that is a rule', () => {
      expect(claimsOf('kd_a', 'Please note that visitors must sign in at reception.').map((c) => c.modality)).toEqual(['required']);
      const fr = (text: string) => extractClaims({ id: `kn_${++n}`, documentId: 'kd_a', text }, { language: 'fr' });
      expect(fr("L'équipe doit porter un badge.").map((c) => c.modality)).toEqual(['required']);
      expect(fr('Toute question doit être posée au service RH.').map((c) => c.modality)).toEqual(['required']);
      // "Volontaire" describing who is no rule; "est volontaire" is.
      expect(fr('Les salariés volontaires peuvent travailler le samedi.').map((c) => c.modality)).toEqual(['permitted']);
      expect(fr('La vaccination est volontaire.').map((c) => c.modality)).toEqual(['optional']);
      expect(fr('Les congés doivent être approuvés avant le 31 mars.').map((c) => c.attribute)).toContain('annual-date');
      expect(fr('Prévenez un jour à l’avance.').map((c) => c.attribute)).toEqual(['duration']);
      // A list of places with commas is no title: its names are learned.
      expect([...properNames(['Our sites:', '- Dublin, Cork, Galway and Limerick'])].sort()).toEqual(['cork', 'galway', 'limerick']);
    });
  });
});
