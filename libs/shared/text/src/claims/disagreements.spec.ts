import type { Claim } from './claims';
import { groupContradictions, supersededAttribute, supersededOf } from './disagreements';
import { describeStatements, findContradictions } from './find-contradictions';

const claim = (documentId: string, value: string, text = `Refunds of an order are issued within ${value} of the request.`): Claim => ({
  passageId: `${documentId}#0`,
  documentId,
  text,
  start: 0,
  end: text.length,
  subject: ['refund', 'order', 'request', 'issu'],
  attribute: 'duration',
  value: { key: `duration:${value}`, text: value },
  scope: [],
});

describe('groupContradictions: one finding per disagreement', () => {
  it('joins the pairs of one subject across documents, grouped by value, the most stated first; other subjects stay apart', () => {
    const passwords = (documentId: string, n: string): Claim => ({ ...claim(documentId, n, `Passwords must be at least ${n} characters long.`), subject: ['password', 'charact', 'long'], attribute: 'count:charact', value: { key: `number:${n}`, text: n } });
    const pairs = findContradictions([claim('kd_a', '14 days'), claim('kd_b', '30 days'), claim('kd_c', '30 days'), claim('kd_d', '45 days'), passwords('kd_e', '12'), passwords('kd_f', '14')]);
    // Four documents on refunds give pairs between every two values; one disagreement holds them all.
    expect(pairs.length).toBeGreaterThan(3);
    const found = groupContradictions(pairs);
    expect(found).toHaveLength(2);
    const refunds = found.find((d) => d.attribute === 'duration')!;
    expect(refunds.groups.map((g) => [g.key, g.claims.map((c) => c.documentId)])).toEqual([
      ['duration:30 days', ['kd_b', 'kd_c']],
      ['duration:14 days', ['kd_a']],
      ['duration:45 days', ['kd_d']],
    ]);
    expect(refunds.claims.map((c) => c.documentId)).toEqual(['kd_b', 'kd_c', 'kd_a', 'kd_d']);
    expect(refunds.fingerprint).toBe(refunds.pairs.map((p) => p.fingerprint).sort()[0]);
    // The same pairs in another order: the same disagreements.
    expect(groupContradictions([...pairs].reverse()).map((d) => d.fingerprint).sort()).toEqual(found.map((d) => d.fingerprint).sort());
  });

  it('explains a disagreement of several documents by value, naming a copy with the document it repeats', () => {
    const statements = [claim('kd_b', '30 days'), claim('kd_c', '30 days'), claim('kd_a', '14 days'), claim('kd_d', '45 days', 'Refunds take 45 days.')];
    const names = new Map([['kd_a', 'Customer FAQ'], ['kd_b', 'Refund policy'], ['kd_c', 'Refund policy (old intranet)'], ['kd_d', 'Store manual']]);
    const { explanation, companionQuestions } = describeStatements({ attribute: 'duration', subject: 'refunds order request', statements }, names);
    expect(explanation).toBe(
      '"Refund policy" (and its copy "Refund policy (old intranet)") says 30 days: "Refunds of an order are issued within 30 days of the request." ' +
        '"Customer FAQ" says 14 days: "Refunds of an order are issued within 14 days of the request." "Store manual" says 45 days: "Refunds take 45 days." ' +
        'These 4 documents give the length of time for refunds order request, and it cannot be both 30 days, 14 days and 45 days.',
    );
    expect(companionQuestions[0]).toBe('What is the right value for refunds order request: 30 days, 14 days or 45 days?');
    expect(companionQuestions[1]).toMatch(/^Are some of these documents \("Refund policy", "Refund policy \(old intranet\)", "Customer FAQ", "Store manual"\)/u);
  });
});

describe('groupContradictions: a superseded version is one finding', () => {
  const hotel = (documentId: string, amount: string): Claim => ({
    ...claim(documentId, amount, `Hotel elsewhere in the UK | ${amount} per night, including breakfast`),
    subject: ['hotel', 'elsewher', 'uk', 'night'],
    attribute: 'amount:GBP',
    value: { key: `amount:GBP:${amount.slice(1)}`, text: amount },
  });

  it('gathers every pair with the superseded version into one finding naming it and its replacement; the others stay as they were', () => {
    const pairs = findContradictions([claim('kd_old', '14 days'), claim('kd_new', '30 days'), hotel('kd_old', '£110'), hotel('kd_new', '£140'), claim('kd_faq', '45 days')]);
    const found = groupContradictions(pairs, new Map([['kd_old', 'kd_new']]));
    const outdated = found.filter((d) => supersededOf(d.attribute));
    expect(outdated).toHaveLength(1);
    expect(supersededOf(outdated[0].attribute)).toEqual({ older: 'kd_old', replacement: 'kd_new' });
    // Both subjects of the old version: its refund period and its hotel cap, against the current version and the FAQ.
    expect(new Set(outdated[0].claims.map((c) => c.value.text))).toEqual(new Set(['14 days', '30 days', '45 days', '£110', '£140']));
    // The current version against the FAQ is a contradiction of its own.
    const current = found.filter((d) => !supersededOf(d.attribute));
    expect(current.map((d) => d.claims.map((c) => c.documentId).sort())).toEqual([['kd_faq', 'kd_new']]);
    // Without the superseded versions, as before: three documents on refunds, two on hotels.
    expect(groupContradictions(pairs).map((d) => d.attribute).sort()).toEqual(['amount:GBP', 'duration']);
  });

  it('explains it point by point, old value beside the current one, and asks whether to take the old version out', () => {
    const statements = [claim('kd_old', '14 days'), hotel('kd_old', '£110'), claim('kd_new', '30 days'), hotel('kd_new', '£140')];
    const names = new Map([['kd_old', 'Expense Policy'], ['kd_new', 'Expense Policy']]);
    const { explanation, companionQuestions } = describeStatements({ attribute: supersededAttribute('kd_old', 'kd_new'), subject: 'older version', statements }, names);
    expect(explanation).toBe(
      '"Expense Policy" (the older version) is superseded: "Expense Policy" (the current version) replaces it, but it is still in the repository, and it says 2 things differently: ' +
        '"Refunds of an order are issued within 14 days of the request." (14 days; "Expense Policy" (the current version) says 30 days); ' +
        '"Hotel elsewhere in the UK | £110 per night, including breakfast" (£110; "Expense Policy" (the current version) says £140). ' +
        'Whoever reads it, or an assistant answering from it, gets the old rules.',
    );
    expect(companionQuestions[0]).toBe('Should "Expense Policy" (the older version) be taken out of the repository (or marked as superseded) now that "Expense Policy" (the current version) replaces it?');
  });
});
