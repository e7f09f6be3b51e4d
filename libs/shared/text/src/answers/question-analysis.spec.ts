import { companionQuestions } from './companion-questions';
import { decideQuestion, fingerprint } from './decide-question';
import { extractAnswers } from './extract-answers';
import type { Passage } from './question-analysis.types';
import { profileQuestion } from './question-profile';
import { segments } from './segments';
import { selectPassages } from './select-passages';

let n = 0;
const passage = (documentId: string, text: string, extra: Partial<Passage> = {}): Passage => ({ id: `kn_${++n}`, documentId, text, ...extra });
const analyse = (question: string, passages: Passage[]) => decideQuestion('mq_1', extractAnswers(question, passages), passages);

describe('profileQuestion', () => {
  it.each([
    ['How long does shipping take?', { form: 'value', kinds: ['duration'] }],
    ['How many working days before the start date must the laptop be ordered?', { form: 'value', kinds: ['duration'] }],
    ['What is the price of the tent?', { form: 'value', kinds: ['amount'] }],
    ['How much does the stove weigh?', { form: 'value', kinds: ['quantity'] }],
    ['What are the opening hours of the shop?', { form: 'value', kinds: ['time-range', 'time'] }],
    ['When was the house built?', { form: 'value', kinds: ['date', 'date-range'] }],
    ['When is the service desk available?', { form: 'value', kinds: ['date', 'date-range', 'time-range', 'time'] }],
    ['How many days of paid holiday do employees get?', { form: 'value', kinds: ['duration'] }],
    ['How much is paid for a night in a hotel?', { form: 'value', kinds: ['amount'] }],
    ['Are gift vouchers refundable?', { form: 'yes-no' }],
    ['Who directed the film?', { form: 'named', relation: 'agent' }],
    ['Where is the head office located?', { form: 'named', relation: 'place' }],
    ['Combien de jours de congés les salariés ont-ils ?', { form: 'value', kinds: ['duration'] }],
    // Kinds as sets: a charge is often a share ("interest at 8% over base rate"); a cut-off is a time of day.
    ['How much interest do you charge customers who pay late?', { form: 'value', kinds: ['amount', 'percentage'] }],
    ['What fee is charged for a late cancellation?', { form: 'value', kinds: ['amount', 'percentage'] }],
    ["What's the latest time we can send an order and still have it shipped the same day?", { form: 'value', kinds: ['time-range', 'time'] }],
    ['Who has to sign off a purchase above 25,000 pounds?', { form: 'named', relation: 'responsible' }],
    ['Qui doit valider une note de frais ?', { form: 'named', relation: 'responsible' }],
    // The form is read from the clause that asks, after any scene the asker sets.
    ['I rolled some holiday days over from last year. By when do I have to use them?', { form: 'value', kinds: ['date', 'date-range', 'duration'] }],
    ['You hold our stock in Leeds: can we still order on a Saturday?', { form: 'yes-no' }],
    ['Am I allowed to use my company van for personal errands at the weekend?', { form: 'yes-no' }],
    ["Isn't a receipt needed for a taxi fare?", { form: 'yes-no' }],
    ['Puis-je utiliser le véhicule de service le week-end ?', { form: 'yes-no' }],
    ['Les salariés de Lyon ont-ils droit au télétravail ?', { form: 'yes-no' }],
    ['Comment peut-on obtenir un badge ?', { form: 'named' }],
    ['At what times does the depot take deliveries from suppliers?', { form: 'value', kinds: ['time-range', 'time'] }],
    ['How far ahead are the staff rotas published?', { form: 'value', kinds: ['duration'] }],
    ['How quickly should an engineer come when a door lock breaks?', { form: 'value', kinds: ['duration'] }],
    ['How late can we check out on a Sunday?', { form: 'value', kinds: ['time-range', 'time'] }],
    ['What will I be billed if someone smokes in the room?', { form: 'value', kinds: ['amount'] }],
    ["What's the latest I can cancel the flexible rate without paying?", { form: 'value', kinds: expect.arrayContaining(['time', 'date', 'duration']) }],
    ['Whose job is it to update the allergen chart?', { form: 'named', relation: 'responsible' }],
    ['The service lift is broken - may room attendants use the guest lift?', { form: 'yes-no' }],
    ["À partir de quelle heure peut-on entrer dans la chambre ?", { form: 'value', kinds: ['time-range', 'time'] }],
  ])('%s asks for %j', (question, expected) => {
    expect(profileQuestion(question).expected).toMatchObject(expected);
  });

  it('weighs the words of the scene an asker sets less than those of the clause that asks', () => {
    const terms = profileQuestion('Our train gets in at lunchtime. How much extra is it to get into the room early?').terms;
    const salience = (surface: string) => terms.find((t) => t.surface === surface)?.salience;
    expect(salience('train')).toBeLessThan(salience('room')!);
    expect(salience('extra')).toBe(1);
  });

  it('keeps content terms, with French function words left alone in English ("car" is a noun here)', () => {
    expect(profileQuestion('What is the monthly budget for a company car?').terms.map((t) => t.surface)).toEqual(['monthly', 'budget', 'company', 'car']);
  });

  it('gives verbs less weight than nouns and names more (writers paraphrase verbs)', () => {
    const terms = profileQuestion('How often are employee laptops replaced at Northwind?').terms;
    const salience = Object.fromEntries(terms.map((t) => [t.surface, t.salience]));
    expect(salience.replaced).toBeLessThan(salience.laptops);
    expect(salience.northwind).toBeGreaterThan(salience.laptops);
  });
});

