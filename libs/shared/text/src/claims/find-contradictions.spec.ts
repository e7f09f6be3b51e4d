import { Claim, extractClaims } from './claims';
import { vectorSignature } from './node-signature';
import { blockKeys, claimPairFingerprint, claimStemFrequencies, describeContradiction, findContradictions, pairVerdict } from './find-contradictions';

/** Synthetic claims: `n` claims over `documents` documents, subjects drawn from a Zipf-like vocabulary, a few attributes and values. */
function synthetic(n: number, documents: number, seed = 1): Claim[] {
  let x = seed;
  const random = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const vocabulary = 20_000;
  const word = () => `w${Math.floor(vocabulary ** random())}`;
  const claims: Claim[] = [];
  for (let i = 0; i < n; i++) {
    const value = Math.floor(random() * 5);
    const subject = [...new Set(Array.from({ length: 8 }, word))];
    claims.push({
      passageId: `p${i >> 3}`,
      documentId: `d${Math.floor(random() * documents)}`,
      // The sentence writes its subject's words (the judge asks that shared words be written, not only in headings).
      text: `claim ${i}: ${subject.join(' ')}`,
      start: i,
      end: i + 1,
      subject,
      attribute: ['duration', 'amount:EUR', 'percentage', 'quantity:Kilogram'][i % 4],
      value: { key: `v:${value}`, text: `${value}` },
      scope: [],
    });
  }
  return claims;
}

describe('findContradictions at scale and incrementally', () => {
  // Speed at scale is the benchmark's (tools/bench full-audit: 102,697 claims judged in 17 s at 10,000 documents), not a timed test.
  it('judges only pairs touching given documents, with the findings of the full scan that touch them (20,000 synthetic claims)', () => {
    const claims = synthetic(20_000, 1_000);
    const all = findContradictions(claims);
    expect(all.length).toBeGreaterThan(0);
    // Incremental: the findings touching one document are exactly those of the full scan that touch it.
    const touching = new Set([all[0].claims[0].documentId]);
    const some = findContradictions(claims, { touching });
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((f) => f.claims.some((c) => touching.has(c.documentId)))).toBe(true);
    expect(some.map((f) => f.fingerprint).sort()).toEqual(all.filter((f) => f.claims.some((c) => touching.has(c.documentId))).map((f) => f.fingerprint).sort());
  }, 120_000);

  it('gives a finding the same fingerprint whatever other claims the repository holds', () => {
    const claim = (documentId: string, value: string, subject: string[]): Claim => ({ passageId: `${documentId}#0`, documentId, text: `${subject.join(' ')} take ${value}.`, start: 0, end: 10, subject, attribute: 'duration', value: { key: `duration:${value}`, text: value }, scope: [] });
    const pair = [claim('kd_a', 'P30D', ['refund', 'order', 'process', 'request']), claim('kd_b', 'P14D', ['refund', 'order', 'process', 'request', 'custom'])];
    const [alone] = findContradictions(pair);
    // Unrelated claims change document frequencies and which stems are informative, not the fingerprint.
    const noise = Array.from({ length: 40 }, (_, i) => claim(`kd_n${i}`, `P${i + 100}D`, ['refund', `other${i}`, `thing${i}`]));
    const crowded = findContradictions([...pair, ...noise]).find((f) => f.claims.every((c) => c.documentId === 'kd_a' || c.documentId === 'kd_b'));
    expect(alone).toBeDefined();
    expect(crowded?.fingerprint).toBe(alone.fingerprint);
    expect(alone.fingerprint).toBe(claimPairFingerprint(pair[1], pair[0]));
    // And plain JSON in, same finding out (claims are stored between jobs).
    expect(findContradictions(JSON.parse(JSON.stringify(pair)) as Claim[])[0].fingerprint).toBe(alone.fingerprint);
  });

  it('explains a finding in words people read: both documents, what each says, and why both cannot hold', () => {
    const claim = (documentId: string, value: string, text: string): Claim => ({ passageId: `${documentId}#0`, documentId, text, start: 0, end: text.length, subject: ['refund', 'order', 'request'], attribute: 'duration', value: { key: `duration:${value}`, text: value }, scope: [] });
    const [f] = findContradictions([claim('kd_a', '14 days', 'Refunds of an order are issued within 14 days of the request.'), claim('kd_b', '30 days', 'Refunds of an order are processed within 30 days of the request.')]);
    expect(f.subject).toBe('refunds order request');
    expect(f.explanation).toBe('"kd_a" says 14 days: "Refunds of an order are issued within 14 days of the request." "kd_b" says 30 days: "Refunds of an order are processed within 30 days of the request." Both give the length of time for refunds order request, and it cannot be both 14 days and 30 days.');
    const named = describeContradiction(f, new Map([['kd_a', 'Customer FAQ'], ['kd_b', 'Refund policy']]));
    expect(named.explanation).toMatch(/^"Customer FAQ" says 14 days: .*"Refund policy" says 30 days: /u);
    expect(named.companionQuestions[0]).toBe('What is the right value for refunds order request: 14 days or 30 days?');
    // Two documents of one name are told apart by their path or URL.
    const twins = describeContradiction(f, new Map([['kd_a', { name: 'Refund policy', url: 'https://intranet.example/eu/refunds' }], ['kd_b', { name: 'Refund policy', url: 'https://intranet.example/uk/refunds' }]]));
    expect(twins.explanation).toContain('"Refund policy" (https://intranet.example/eu/refunds) says 14 days');
    expect(twins.explanation).toContain('"Refund policy" (https://intranet.example/uk/refunds) says 30 days');
  });

  it('explains a modality finding as one rule that cannot be both, within the scope both name', () => {
    const rule = (documentId: string, modality: 'required' | 'optional', text: string): Claim => ({ passageId: `${documentId}#0`, documentId, text, start: 0, end: text.length, subject: ['multi', 'factor', 'authent', 'remot', 'access'], attribute: 'modality', value: { key: `modality:${modality}`, text: modality === 'required' ? 'is mandatory' : 'is optional' }, modality, scope: ['acme'] });
    const [f] = findContradictions([rule('kd_a', 'required', 'Multi-factor authentication is mandatory for remote access at Acme.'), rule('kd_b', 'optional', 'Multi-factor authentication is optional for remote access at Acme.')]);
    expect(f.explanation).toMatch(/says it is required \("is mandatory"\)/u);
    expect(f.explanation).toMatch(/for acme, and one rule cannot be both required and optional\.$/u);
  });
});

