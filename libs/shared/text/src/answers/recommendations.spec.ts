import { checkRewrite } from './answering-span';
import { extractAnswers } from './extract-answers';
import type { ExtractedAnswer, Passage } from './question-analysis.types';
import { draftRecommendations, estimateEditSeconds } from './recommendations';

let n = 0;
const passage = (documentId: string, text: string, extra: Partial<Passage> = {}): Passage => ({ id: `kn_${++n}`, documentId, text, ...extra });
/** An answer as a stored conflict hands it back: the answer span, without the value offsets the analysis found. */
const stored = ({ valueStart: _s, valueEnd: _e, ...a }: ExtractedAnswer): ExtractedAnswer => a;
const answer = (p: Passage, fields: Pick<ExtractedAnswer, 'kind' | 'key' | 'display'> & Partial<ExtractedAnswer>): ExtractedAnswer => ({
  passageId: p.id,
  documentId: p.documentId,
  start: 0,
  end: p.text.length,
  text: p.text,
  scope: [],
  confidence: 0.9,
  ...fields,
});

describe('draftRecommendations', () => {
  const current = passage('kd_new', 'Refunds are processed within 30 days of the request.', { documentName: 'Refund policy', documentUrl: 'https://intranet/refund-policy' });
  const oldCopy = passage('kd_old', 'Refunds are processed within 14 days of the request.', { documentName: 'Refund policy', documentUrl: 'https://intranet/refund-policy-v1' });
  const faq = passage('kd_faq', 'We refund your order within 14 days after we receive the request.', { documentName: 'Customer FAQ' });
  const passages = [current, oldCopy, faq];
  const answers = extractAnswers('How long does a refund take?', passages);

  it('keeps what already says the expert answer, rewrites the value elsewhere, and retires an old copy', () => {
    const drafts = draftRecommendations('30 days', answers, passages);
    expect(drafts.map((d) => [d.documentId, d.action, d.proposedText])).toEqual([
      ['kd_faq', 'UPDATE', 'We refund your order within 30 days after we receive the request.'],
      ['kd_old', 'DELETE', null],
      ['kd_new', 'KEEP', null],
    ]);
    for (const d of drafts) expect(d.estimatedSeconds).toBeGreaterThan(0);
  });

  it('rewrites the value of an answer as a stored conflict keeps it (no value offsets): only the value, never the bare answer', () => {
    const drafts = draftRecommendations('The refund of an order takes 30 days.', answers.map(stored), passages);
    expect(drafts.find((d) => d.documentId === 'kd_faq')).toMatchObject({ action: 'UPDATE', proposedText: 'We refund your order within 30 days after we receive the request.' });
  });

  it("writes the expert's value in the sentence's unit when it converts exactly ('four weeks' in a sentence of days is 28 days)", () => {
    const drafts = draftRecommendations('four weeks', answers, passages);
    expect(drafts.every((d) => d.action === 'UPDATE')).toBe(true);
    expect(drafts.find((d) => d.documentId === 'kd_new')?.proposedText).toBe('Refunds are processed within 28 days of the request.');
  });

  it('keeps an excerpt that states the answer in other words ("two weeks" is 14 days)', () => {
    const other = passage('kd_two', 'Refunds are processed within two weeks of the request.');
    const drafts = draftRecommendations('14 days', extractAnswers('How long does a refund take?', [other, current]).map(stored), [other, current]);
    expect(drafts.map((d) => [d.documentId, d.action, d.proposedText])).toEqual([
      ['kd_new', 'UPDATE', 'Refunds are processed within 14 days of the request.'],
      ['kd_two', 'KEEP', null],
    ]);
  });

  it("writes the value in the document's language and the sentence's form", () => {
    const french = passage('kd_fr', 'Les remboursements sont effectués sous deux semaines après la demande.');
    const priced = passage('kd_eur', 'The meal allowance is EUR 0.50 per day.');
    const fr = answer(french, { kind: 'duration', key: 'duration:P14D', display: 'deux semaines' });
    const eur = answer(priced, { kind: 'amount', key: 'amount:EUR:0.5/day', display: 'EUR 0.50' });
    expect(draftRecommendations('21 days', [fr], [french])[0].proposedText).toBe('Les remboursements sont effectués sous trois semaines après la demande.');
    expect(draftRecommendations('1 euro', [eur], [priced])[0].proposedText).toBe('The meal allowance is EUR 1.00 per day.');
  });

  it("does not paste the expert's answer when no value of it fits the span: an UPDATE without proposed text, saying why", () => {
    const rule = passage('kd_pw', 'Passwords must be at least 12 characters long.');
    const drafts = draftRecommendations('5 working days', [answer(rule, { kind: 'number', key: 'number:12', display: '12' })], [rule]);
    expect(drafts).toEqual([expect.objectContaining({ action: 'UPDATE', proposedText: null, reason: expect.stringContaining('gives no value of the kind') })]);
  });

  it('gives no draft for an excerpt that does not state the answer it is filed under', () => {
    const unrelated = passage('kd_x', 'Our offices are closed on public holidays.');
    expect(draftRecommendations('30 days', [answer(unrelated, { kind: 'duration', key: 'duration:P14D', display: '14 days' })], [unrelated])).toEqual([]);
  });

  it('rewrites a named answer by putting the expert words in place of the name; a yes/no statement is left to the expert', () => {
    const approval = passage('kd_buy', 'Purchases above 5,000 EUR require the approval of the Head of Finance.');
    const vaccine = passage('kd_flu', 'Seasonal flu vaccination is voluntary for all staff.');
    const named = answer(approval, { kind: 'named', key: 'named:financ head', display: 'Head of Finance' });
    expect(draftRecommendations('The CFO', [named], [approval])[0]).toMatchObject({ action: 'UPDATE', proposedText: 'Purchases above 5,000 EUR require the approval of the CFO.' });
    // A name given in other words than the sentence's (a model's reading) is left to the expert.
    const paraphrased = answer(approval, { kind: 'named', key: 'named:financ head', display: 'the finance head' });
    expect(draftRecommendations('The CFO', [paraphrased], [approval])[0]).toMatchObject({ action: 'UPDATE', proposedText: null });
    const yes = answer(vaccine, { kind: 'yes-no', key: 'yes-no:yes', display: 'yes' });
    expect(draftRecommendations('No, it is not compulsory.', [yes], [vaccine])[0]).toMatchObject({ action: 'UPDATE', proposedText: null, reason: expect.stringContaining('yes/no') });
  });

  it('estimates the time by the stated model: reading plus editing, more for an update than a keep', () => {
    expect(estimateEditSeconds('UPDATE', 'word '.repeat(100), 'other '.repeat(100))).toBeGreaterThan(estimateEditSeconds('KEEP', 'word '.repeat(100), null));
    expect(estimateEditSeconds('KEEP', 'short', null) % 5).toBe(0);
  });
});

describe('checkRewrite', () => {
  const policy = passage('kd_p', 'Refunds are processed within 30 days of the request.');
  const [refund] = extractAnswers('How long does a refund take?', [policy]).map(stored);

  it.each([
    ['Refunds are processed within 14 days of the request.', true],
    ['Refunds are processed within two weeks of the request.', true],
    // Outside the answering span, the same meaning, another value than the expert's.
    ['Refunds are always processed within 14 days of the request.', false],
    ['Refunds are processed within 14 days.', false],
    ['Refunds are processed within thirty days of the request.', false],
    ['Refunds are processed within 21 days of the request.', false],
  ] as const)('"%s" for the expert answer "14 days": %s', (proposed, ok) => {
    expect(checkRewrite(refund, proposed, '14 days', policy).ok).toBe(ok);
  });

  it('refuses any rewrite of an excerpt that does not state the answer it is filed under', () => {
    const unrelated = passage('kd_x', 'Our offices are closed on public holidays.');
    expect(checkRewrite(answer(unrelated, { kind: 'duration', key: 'duration:P14D', display: '14 days' }), 'Our offices are closed on 14 days.', '14 days', unrelated)).toMatchObject({ ok: false });
  });
});
