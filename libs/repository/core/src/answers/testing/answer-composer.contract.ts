import { AnswerComposer, AnswerExcerpt, AnswerRequest, GroundedAnswer } from '../answer-composer';
import { domainErrorOf } from '@svc/kernel/testing';

/** A small repository: a refund rule, a contradicting FAQ, unrelated travel rules. */
export const CONTRACT_EXCERPTS: AnswerExcerpt[] = [
  {
    id: 'kn_refund',
    documentId: 'doc_refund',
    documentName: 'Refund policy',
    text: "Deadlines\n\nRefunds are processed within 30 days of the customer's request.\nGift cards are not refundable.",
    score: 0.0328,
  },
  {
    id: 'kn_hotel',
    documentId: 'doc_travel',
    documentName: 'Travel expenses',
    text: 'Hotels\n\nThe company reimburses hotel nights up to 150 EUR per night in every city.',
    score: 0.0161,
  },
  {
    id: 'kn_remote',
    documentId: 'doc_remote',
    documentName: 'Remote work',
    text: 'Employees may work remotely up to three days per week, in agreement with their manager.',
    score: 0.0159,
  },
];

const FAQ: AnswerExcerpt = {
  id: 'kn_faq',
  documentId: 'doc_faq',
  documentName: 'Customer FAQ',
  text: 'How long does a refund take?\n\nRefunds are issued within 14 days after we receive the request.',
  score: 0.03,
};


/** The shape every answer must have, whatever the adapter (answers/answer-composer.ts). */
export function expectWellFormed(answer: GroundedAnswer, request: AnswerRequest): void {
  expect(typeof answer.answer).toBe('string');
  expect(typeof answer.reason).toBe('string');
  expect(answer.reason.trim().length).toBeGreaterThan(0);
  expect(Number.isFinite(answer.confidence)).toBe(true);
  expect(answer.confidence).toBeGreaterThanOrEqual(0);
  expect(answer.confidence).toBeLessThanOrEqual(1);
  const ids = new Set(request.excerpts.map((e) => e.id));
  expect(answer.citedExcerptIds.every((id) => ids.has(id))).toBe(true);
  expect(new Set(answer.citedExcerptIds).size).toBe(answer.citedExcerptIds.length);
  if (answer.answer === '') {
    expect(answer.confidence).toBe(0);
    expect(answer.citedExcerptIds).toEqual([]);
  } else {
    expect(answer.citedExcerptIds.length).toBeGreaterThan(0);
  }
  if (answer.usage) {
    for (const n of [answer.usage.inputTokens, answer.usage.outputTokens, answer.usage.cacheReadTokens ?? 0, answer.usage.cacheWriteTokens ?? 0]) {
      expect(Number.isInteger(n) && n >= 0).toBe(true);
    }
  }
}

/**
 * What every AnswerComposer adapter promises (answers/answer-composer.ts): grounded answers of one
 * shape, confidence in 0..1, citations among the given excerpts, an empty answer with confidence 0
 * when the excerpts do not answer or there are none, DomainErrors for bad requests. Run it from an
 * adapter's spec with a factory that builds the adapter (against a fake server for remote ones).
 */
export function answerComposerContract(name: string, factory: () => AnswerComposer | Promise<AnswerComposer>): void {
  describe(`AnswerComposer contract: ${name}`, () => {
    let model: AnswerComposer;

    beforeAll(async () => {
      model = await factory();
    });

    it('names itself', () => {
      expect(typeof model.name).toBe('string');
      expect(model.name.length).toBeGreaterThan(0);
    });

    it('answers a question an excerpt answers, citing it', async () => {
      const request = { question: 'How long does a refund take?', excerpts: CONTRACT_EXCERPTS };
      const answer = await model.compose(request);
      expectWellFormed(answer, request);
      expect(answer.answer).toContain('30 days');
      expect(answer.citedExcerptIds).toContain('kn_refund');
      expect(answer.confidence).toBeGreaterThan(0.5);
    });

    it('gives an empty answer with confidence 0 when there are no excerpts', async () => {
      const request = { question: 'How long does a refund take?', excerpts: [] };
      const answer = await model.compose(request);
      expectWellFormed(answer, request);
      expect(answer).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    });

    it('gives an empty answer with confidence 0 when the excerpts do not answer', async () => {
      const request = { question: 'What is the capital of France?', excerpts: CONTRACT_EXCERPTS };
      const answer = await model.compose(request);
      expectWellFormed(answer, request);
      expect(answer).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    });

    it('keeps to the shape on every kind of question, in English and French, excerpts in any order', async () => {
      const requests: AnswerRequest[] = [
        { question: 'Are gift cards refundable?', excerpts: CONTRACT_EXCERPTS },
        { question: 'How much does the company reimburse for a hotel night?', excerpts: [...CONTRACT_EXCERPTS].reverse() },
        { question: 'Who decides about remote work?', excerpts: CONTRACT_EXCERPTS },
        { question: 'Combien de jours de télétravail par semaine ?', excerpts: CONTRACT_EXCERPTS, language: 'fr' },
        { question: 'How long does a refund take?', excerpts: [...CONTRACT_EXCERPTS, FAQ] },
        { question: 'refund', excerpts: [CONTRACT_EXCERPTS[0]] },
      ];
      for (const request of requests) expectWellFormed(await model.compose(request), request);
    });

    it('is less confident when two excerpts disagree than when one answers alone', async () => {
      const alone = await model.compose({ question: 'How long does a refund take?', excerpts: [CONTRACT_EXCERPTS[0]] });
      const disputed = await model.compose({ question: 'How long does a refund take?', excerpts: [CONTRACT_EXCERPTS[0], FAQ] });
      expect(disputed.answer).not.toBe('');
      expect(disputed.confidence).toBeLessThan(alone.confidence);
    });

    it('refuses a blank question and ambiguous excerpt ids with LLM.INVALID_REQUEST', async () => {
      for (const request of [
        { question: '   ', excerpts: CONTRACT_EXCERPTS },
        { question: 'How long does a refund take?', excerpts: [CONTRACT_EXCERPTS[0], { ...CONTRACT_EXCERPTS[1], id: 'kn_refund' }] },
      ]) {
        const error = await domainErrorOf(model.compose(request));
        expect([error.kind, error.code]).toEqual(['invalid', 'LLM.INVALID_REQUEST']);
      }
    });

    it('answers the same request again (requests are independent)', async () => {
      const request = { question: 'Are gift cards refundable?', excerpts: CONTRACT_EXCERPTS };
      const [a, b] = await Promise.all([model.compose(request), model.compose(request)]);
      expectWellFormed(a, request);
      expectWellFormed(b, request);
      expect(b.citedExcerptIds).toEqual(a.citedExcerptIds);
    });
  });
}