describe('findContradictions on part of the repository (incremental rescans)', () => {
  it('gives the findings of the whole repository touching the changed documents, from their blocks and the repository statistics alone', () => {
    const sentence = (doc: string, i: number, text: string) => extractClaims({ id: `${doc}#${i}`, documentId: doc, text, documentName: doc }, { language: 'en' });
    const all = [
      ...sentence('a', 0, 'Refunds of an order are processed within 30 days.'),
      ...sentence('b', 0, 'Refunds of an order are processed within 14 days.'),
      ...sentence('c', 0, 'Refunds of an order are processed within 21 days.'),
      ...sentence('d', 0, 'Standard delivery of parcels takes 3 working days.'),
      ...sentence('e', 0, 'Standard delivery of parcels takes 5 working days.'),
      ...Array.from({ length: 40 }, (_, i) => sentence(`x${i}`, 0, `The meeting room ${i} seats ${i + 4} people on floor ${i % 3}.`)).flat(),
    ];
    const touching = new Set(['b']);
    const whole = findContradictions(all, { touching });
    const keys = new Set(all.filter((c) => touching.has(c.documentId)).flatMap(blockKeys));
    const near = new Set(all.filter((c) => blockKeys(c).some((k) => keys.has(k))).map((c) => c.documentId));
    const part = all.filter((c) => near.has(c.documentId));
    expect(part.length).toBeLessThan(all.length / 4);
    const fromPart = findContradictions(part, { touching, statistics: { documentFrequency: claimStemFrequencies(all), claims: all.length } });
    expect(fromPart.map((f) => f.fingerprint).sort()).toEqual(whole.map((f) => f.fingerprint).sort());
    expect(whole.map((f) => f.claims.map((c) => c.documentId).sort().join('-')).sort()).toEqual(['a-b', 'b-c']);
  });
});

