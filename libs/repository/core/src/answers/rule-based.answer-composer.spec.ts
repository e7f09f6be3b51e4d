import { isDomainError } from '@svc/kernel';
import { AnswerExcerpt, AnswerRequest } from './answer-composer';
import { answerExtractively, RuleBasedAnswerComposer } from './rule-based.answer-composer';
import { answerComposerContract, expectWellFormed } from './testing/answer-composer.contract';

answerComposerContract('RuleBasedAnswerComposer', () => new RuleBasedAnswerComposer());

const excerpt = (id: string, documentName: string, text: string, score = 0.03): AnswerExcerpt => ({ id, documentId: `doc_${id}`, documentName, text, score });

const REFUND = excerpt(
  'kn_refund',
  'Refund policy',
  "Deadlines\n\nRefunds are processed within 30 days of the customer's request.\nCard payments are refunded to the card used for the order; bank transfers are refunded by transfer.",
  0.0328,
);
const FAQ = excerpt(
  'kn_faq',
  'Customer FAQ',
  'How long does a refund take?\n\nRefunds are issued within 14 days after we receive the request.\n\nCan I change my delivery address?\n\nYes, until the parcel leaves the warehouse. Contact support with your order number.',
  0.0301,
);
const HOTEL = excerpt('kn_hotel', 'Travel expenses', 'Hotels\n\nThe company reimburses hotel nights up to 150 EUR per night in every city.\n\nMeals\n\nMeals are reimbursed up to 35 EUR per day on presentation of receipts.', 0.016);
const HOTEL_2023 = excerpt('kn_hotel23', 'Travel policy 2023', 'Accommodation\n\nHotel costs are reimbursed up to 120 EUR per night; Paris and London up to 180 EUR.\n\nBooking\n\nAll trips are booked through the travel desk at least one week in advance.', 0.015);
const REMOTE = excerpt('kn_remote', 'Remote work', 'Remote work\n\nEmployees may work remotely up to three days per week, in agreement with their manager.\nEquipment for the home office is provided by the IT desk.', 0.0155);
const REMOTE_COPY = { ...REMOTE, id: 'kn_remote_copy', documentId: 'doc_remote_copy', documentName: 'Remote work (copy)', score: 0.0154 };
const PASSWORDS = excerpt('kn_pwd', 'Security rules', 'Passwords\n\nPasswords must contain at least 12 characters and are renewed every 90 days.', 0.02);
const REMBOURSEMENT = excerpt(
  'kn_fr',
  'Politique de remboursement',
  'Délais\n\nLes remboursements sont effectués sous 30 jours ouvrés après la demande du client.\nLes cartes cadeaux ne sont pas remboursables.',
  0.02,
);

const ask = (question: string, excerpts: AnswerExcerpt[], language?: string) => answerExtractively({ question, excerpts, language });