describe('segments', () => {
  it('cuts sentences and table rows with their offsets in the passage', () => {
    const text = '## Specs\n\nWeight | 2.1 kg\nIt is light. Dr. Smith agrees.\n- Refunds take 30 days.';
    const segs = segments(text);
    expect(segs.map((s) => [s.text, s.heading, s.row])).toEqual([
      ['## Specs', true, false],
      ['Weight | 2.1 kg', false, true],
      ['It is light.', false, false],
      ['Dr. Smith agrees.', false, false],
      ['Refunds take 30 days.', false, false],
    ]);
    for (const s of segs) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

describe('question analysis (extraction and decision)', () => {
  it('raises a conflict between two documents that state different durations, and groups equal values written differently', () => {
    const result = analyse('How long does the refund of an order take?', [
      passage('kd_a', 'Refunds of an order are processed within two weeks.'),
      passage('kd_b', 'The refund of an order takes 14 days.'),
      passage('kd_c', 'Refunds of an order are processed within 30 days of the request.'),
    ]);
    expect(result.outcome).toBe('CONFLICTS');
    expect(result.conflicts).toHaveLength(1);
    const groups = result.conflicts[0].groups.map((g) => [g.key, g.answers.map((a) => a.documentId).sort()]);
    expect(groups).toEqual([
      ['duration:P14D', ['kd_a', 'kd_b']],
      ['duration:P30D', ['kd_c']],
    ]);
  });

  it('answers NO_CONFLICT when the documents agree, and REFUSED when none answers', () => {
    expect(analyse('What is the price of the Ridge tent?', [passage('kd_a', 'The Ridge tent costs 279 EUR.'), passage('kd_b', 'Ridge tent | 279 EUR')]).outcome).toBe('NO_CONFLICT');
    const nearMiss = analyse('How many weeks of parental leave do parents get?', [
      passage('kd_a', 'Employees receive 25 days of annual leave.'),
      passage('kd_b', 'For parental leave, see the parental leave policy.'),
    ]);
    expect(nearMiss).toMatchObject({ outcome: 'REFUSED', conflicts: [] });
  });

  it('does not raise values for disjoint scopes, and does raise the general values that disagree', () => {
    const result = analyse('What is the maximum hotel cost per night?', [
      passage('kd_a', 'Hotel costs are reimbursed up to 120 EUR per night; Paris and London up to 180 EUR.'),
      passage('kd_b', 'The company reimburses hotel costs up to 150 EUR per night in every city.'),
    ]);
    expect(result.outcome).toBe('CONFLICTS');
    expect(result.conflicts.map((c) => [c.scope, c.groups.map((g) => g.key)])).toEqual([[[], ['amount:EUR:120/night', 'amount:EUR:150/night']]]);
    const scoped = analyse('What is the mileage allowance?', [
      passage('kd_a', 'In Germany the mileage allowance is 0.30 EUR per km.'),
      passage('kd_b', 'In Poland the mileage allowance is 0.25 EUR per km.'),
    ]);
    expect(scoped.outcome).toBe('NO_CONFLICT');
  });

  it("reads past the asker's own words: a word no document holds neither blocks an answer nor, as most of the subject, makes one up", () => {
    // "staff" is in no document: the documents' "employees" answer all the same.
    const reworded = analyse('How many days a week may staff work remotely?', [
      passage('kd_a', 'Employees may work remotely up to three days per week.'),
      passage('kd_b', 'Employees may work remotely up to two days per week once their probation is over.'),
    ]);
    expect(reworded.outcome).toBe('CONFLICTS');
    // Most of what is asked ("parental", "sabbatical") is in no document: nothing answers it.
    const elsewhere = analyse('How many weeks of sabbatical do parents get?', [passage('kd_a', 'Employees get 25 days of annual leave per year.'), passage('kd_b', 'Employees get 20 days of annual leave per year.')]);
    expect(elsewhere.outcome).toBe('REFUSED');
  });

  it('raises "one week" against "14 days", and groups "in 7 days" with "a week"', () => {
    const result = analyse('How long does the refund of an order take?', [
      passage('kd_a', 'The refund of an order is issued within one week.'),
      passage('kd_b', 'The refund of an order takes 14 days.'),
      passage('kd_c', 'The refund of an order arrives in 7 days.'),
    ]);
    expect(result.outcome).toBe('CONFLICTS');
    expect(Object.fromEntries(result.conflicts[0].groups.map((g) => [g.key, g.answers.map((a) => a.documentId).sort()]))).toEqual({
      'duration:P14D': ['kd_b'],
      'duration:P7D': ['kd_a', 'kd_c'],
    });
  });

  it('needs two documents: one document stating two values is not a conflict between documents', () => {
    const result = analyse('How long does the refund take?', [passage('kd_a', 'The refund takes 14 days.'), passage('kd_a', 'The refund takes 30 days.')]);
    expect(result.outcome).toBe('NO_CONFLICT');
  });

  it('reads a table row with its header and the document name ("Packed weight | 2.1 kg" answers the weight of the tent)', () => {
    const answers = extractAnswers('How much does the Trailhead tent weigh?', [
      passage('kd_a', 'Specification | Value\nPacked weight | 2.1 kg\nPrice | 349 EUR', { documentName: 'Trailhead tent: product sheet' }),
      passage('kd_b', '## Tent range\n\nModel | Weight\nTrailhead | 2.4 kg\nBasecamp | 7.8 kg'),
    ]);
    expect(answers.map((a) => [a.documentId, a.key])).toEqual([
      ['kd_a', 'quantity:kilogram:2.1'],
      ['kd_b', 'quantity:kilogram:2.4'],
    ]);
  });

  it('reads yes and no, and skips the FAQ question itself', () => {
    const result = analyse('Can gift cards be refunded?', [
      passage('kd_a', '## Gift cards\nAre gift cards refundable?\nNo, gift cards cannot be refunded.'),
      passage('kd_b', 'Gift cards are not refundable.'),
    ]);
    expect(result.outcome).toBe('NO_CONFLICT');
    expect(result.groups.map((g) => g.key)).toEqual(['yes-no:no']);
  });

  it('groups named answers that share their content words ("American trombonist" and "trombonist")', () => {
    const result = analyse('What is the profession of Greg Boyer?', [
      passage('kd_a', 'Greg Boyer is an American trombonist known for funk bands.'),
      passage('kd_b', 'Greg Boyer was a trombonist from Maryland.'),
      passage('kd_c', 'Greg Boyer is an American chef known for his cuisine.'),
    ]);
    expect(result.outcome).toBe('CONFLICTS');
    expect(result.conflicts[0].groups.map((g) => g.answers.map((a) => a.documentId).sort())).toEqual([['kd_a', 'kd_b'], ['kd_c']]);
  });

  it('gives the same fingerprint on a re-run, and another when a value changes', () => {
    const docs = [passage('kd_a', 'Passwords must be at least 14 characters long.'), passage('kd_b', 'Passwords must be at least 12 characters long.')];
    const first = analyse('What is the minimum password length?', docs);
    const again = analyse('What is the minimum password length?', docs);
    expect(first.conflicts[0].fingerprint).toBe(again.conflicts[0].fingerprint);
    const changed = analyse('What is the minimum password length?', [docs[0], passage('kd_b', 'Passwords must be at least 10 characters long.')]);
    expect(changed.conflicts[0].fingerprint).not.toBe(first.conflicts[0].fingerprint);
    expect(fingerprint('a')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tells which side is newer from the documents’ dates or names', () => {
    const docs = [passage('kd_old', 'Passwords must be at least 12 characters long.', { documentName: 'Password guidelines 2021' }), passage('kd_new', 'Passwords must be at least 14 characters long.', { documentName: 'Password policy 2025' })];
    expect(analyse('What is the minimum password length?', docs).conflicts[0].newestDocumentId).toBe('kd_new');
  });
});

describe('question analysis on documents it had never seen (causes found on tools/eval/third-corpus)', () => {
  it('asks for a year only when the question does ("in which year"), not for a date "from the previous year"', () => {
    expect(profileQuestion('In which year was the clinic opened?').expected).toMatchObject({ byYear: true });
    expect(profileQuestion('By what date must the days carried over from the previous year be used?').expected).toMatchObject({ byYear: false });
  });

  it('answers "how often" with the frequency, not with the duration beside it ("Every 12 months | 3 hours")', () => {
    const outcome = analyse('How often do clinical staff renew their Basic Life Support training?', [
      passage('kd_a', 'Course | Staff | Renewal | Format\n| --- | --- | --- | --- |\n| Basic Life Support training | Clinical staff | Every 12 months | Face-to-face, 3 hours |', { documentName: 'Training matrix' }),
      passage('kd_b', 'Clinical staff must renew their Basic Life Support training every year.', { documentName: 'Handbook' }),
    ]);
    expect(outcome.outcome).toBe('NO_CONFLICT');
    expect(outcome.groups.map((g) => g.key)).toEqual(['recurrence:P1Y']);
  });

  it('reads the rate a table row gives in its first cell ("Weekday on-call (per night) | EUR 85")', () => {
    const answers = extractAnswers('How much is a weekday on-call night paid?', [
      passage('kd_a', 'Allowance | Rate\n| --- | --- |\n| Weekday on-call paid (per night) | EUR 85 |', { documentName: 'Allowances' }),
      passage('kd_b', 'Weekday on-call is paid at a flat rate of 95 euros per night.', { documentName: 'Handbook' }),
    ]);
    expect(answers.map((a) => a.key).sort()).toEqual(['amount:EUR:85/night', 'amount:EUR:95/night']);
  });

  it.each([
    [
      'a kind of contract, wherever it is written ("Full-time employees are entitled to 25 days")',
      'How many days of annual leave does a part-time employee get?',
      ['Full-time employees are entitled to 25 days of paid annual leave.', 'Handbook'],
      ['Entitlement | Days\n| --- | --- |\n| Part-time employees, annual leave | 15 days |', 'Annual leave policy'],
    ],
    [
      'children: a child fare does not answer the adult fare',
      'What is the price of an adult single ticket?',
      ['An adult single ticket costs EUR 2.40.', 'Fares'],
      ['Children aged 6 to 15 pay EUR 1.20 for an adult single ticket route.', 'Concessions'],
    ],
  ])('keeps as the scope of a statement %s', (_case, question, [textA, nameA], [textB, nameB]) => {
    const outcome = analyse(question, [passage('kd_a', textA, { documentName: nameA }), passage('kd_b', textB, { documentName: nameB })]);
    expect(outcome.outcome).toBe('NO_CONFLICT');
  });

  it("credits a name of the question that the document writes in another passage (its scope: \"the Irish sites\")", () => {
    const answers = extractAnswers('By what date must Irish employees use the leave days they carried over?', [
      passage('kd_a', 'Scope\n\nThis policy applies to all employees of the Irish sites.', { documentName: 'Annual leave policy' }),
      passage('kd_a', 'Carry-over\n\nCarried-over days must be used by 31 March of the following year.', { documentName: 'Annual leave policy' }),
      passage('kd_b', 'Employees of the Belgian site take their leave as agreed with their manager.', { documentName: 'Belgian guide' }),
    ]);
    expect(answers.map((a) => a.key)).toEqual(['date-range:before:XXXX-03-31']);
  });

  it('groups values whatever the order the answers come in, a year-less day with the same day of a year, not two years', () => {
    const answer = (documentId: string, key: string, confidence: number) => ({ passageId: `kn_${++n}`, documentId, start: 0, end: 1, text: key, confidence, kind: 'date' as const, key, display: key, scope: [] });
    const keys = ['time-range:10:00-16:00+time:14:00', 'time-range:10:00-16:00', 'time:14:00'];
    for (const order of [[0, 1, 2], [1, 2, 0], [2, 1, 0]]) {
      expect(decideQuestion('mq_1', order.map((i) => answer(`kd_${i}`, keys[i], 0.9 - i * 0.01))).groups).toHaveLength(1);
    }
    expect(decideQuestion('mq_1', [answer('kd_a', 'date-range:before:XXXX-03-31', 0.9), answer('kd_b', 'date-range:before:2026-03-31', 0.9)]).outcome).toBe('NO_CONFLICT');
    expect(decideQuestion('mq_1', [answer('kd_a', 'date:2025-03-31', 0.9), answer('kd_b', 'date:2026-03-31', 0.9)]).outcome).toBe('CONFLICTS');
  });

  it('one scope for "a child" and "children"', () => {
    const outcome = analyse('What is the price of a single ticket for children?', [
      passage('kd_a', 'A child single ticket costs EUR 1.20.', { documentName: 'Fares' }),
      passage('kd_b', 'Children pay EUR 1.50 for a single ticket.', { documentName: 'Concessions' }),
    ]);
    expect(outcome.outcome).toBe('CONFLICTS');
  });

  it('asks a discount as a percentage or an amount', () => {
    expect(profileQuestion('What discount do passengers aged 65 or over get on their fares?').expected).toMatchObject({ form: 'value', kinds: expect.arrayContaining(['percentage', 'amount']) });
  });

  it('groups a sentence stating two values with one stating one of them: it says that too', () => {
    const outcome = analyse('What are the opening hours of the Lost Property Office?', [
      passage('kd_a', 'The Lost Property Office is open from 10:00 to 16:00.', { documentName: 'Lost property' }),
      passage('kd_b', 'The Lost Property Office opening hours are 10:00 to 16:00, with a break at 14:00.', { documentName: 'Charter' }),
    ]);
    expect(outcome.outcome).toBe('NO_CONFLICT');
    expect(outcome.groups).toHaveLength(1);
  });

  it("leaves out a document about a sibling of the asked name (the Cork clinic's guide for a Dublin question), not a brand's product sheet", () => {
    const hours = [
      passage('kd_a', 'Site | Saturday\n| --- | --- |\n| Dublin (Ranelagh) | 09:00-13:00 |\n| Cork (Douglas) | 10:00-14:00 |', { documentName: 'Clinic opening hours' }),
      passage('kd_b', 'Our Cork clinic is open to patients on Saturdays from 10:00 to 14:00.', { documentName: 'Cork clinic: site guide' }),
    ];
    const dublin = analyse('What are the Dublin clinic opening hours on Saturdays?', hours);
    expect([...new Set(dublin.groups.flatMap((g) => g.answers.map((a) => a.documentId)))]).toEqual(['kd_a']);
    const warranty = analyse('How long is the warranty on Northwind jackets?', [
      passage('kd_a', 'All Northwind products, including jackets and Summit tents, carry a two-year warranty.', { documentName: 'Warranty claims' }),
      passage('kd_b', 'Warranty: the Summit jacket carries a 3-year warranty on materials.', { documentName: 'Summit jacket: product sheet' }),
      // The brand is in most documents, as in a real repository.
      passage('kd_c', 'Northwind gift cards are valid for one year.', { documentName: 'Gift cards' }),
      passage('kd_d', 'Northwind stores open at 9:00.', { documentName: 'Stores' }),
    ]);
    expect(warranty.groups.flatMap((g) => g.answers.map((a) => a.documentId))).toContain('kd_b');
  });
});

describe('question analysis: who answers for something (seventh corpus, read for general causes)', () => {
  it('reads the role that approves or signs, capitalised or not, and raises two roles as a conflict', () => {
    const question = 'Who has to sign off a purchase from a supplier costing more than £25,000?';
    const approval = passage('procurement', 'Orders above £25,000 require the approval of the Finance Director before the purchase order is raised.');
    const signature = passage('receiving', 'Any single commitment to a supplier worth more than £25,000 must carry the signature of the Head of Procurement.');
    const manager = passage('faq', 'Purchases from a supplier above £25,000 are signed off by your line manager.');
    expect(extractAnswers(question, [approval, signature, manager]).map((a) => [a.documentId, a.display])).toEqual([
      ['procurement', 'Finance Director'],
      ['receiving', 'Head of Procurement'],
      ['faq', 'line manager'],
    ]);
    expect(analyse(question, [approval, signature, manager]).outcome).toBe('CONFLICTS');
  });
});

describe('question analysis: the asker\'s words (seventh corpus, read for general causes)', () => {
  it('words of the asker that name nothing ("something", "still") are not terms to find', () => {
    const terms = profileQuestion('How long after paying for something do I still have to put in my expense claim?').terms.map((t) => t.surface);
    expect(terms).not.toContain('something');
    expect(terms).not.toContain('still');
    expect(terms).toEqual(expect.arrayContaining(['expense', 'claim']));
  });

  it('"come into force", "take effect", "latest" frame the date or time asked for, like "date": documents word them otherwise', () => {
    const framing = (q: string) => profileQuestion(q).terms.filter((t) => t.framing).map((t) => t.surface);
    expect(framing('On what date do the new 2025 fares come into force?')).toEqual(expect.arrayContaining(['date', 'come', 'force']));
    expect(framing('When does the new leave policy take effect?')).toContain('effect');
    expect(framing('What is the latest time we can send an order?')).toEqual(expect.arrayContaining(['latest']));
    expect(framing('Quand la nouvelle grille entre-t-elle en vigueur ?')).toEqual(expect.arrayContaining(['vigueur']));
    // "Effect" elsewhere names a subject.
    expect(framing('What is the effect of a late payment?')).not.toContain('effect');
    const fares = [
      passage('kd_notice', 'From 1 March 2025, new fares will apply on all buses and trams.'),
      passage('kd_table', 'The new fares apply from 1 February 2025 and replace all earlier fare tables.', { documentName: 'Fare table 2025' }),
    ];
    const result = analyse('On what date do the new 2025 fares come into force?', fares);
    expect(result.outcome).toBe('CONFLICTS');
    expect(result.groups.map((g) => g.answers[0].display).sort()).toEqual(['1 February 2025', '1 March 2025']);
  });
});

describe('selectPassages', () => {
  it('keeps at most three passages a document, the answering one first even when retrieval ranked it lower', () => {
    const candidates = [
      passage('kd_a', 'Trailhead tent: product sheet. A light tent.', { rank: 0, documentName: 'Trailhead tent' }),
      passage('kd_a', 'Warranty: the Trailhead tent has a two-year warranty.', { rank: 1, documentName: 'Trailhead tent' }),
      passage('kd_a', 'Good to know: dry the tent before storing it.', { rank: 2, documentName: 'Trailhead tent' }),
      passage('kd_a', 'Packed weight | 2.1 kg', { rank: 3, documentName: 'Trailhead tent' }),
      passage('kd_b', 'Something else entirely.', { rank: 4 }),
    ];
    const kept = selectPassages('How much does the Trailhead tent weigh?', candidates);
    expect(kept.filter((p) => p.documentId === 'kd_a')).toHaveLength(3);
    expect(kept.map((p) => p.text)).toContain('Packed weight | 2.1 kg');
  });
});

describe('companionQuestions', () => {
  it('writes one narrower question per scope the answers name, and none without scopes', () => {
    const passages = [passage('kd_a', 'Hotel costs are reimbursed up to 120 EUR per night; Paris and London up to 180 EUR.'), passage('kd_b', 'Hotel costs are reimbursed up to 150 EUR per night.')];
    const question = 'What is the maximum hotel cost per night?';
    const answers = extractAnswers(question, passages);
    expect(companionQuestions(question, answers)).toEqual(['What is the maximum hotel cost per night (for Paris, London)?']);
    expect(companionQuestions(question, answers.filter((a) => a.scope.length === 0))).toEqual([]);
  });
});

describe('question analysis: other words for the asked ones (ninth corpus, read for general causes)', () => {
  it('reads "overdue" for "late", and raises the two rates as a conflict', () => {
    const result = analyse('How much interest is charged on late invoices?', [
      passage('kd_terms', 'Interest of 4% a year is charged on overdue invoices.'),
      passage('kd_faq', 'Late invoices are charged interest at 8% a year.'),
    ]);
    expect(result.outcome).toBe('CONFLICTS');
    expect(result.conflicts[0].groups.map((g) => g.key).sort()).toEqual(['percentage:4', 'percentage:8']);
  });

  it('does not count a word found only in another language as evidence ("lit", a bed in French)', () => {
    const question = 'What will I be billed if housekeeping finds out someone lit a cigarette in our room?';
    const english = passage('kd_faq', 'If a member of staff finds that someone has smoked in a bedroom, we apply a £150 deep-cleaning charge to the room bill.');
    const french = passage('kd_fr', 'Chaque chambre dispose d’un lit double ou de deux lits simples, et le linge de lit est changé tous les jours pour chaque client.');
    const other = passage('kd_hk', 'Housekeeping checks every room each morning and reports any damage; cigarettes and lighters left behind go to lost property.');
    const answers = extractAnswers(question, [english, other, french]);
    expect(answers.map((a) => a.key)).toEqual(['amount:GBP:150']);
  });
});

describe('question analysis: a question in the asker\'s words, documents in theirs (ninth corpus, read for general causes)', () => {
  it('"how quickly", "how far ahead", "how much notice" frame the length of time asked for: they are not the subject', () => {
    const framing = (q: string) => profileQuestion(q).terms.filter((t) => t.framing).map((t) => t.surface);
    expect(framing('A door lock is broken: how quickly should an engineer be there?')).toContain('quickly');
    expect(framing('How far ahead are the rotas published?')).toEqual(expect.arrayContaining(['far', 'ahead']));
    expect(framing('How much notice must I give before a day off?')).toContain('notice');
    expect(framing('Dans quel délai la réclamation est-elle traitée ?')).toContain('delai');
    // Elsewhere the words name a subject.
    expect(framing('Is the fast track lane open on Sundays?')).not.toContain('fast');
    const result = analyse('A door lock is broken: how quickly should an engineer be there?', [
      passage('kd_requests', 'For a broken door lock, an engineer must be on site within 15 minutes of the call.'),
      passage('kd_standards', 'An engineer will attend a broken door lock within 30 minutes.'),
    ]);
    expect(result.outcome).toBe('CONFLICTS');
    expect(result.conflicts[0].groups.map((g) => g.key).sort()).toEqual(['duration:PT1800S', 'duration:PT900S']);
  });
});

describe('question analysis: a word of the asker no retrieved passage writes, read through WordNet', () => {
  it('credits the repository\'s synonym of it: "bicycle" in a sentence answers "bike" as surely as the word itself would', () => {
    const question = 'How long may a bike stay in the shed?';
    const confidence = (second: string) =>
      extractAnswers(question, [passage('kd_rules', 'Bicycles may stay in the shed for up to 14 days.'), passage('kd_notice', second), passage('kd_other', 'The shed is locked at night.')]).find((a) => a.documentId === 'kd_notice')?.confidence ?? 0;
    const bicycle = confidence('A bicycle left in the shed for more than 30 days is removed.');
    expect(bicycle).toBeGreaterThan(confidence('A crate left in the shed for more than 30 days is removed.') + 0.1);
    expect(bicycle).toBeGreaterThan(0.6);
  });

  it('the borrowed word only adds: a sentence without it covers the question as much as before', () => {
    const question = 'How many days of paid leave does a full-time employee get, and what is the wage?';
    const without = passage('kd_leave', 'Full-time employees get 25 days of paid leave a year.');
    const withPay = [without, passage('kd_pay', 'Pay is reviewed every year in April.')];
    const confidence = (passages: Passage[]) => extractAnswers(question, passages).find((a) => a.documentId === 'kd_leave')?.confidence;
    expect(confidence(withPay)).toBeDefined();
    expect(confidence(withPay)).toBeCloseTo(confidence([without, passage('kd_pay', 'The canteen is open every day in April.')])!, 5);
  });
});