describe("findContradictions: the evidence that two statements are about one thing", () => {
  const names = new Set(['ravensmere']);
  const said = (doc: string, text: string) => extractClaims({ id: `${doc}#0`, documentId: doc, text, documentName: `${doc}.md` }, { language: 'en', names });
  const pair = [...said('kd_p', 'At Ravensmere, invoices of hotel guests are chased within 30 days.'), ...said('kd_q', 'At Ravensmere, complaints of hotel guests are answered within 5 days.')];

  it("a name on most of the repository's documents (the organisation's) is no scope and weighs no shared word", () => {
    const others = ['lockers', 'uniforms', 'parking', 'rotas', 'badges', 'keys', 'towels'].flatMap((w, i) => said(`kd_${i}`, `At Ravensmere, ${w} are renewed every ${i + 2} years.`));
    expect(pair[0].scope).toEqual(['ravensmere']);
    expect(findContradictions([...pair, ...others])).toEqual([]);
    expect(pairVerdict(pair[0], pair[1], [...pair, ...others])).toBe('few-shared-words');
    // In two documents alone, the same name is a scope both are limited to (a site, a product): it still weighs.
    expect(findContradictions(pair)).toHaveLength(1);
  });

  it('a compound modifier that ends in the other side\'s specifies it: a deep-cleaning charge and a cleaning charge for one thing contradict', () => {
    const a = said('kd_d', 'If someone has smoked in a bedroom, we apply a £150 deep-cleaning charge to the room bill.');
    const b = said('kd_e', '## Standard charges\n\n| Case | Charge |\n|---|---|\n| Smoking in a bedroom | GBP 250 cleaning charge |');
    expect(findContradictions([...a, ...b])).toHaveLength(1);
    // Two compounds of one tail still name two kinds.
    const c = said('kd_f', 'Part-time staff receive a meal allowance of £5 per shift.');
    const d = said('kd_g', 'Full-time staff receive a meal allowance of £8 per shift.');
    expect(findContradictions([...c, ...d])).toEqual([]);
  });

  it('the shared words must be written in each sentence, not only in the headings above it', () => {
    const headed = [...said('kd_h', '## Arrival, departure and room times\n\nCheck-out is by 11:00.'), ...said('kd_i', '## Arrival, departure and room times\n\nStaff lockers are opened at 09:00.')];
    expect(findContradictions(headed)).toEqual([]);
    expect(pairVerdict(headed[0], headed[1], headed)).toBe('few-shared-words');
    // A table row's words are its label, its column and its headings.
    const rows = [...said('kd_r', '## Check-out times\n\n| Day | Time |\n|---|---|\n| Sunday | 12:00 |'), ...said('kd_s', '## Check-out times\n\nOn Sunday, check-out is at 13:00.')];
    expect(findContradictions(rows)).toHaveLength(1);
  });
});

describe('findContradictions: what the headings above a statement scope', () => {
  const claimsOf = (doc: string, text: string) => extractClaims({ id: `${doc}#0`, documentId: doc, text, documentName: `${doc}.md` }, { language: 'en' });
  const customerService = claimsOf('charter', '# Customer service\n\nOpening hours\n\nOur customer service is open Monday to Saturday, 9:00 to 17:00, by phone and chat.');

  it('every heading of the path scopes the statement, also a capitalised acronym: the IT service desk is not customer service', () => {
    const itDesk = claimsOf('it-desk', '# IT service desk\n\nHow to reach us\n\nThe service desk is open Monday to Friday, 8:00 to 18:00, by phone and chat.');
    expect(itDesk[0].qualifiers).toEqual(expect.arrayContaining(['servic<it', 'desk<service']));
    expect(findContradictions([...itDesk, ...customerService])).toEqual([]);
  });

  it('a heading in capitals throughout is no acronym, and an adjective that can be a preposition ("pending") still qualifies', () => {
    const shouted = claimsOf('all', '# ALL STORES\n\nThe customer service phone line of the stores is open from 9:00 to 17:00.');
    const outlet = claimsOf('outlet', '# Outlet stores\n\nThe customer service phone line of the stores is open from 8:00 to 18:00.');
    expect(shouted[0].qualifiers ?? []).not.toContain('store<all');
    expect(findContradictions([...shouted, ...outlet]).length).toBeGreaterThan(0);
    const pending = claimsOf('pending', 'Pending orders are cancelled within 24 hours.');
    const shipped = claimsOf('shipped', 'Shipped orders are cancelled within 2 hours.');
    expect(pending[0].qualifiers).toContain('order<pending');
    expect(findContradictions([...pending, ...shipped])).toEqual([]);
  });

  it('the same service in two documents still contradicts, and a heading line replaced by the next one no longer scopes', () => {
    const faq = claimsOf('faq', '# Customer FAQ\n\nContact\n\nOur customer service is open Monday to Friday, 8:00 to 18:00, by phone and chat.');
    expect(findContradictions([...faq, ...customerService]).map((f) => f.attribute).sort()).toEqual(['time-range', 'weekdays']);
    const later = claimsOf('later', '# Customer service\n\nPremium desk\n\nSome text.\n\nOpening hours\n\nOur customer service is open Monday to Friday, 8:00 to 18:00, by phone and chat.');
    expect(later[0].qualifiers).not.toContain('desk<premium');
  });
});