describe('RuleBasedAnswerComposer', () => {
  it('is named for its algorithm version', () => {
    expect(new RuleBasedAnswerComposer().name).toBe('local-extractive-v1');
  });

  it('quotes the sentence that answers, verbatim, cites its excerpt and explains where it comes from', () => {
    const answer = ask('How long does a refund take?', [REFUND, HOTEL, REMOTE]);
    expect(answer).toEqual({
      answer: "Refunds are processed within 30 days of the customer's request.",
      reason: 'Quoted from "Refund policy", which mentions refund and gives a duration (30 days).',
      confidence: expect.any(Number),
      citedExcerptIds: ['kn_refund'],
    });
    expect(answer.confidence).toBeGreaterThan(0.8);
    expect(answer.usage).toBeUndefined();
  });

  it('answers after a FAQ question without quoting the question', () => {
    const answer = ask('Can I change my delivery address?', [FAQ, HOTEL]);
    expect(answer.answer).toBe('Yes, until the parcel leaves the warehouse.');
    expect(answer.citedExcerptIds).toEqual(['kn_faq']);
    expect(answer.confidence).toBeGreaterThan(0.5);
    expect(answer.reason).toBe('Quoted from "Customer FAQ", which mentions change, delivery and address and states the rule asked about.');
  });

  it('answers number questions with the sentence holding the number asked for', () => {
    const characters = ask('How many characters must a password contain?', [HOTEL, PASSWORDS, REMOTE]);
    expect(characters.answer).toBe('Passwords must contain at least 12 characters and are renewed every 90 days.');
    expect(characters.reason).toContain('gives a number (12)');
    const hotel = ask('How much does the company reimburse for a hotel night?', [HOTEL, REMOTE]);
    expect(hotel.answer).toBe('The company reimburses hotel nights up to 150 EUR per night in every city.');
    expect(hotel.reason).toContain('gives an amount (150 EUR)');
    const days = ask('How many days per week can employees work remotely?', [REMOTE, HOTEL]);
    expect(days.answer).toBe('Employees may work remotely up to three days per week, in agreement with their manager.');
    expect(days.reason).toContain('gives a duration (three days)');
    expect(days.confidence).toBeGreaterThan(0.8);
  });

  it('does not answer a number question from a sentence without a number', () => {
    const answer = ask('How long does a refund take?', [excerpt('kn_x', 'Finance', 'Refunds are handled by the finance team.'), HOTEL]);
    expect(answer).toEqual({
      answer: '',
      reason: 'No excerpt answers the question: the closest passage, in "Finance", mentions 1 of its 1 key terms (refund) but gives no duration.',
      confidence: 0,
      citedExcerptIds: [],
    });
  });

  it('gives no answer, and says what is missing, when the excerpts are about something else', () => {
    const paternity = ask('How many days of paternity leave do employees get?', [REMOTE, HOTEL, REFUND]);
    expect(paternity).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    expect(paternity.reason).toBe(
      'No excerpt answers the question: the closest passage, in "Remote work", mentions 1 of its 3 key terms (employees). None of the excerpts mentions "paternity" and "leave".',
    );
    const capital = ask('What is the capital of France?', [REMOTE, HOTEL, REFUND]);
    expect(capital).toEqual({ answer: '', reason: 'None of the excerpts mentions "capital" and "france".', confidence: 0, citedExcerptIds: [] });
  });

  it('quotes both sides when excerpts contradict each other, with a lower confidence', () => {
    const alone = ask('How long does a refund take?', [REFUND]);
    const disputed = ask('How long does a refund take?', [REFUND, FAQ]);
    expect(disputed.answer).toBe("Refunds are issued within 14 days after we receive the request. Refunds are processed within 30 days of the customer's request.");
    expect(disputed.citedExcerptIds).toEqual(['kn_faq', 'kn_refund']);
    expect(disputed.reason).toBe('The excerpts disagree: "Customer FAQ" gives 14 days and "Refund policy" gives 30 days; both are quoted.');
    expect(disputed.confidence).toBeLessThan(alone.confidence - 0.25);
    expect(disputed.confidence).toBeGreaterThan(0.2);

    const hotel = ask('How much does the company reimburse for a hotel night?', [HOTEL, HOTEL_2023]);
    expect(hotel.citedExcerptIds).toEqual(['kn_hotel', 'kn_hotel23']);
    expect(hotel.reason).toBe('The excerpts disagree: "Travel expenses" gives 150 EUR and "Travel policy 2023" gives 120 EUR; both are quoted.');

    const gift = ask('Are gift cards refundable?', [
      excerpt('a', 'Refund policy', 'Gift cards are not refundable.', 0.03),
      excerpt('b', 'Promotions', 'Gift cards are refundable within 14 days.', 0.03),
    ]);
    expect(gift.reason).toBe('The excerpts disagree: "Refund policy" and "Promotions" answer differently; both are quoted.');
    expect(gift.citedExcerptIds).toEqual(['a', 'b']);

    // A recurrence answers a duration question too ("every 90 days"), and two of them disagree like two durations.
    const renewal = ask('How often are passwords renewed?', [PASSWORDS, excerpt('kn_pwd2', 'Password guidelines', 'Passwords\n\nPasswords are renewed every 60 days.', 0.02)]);
    expect(renewal.citedExcerptIds).toEqual(['kn_pwd', 'kn_pwd2']);
    expect(renewal.reason).toMatch(/^The excerpts disagree: .*90 days.*60 days|^The excerpts disagree: .*60 days.*90 days/u);
  });

  it('is more confident when another document says the same, and cites it', () => {
    const alone = ask('How many days per week can employees work remotely?', [REMOTE]);
    const twice = ask('How many days per week can employees work remotely?', [REMOTE, REMOTE_COPY]);
    expect(twice.answer).toBe(alone.answer);
    expect(twice.citedExcerptIds).toEqual(['kn_remote', 'kn_remote_copy']);
    expect(twice.reason).toContain('"Remote work (copy)" says the same.');
    expect(twice.confidence).toBeGreaterThan(alone.confidence);
  });

  it('weighs the excerpt by its retrieval score, relative to the best excerpt of the request', () => {
    const top = ask('How long does a refund take?', [{ ...REFUND, score: 0.03 }, { ...HOTEL, score: 0.01 }]);
    const low = ask('How long does a refund take?', [{ ...REFUND, score: 0.003 }, { ...HOTEL, score: 0.03 }]);
    expect(low.answer).toBe(top.answer);
    expect(low.confidence).toBeLessThan(top.confidence);
    // Scales differ between retrievers: the same ranking gives the same answer whatever the scale.
    const cosine = ask('How long does a refund take?', [{ ...REFUND, score: 0.9 }, { ...HOTEL, score: 0.3 }]);
    expect(cosine).toEqual(top);
  });

  it('is more confident when the sentence holds more of the question', () => {
    const full = ask('How long are refunds processed?', [REFUND]);
    const partial = ask('How long are express refunds processed for partners?', [REFUND]);
    expect(full.answer).toBe(partial.answer);
    expect(partial.confidence).toBeLessThan(full.confidence);
  });

  it('adds the next sentence when it continues the answer, and the previous one when the answer leans on it', () => {
    const gift = ask('Are gift cards refundable?', [excerpt('g', 'Gift cards', 'Gift cards are not refundable. However, they can be exchanged within 30 days.\n\nStores open at 9.')]);
    expect(gift.answer).toBe('Gift cards are not refundable. However, they can be exchanged within 30 days.');
    const leaning = ask('How long does a refund take?', [excerpt('r', 'Refunds', 'Customers can ask for a refund of any order. It is processed within 30 days.')]);
    expect(leaning.answer).toBe('Customers can ask for a refund of any order. It is processed within 30 days.');
  });

  it('answers French questions from French excerpts, with a French reason', () => {
    const delay = ask('Combien de temps faut-il pour être remboursé ?', [REMBOURSEMENT, HOTEL]);
    expect(delay.answer).toBe('Les remboursements sont effectués sous 30 jours ouvrés après la demande du client.');
    expect(delay.reason).toBe('Cité de « Politique de remboursement », qui mentionne remboursé et donne une durée (30 jours ouvrés).');
    expect(delay.confidence).toBeGreaterThan(0.7);
    const gift = ask('Les cartes cadeaux sont-elles remboursables ?', [REMBOURSEMENT]);
    expect(gift.answer).toBe('Les cartes cadeaux ne sont pas remboursables.');
    const none = ask('Quel est le montant des frais de repas ?', [REMBOURSEMENT]);
    expect(none.answer).toBe('');
    expect(none.reason).toMatch(/^Aucun extrait ne/);
  });

  it('reads free amounts, duration ranges and days of the month through @svc/text, in English and French', () => {
    const delivery = ask('How much does delivery cost?', [excerpt('d', 'Shipping', 'Shipping\n\nDelivery is free of charge for orders above 50 EUR.')]);
    expect(delivery.answer).toBe('Delivery is free of charge for orders above 50 EUR.');
    expect(delivery.reason).toContain('gives an amount (free of charge)');
    const range = ask('How long does a refund take?', [excerpt('r', 'Refunds', 'Refunds are processed within 3 to 5 business days.')]);
    expect(range.reason).toContain('gives a duration (3 to 5 business days)');
    const disputed = ask('How long does a refund take?', [
      excerpt('a', 'Refunds', 'Refunds are processed within 3 to 5 business days.', 0.03),
      excerpt('b', 'FAQ', 'Refunds are processed within 10 business days.', 0.03),
    ]);
    expect(disputed.reason).toBe('The excerpts disagree: "Refunds" gives 3 to 5 business days and "FAQ" gives 10 business days; both are quoted.');
    const salary = ask('Quand le salaire est-il versé ?', [excerpt('s', 'Paie', 'Le salaire est versé le dernier jour ouvré du mois.')]);
    expect(salary.reason).toBe('Cité de « Paie », qui mentionne salaire et versé et donne une date (dernier jour ouvré du mois).');
    const immediate = ask('Combien de temps faut-il pour signaler un incident ?', [excerpt('i', 'Sécurité', 'Tout incident doit être signalé immédiatement.')]);
    expect(immediate.reason).toContain('donne une durée (immédiatement)');
  });

  it('writes the reason in the requested language', () => {
    expect(ask('How long does a refund take?', [REFUND], 'fr-FR').reason).toBe('Cité de « Refund policy », qui mentionne refund et donne une durée (30 days).');
    expect(ask('Combien de temps faut-il pour être remboursé ?', [], 'en').reason).toBe('No excerpts were given, so there is nothing to answer from.');
    expect(ask('Combien de temps faut-il pour être remboursé ?', []).reason).toBe("Aucun extrait n'a été fourni : il n'y a rien sur quoi répondre.");
  });

  it('is deterministic: the same answer every time, whatever the order of the excerpts', async () => {
    const model = new RuleBasedAnswerComposer();
    const excerpts = [REFUND, FAQ, HOTEL, HOTEL_2023, REMOTE, REMOTE_COPY, PASSWORDS];
    const questions = ['How long does a refund take?', 'How much is a hotel night reimbursed?', 'Who provides home office equipment?', 'refund card'];
    for (const question of questions) {
      const first = await model.compose({ question, excerpts });
      expect(await model.compose({ question, excerpts })).toEqual(first);
      expect(await model.compose({ question, excerpts: [...excerpts].reverse() })).toEqual(first);
      expect(await model.compose({ question, excerpts: [...excerpts.slice(3), ...excerpts.slice(0, 3)] })).toEqual(first);
    }
  });

  it('handles no excerpts, empty texts, odd scores and a question without content words', () => {
    expect(ask('How long does a refund take?', [])).toEqual({
      answer: '',
      reason: 'No excerpts were given, so there is nothing to answer from.',
      confidence: 0,
      citedExcerptIds: [],
    });
    const odd: AnswerRequest = {
      question: 'How long does a refund take?',
      excerpts: [excerpt('e', 'Empty', '   '), { ...REFUND, score: Number.NaN }, { ...HOTEL, score: -1 }],
    };
    const answer = answerExtractively(odd);
    expectWellFormed(answer, odd);
    expect(answer.citedExcerptIds).toEqual(['kn_refund']);
    expect(ask('What is it?', [REFUND])).toEqual({ answer: '', reason: 'The question has no words to look for in the excerpts.', confidence: 0, citedExcerptIds: [] });
  });

  it('refuses a blank question with a DomainError', () => {
    let error: unknown;
    try {
      ask('  ', [REFUND]);
    } catch (e) {
      error = e;
    }
    expect(isDomainError(error) && [error.kind, error.code]).toEqual(['invalid', 'LLM.INVALID_REQUEST']);
  });

  it('stays within its bounds on long texts', () => {
    const long = excerpt('long', 'Handbook', `${'Refunds are a topic. '.repeat(2000)}Refunds are processed within 30 days.`);
    const answer = ask('How long does a refund take?', [long]);
    expect(answer.answer).toBe('Refunds are processed within 30 days.');
    expect(answer.confidence).toBeLessThanOrEqual(0.95);
  });
});