describe('findContradictions: the same fact in other words (seventh corpus, read for general causes)', () => {
  const claimsOf = (doc: string, text: string) => extractClaims({ id: `${doc}#0`, documentId: doc, text, documentName: `${doc}.md` }, { language: 'en' });

  it('a verb before a noun is no qualifier ("carry interest", "add interest"): two rates of one interest contradict', () => {
    const terms = claimsOf('terms', 'Overdue sums carry interest at 4% per annum above the central bank base rate, accruing daily from the due date.');
    const faq = claimsOf('faq', 'We may put the account on stop until it is paid, and we add interest at 8% over the central bank base rate on overdue invoices.');
    expect(terms.flatMap((c) => c.qualifiers ?? [])).not.toContain('interest<carry');
    expect(faq.flatMap((c) => c.qualifiers ?? [])).not.toContain('interest<add');
    expect(findContradictions([...terms, ...faq]).map((f) => f.claims.map((c) => c.value.key).sort())).toEqual([['percentage:4', 'percentage:8']]);
  });

  it('a verb stays qualified by who does it: club members and employees receive two different discounts', () => {
    const members = claimsOf('catalogue', 'Members of the Northwind Club receive 10 percent off every full-price item, in stores and online.');
    const staff = claimsOf('manual', 'Employees receive 30 percent off full-price items for their own use, on presentation of their access badge.');
    expect(findContradictions([...members, ...staff])).toEqual([]);
  });

  it('a participle before a common noun still qualifies it: failed and successful attempts are two things', () => {
    const failed = claimsOf('a', 'Accounts are locked after five failed attempts to sign in to the portal.');
    expect(failed.flatMap((c) => c.qualifiers ?? [])).toContain('attempt<failed');
  });

  it('a table cell written as a sentence says what its value is about: a cut-off in a table row meets the same cut-off in prose', () => {
    const guide = claimsOf('guide', 'Orders received before 2 p.m. on a working day are dispatched from our hub the same day.');
    const manual = claimsOf('manual', '| Rule | Detail |\n|---|---|\n| Same-day dispatch | Customer orders received by 16:00 leave the hub the same day |');
    const found = findContradictions([...guide, ...manual]).filter((f) => f.attribute === 'time-range');
    expect(found.map((f) => f.claims.map((c) => c.value.key).sort())).toEqual([['time-range:T14:00', 'time-range:T16:00']]);
  });

  it('two long sentences sharing many words about one fact meet although each says more around it', () => {
    const standard = claimsOf('standard', 'Line managers and system owners review user access rights every quarter, using reports issued by the IT team for each application.');
    const policy = claimsOf('policy', 'User access rights to company systems are reviewed twice a year, in January and July, so that people keep only what their current role needs.');
    expect(findContradictions([...standard, ...policy]).map((f) => f.claims.map((c) => c.value.key).sort())).toEqual([['recurrence:P3M', 'recurrence:P6M']]);
  });

  it('compound modifiers of one family name two categories: full-time drivers and part-time staff, in the clause that states the value', () => {
    const allowances = claimsOf('allowances', 'Full-time drivers receive a uniform allowance of EUR 180 per year to cover cleaning and footwear.');
    const guide = claimsOf('guide', 'Part-time staff receive a uniform allowance of EUR 90 per year; allowances for full-time staff are paid with the January salary.');
    expect(findContradictions([...allowances, ...guide])).toEqual([]);
    const other = claimsOf('other', 'Full-time drivers receive a uniform allowance of EUR 150 per year to cover cleaning and footwear.');
    expect(findContradictions([...allowances, ...other]).length).toBe(1);
  });
});

describe('findContradictions does not depend on the order of the claims or on the document ids', () => {
  const claimsOf = (doc: string, name: string, text: string) => extractClaims({ id: `${doc}#0`, documentId: doc, text, documentName: name }, { language: 'en', entity: name.startsWith('Summit') ? ['summit'] : [] });
  const corpus = (ids: [string, string, string]) => [
    ...claimsOf(ids[0], 'Summit shell jacket: product sheet', '# Summit shell jacket: product sheet\n\nWarranty\n\nWarranty: 3 years on materials and workmanship, from the date of purchase.'),
    ...claimsOf(ids[1], 'Warranty claims', '# Warranty claims\n\nAll Northwind products, including jackets and tents, carry a two-year warranty from the date of purchase.'),
    ...claimsOf(ids[2], 'Customer FAQ', '# Customer FAQ\n\nOur customer service is open Monday to Friday, 8:00 to 18:00, and the warranty lasts two years from the date of purchase.'),
  ];
  const described = (claims: Claim[], names: Record<string, string>) =>
    findContradictions(claims)
      .map((f) => f.claims.map((c) => `${names[c.documentId]}: ${c.value.text}`).sort().join(' / '))
      .sort();

  it('a heading part after a colon and a participle ("including jackets") qualify nothing: the general rule meets the Summit jacket either way round', () => {
    const claims = corpus(['kd_a', 'kd_b', 'kd_c']);
    expect(claims.find((c) => c.documentId === 'kd_a')!.qualifiers).not.toContain('product<jacket');
    expect(claims.find((c) => c.documentId === 'kd_b')!.qualifiers).not.toContain('jacket<including');
    const names = { kd_a: 'summit', kd_b: 'claims', kd_c: 'faq' };
    const forward = described(claims, names);
    expect(forward).toContain('claims: two-year / summit: 3 years');
    expect(described([...claims].reverse(), names)).toEqual(forward);
    // Other ids, in the other order: the same findings.
    expect(described(corpus(['kd_z', 'kd_y', 'kd_x']), { kd_z: 'summit', kd_y: 'claims', kd_x: 'faq' })).toEqual(forward);
  });
});

describe('vector-neighbour blocking', () => {
  /** Unit vectors: `axis` alone, or mostly `axis` with a little of `other`. */
  const vector = (axis: number, other = -1, weight = 0) => Array.from({ length: 64 }, (_, i) => (i === axis ? 1 : i === other ? weight : 0));
  const claim = (documentId: string, subject: string[], value: number, v: number[]): Claim => ({
    passageId: `${documentId}#0`,
    documentId,
    text: `${subject.join(' ')} within ${value} days`,
    start: 0,
    end: 10,
    subject,
    attribute: 'duration',
    value: { key: `duration:P${value}D`, text: `${value} days` },
    scope: [],
    signature: vectorSignature(v)!,
  });
  /**
   * A large repository: 70 statements about refunds of other things (each in a passage of its own
   * direction) fill the blocks of "refund", "process" and "request" beyond what is compared pair by
   * pair, and two passages on the same refund rule give 14 and 30 days; 600 statements on other
   * subjects make the repository large enough for those words to stay informative (under 15% of the claims).
   */
  const repository = (pair: [number[], number[]]) => [
    ...Array.from({ length: 600 }, (_, i) => ({ ...claim(`kd_filler${i % 50}`, [`topic${i}`, `word${i}`], i % 7, vector(2 + (i % 60))), attribute: 'percentage' })),
    ...Array.from({ length: 70 }, (_, i) => claim(`kd_other${i}`, ['refund', 'process', 'request', `thing${i}`, `case${i}`], 5 + (i % 9), vector(2 + (i % 60)))),
    claim('kd_a', ['refund', 'process', 'request', 'order'], 14, pair[0]),
    claim('kd_b', ['refund', 'process', 'request', 'parcel'], 30, pair[1]),
  ];
  const between = (findings: ReturnType<typeof findContradictions>) => findings.filter((f) => f.claims.some((c) => c.documentId === 'kd_a') && f.claims.some((c) => c.documentId === 'kd_b'));

  it('compares two statements whose shared words are too common to compare them by, when their passages are neighbours', () => {
    const near: [number[], number[]] = [vector(0, 1, 0.3), vector(0, 1, 0.6)];
    const claims = repository(near);
    expect(between(findContradictions(claims))).toEqual([]);
    const found = between(findContradictions(claims, { vectorBand: { min: 0.5, max: 0.99 } }));
    expect(found).toHaveLength(1);
    expect(found[0].shared).toEqual(['process', 'refund', 'request']);
    expect(found[0].explanation).toMatch(/^"kd_a" says 14 days: .* "kd_b" says 30 days: /u);
    // The same findings incrementally, from either side.
    expect(between(findContradictions(claims, { vectorBand: { min: 0.5, max: 0.99 }, touching: new Set(['kd_b']) })).map((f) => f.fingerprint)).toEqual([found[0].fingerprint]);
  });

  it('judges vector neighbours like any pair, and leaves near-identical passages and passages apart to the words', () => {
    const band = { min: 0.5, max: 0.99 };
    // Passages far apart (orthogonal): not neighbours.
    expect(between(findContradictions(repository([vector(0), vector(1)]), { vectorBand: band }))).toEqual([]);
    // Near-identical passages (cosine above max): duplicates' business, not joined by their vectors.
    expect(between(findContradictions(repository([vector(0), vector(0)]), { vectorBand: band }))).toEqual([]);
    // Neighbours that share too few words are still not the same subject.
    const few = repository([vector(0, 1, 0.3), vector(0, 1, 0.6)]).map((c) => (c.documentId === 'kd_b' ? { ...c, subject: ['refund', 'parcel', 'label'] } : c));
    expect(between(findContradictions(few, { vectorBand: band }))).toEqual([]);
    // Claims without signatures (blocking was off when they were read) are compared by their words only.
    const unsigned = repository([vector(0, 1, 0.3), vector(0, 1, 0.6)]).map(({ signature: _, ...c }) => c);
    expect(between(findContradictions(unsigned, { vectorBand: band }))).toEqual([]);
  });

  it('incrementally, skips a block too large over the whole repository although few of its claims are loaded', () => {
    const pair = repository([vector(0, 1, 0.3), vector(0, 1, 0.6)]).filter((c) => c.documentId === 'kd_a' || c.documentId === 'kd_b');
    // The repository's statistics: the words are informative (100 of 1,000 claims), but each block holds 100 claims.
    const statistics = { documentFrequency: new Map(['refund', 'process', 'request', 'order', 'parcel'].map((w) => [w, 100])), claims: 1000 };
    const options = { touching: new Set(['kd_b']), statistics };
    expect(between(findContradictions(pair, options))).toHaveLength(1);
    const blockSizes = new Map(['refund', 'process', 'request', 'order', 'parcel'].map((w) => [`duration|${w}`, 100]));
    expect(between(findContradictions(pair, { ...options, blockSizes }))).toEqual([]);
  });

  it("adds the signature's bands to the claim's blocks", () => {
    const c = claim('kd_a', ['refund', 'order'], 14, vector(0));
    const keys = blockKeys(c);
    expect(keys.slice(0, 2)).toEqual(['duration|refund', 'duration|order']);
    expect(keys.slice(2).every((k) => /^duration\|≈\d+:[0-9a-f]+$/u.test(k))).toBe(true);
    expect(keys).toHaveLength(2 + 16);
  });
});

describe('pairVerdict: why two claims are not paired', () => {
  const claimsOf = (documentId: string, text: string) => extractClaims({ id: `${documentId}#0`, documentId, text, documentName: `${documentId}.md` }, { language: 'en' });

  it('names the first test a pair fails, and agrees with findContradictions when it pairs', () => {
    const refunds = claimsOf('kd_a', 'Refunds of an online order are processed within 30 days of the request.');
    const refundsOther = claimsOf('kd_b', 'Refunds of an online order are processed within 14 days of the request.');
    const refundsSame = claimsOf('kd_c', 'Refunds of an online order are processed within 30 days of the request.');
    const delivery = claimsOf('kd_d', 'Standard delivery of parcels takes 5 working days.');
    const reworded = claimsOf('kd_e', 'We pay you back within 14 days.');
    const all = [...refunds, ...refundsOther, ...refundsSame, ...delivery, ...reworded];
    expect(findContradictions(all).map((p) => p.claims.map((c) => c.documentId).sort().join('+')).sort()).toEqual(['kd_a+kd_b', 'kd_b+kd_c']);
    expect(pairVerdict(refunds[0], refundsOther[0], all)).toBe('pairs');
    expect(pairVerdict(refunds[0], refundsSame[0], all)).toBe('pairs');
    expect(pairVerdict(refunds[0], delivery[0], all)).toBe('few-shared-words');
    // The same fact in other words: the rule-based judge's blind spot, named as such.
    expect(pairVerdict(refundsOther[0], reworded[0], all)).toBe('few-shared-words');
  });
});
