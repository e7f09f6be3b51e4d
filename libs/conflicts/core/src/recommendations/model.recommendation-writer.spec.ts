import { Logger } from '@nestjs/common';
import { LanguageModel, ModelFallbacks, StructuredCall, StructuredResult } from '@svc/kernel';
import { ScriptedLanguageModel } from '@svc/kernel/testing';
import { ExtractedAnswer, Passage } from '@svc/text';
import type { RecommendationRequest } from '../conflicts.ports';
import { ModelRecommendationWriter } from './model.recommendation-writer';
import type { RecommendationToolInput } from './recommendation-prompt';
import { RuleBasedRecommendationWriter } from './rule-based.recommendation-writer';

const USAGE = { inputTokens: 100, outputTokens: 20 };

/** A transport that answers with the scripted recommendations. */
class ScriptedTransport extends LanguageModel {
  readonly name = 'scripted:model';
  readonly configured = true;
  constructor(private readonly recommendations: RecommendationToolInput['recommendations']) {
    super();
  }
  async complete<T>(_call: StructuredCall): Promise<StructuredResult<T>> {
    return { kind: 'output', output: { recommendations: this.recommendations } as T, usage: USAGE, model: this.name };
  }
}

const policy: Passage = { id: 'kn_policy', documentId: 'kd_policy', text: 'Refunds are processed within 30 days of the request.' };
const faq: Passage = { id: 'kn_faq', documentId: 'kd_faq', text: 'The refund of an order takes 14 days.' };
/** The answers as a stored conflict hands them to the writer: spans without value offsets. */
const answerOf = (p: Passage, key: string, display: string): ExtractedAnswer => ({ passageId: p.id, documentId: p.documentId, start: 0, end: p.text.length, text: p.text, kind: 'duration', key, display, scope: [], confidence: 0.9 });
const request: RecommendationRequest = {
  question: 'How long does a refund take?',
  expertAnswer: 'Refunds take 14 days.',
  answers: [answerOf(policy, 'duration:P30D', '30 days'), answerOf(faq, 'duration:P14D', '14 days')],
  passages: [policy, faq],
};
const update = (proposed: string) => [
  { excerpt_id: 'kn_policy', action: 'UPDATE' as const, proposed_text: proposed, reason: 'It states another figure.' },
  { excerpt_id: 'kn_faq', action: 'KEEP' as const, proposed_text: '', reason: 'It already states the answer.' },
];

describe('ModelRecommendationWriter', () => {
  it("keeps the model's rewrite when it changes only the answering span, to the expert's value", async () => {
    const drafts = await new ModelRecommendationWriter(new ScriptedTransport(update('Refunds are processed within two weeks of the request.'))).write(request);
    expect(drafts.map((d) => [d.documentId, d.action, d.proposedText, d.reason])).toEqual([
      ['kd_policy', 'UPDATE', 'Refunds are processed within two weeks of the request.', 'It states another figure.'],
      ['kd_faq', 'KEEP', null, 'It already states the answer.'],
    ]);
  });

  it.each([
    ['changes words outside the answering span', 'Refunds are always processed within 14 days of the request.'],
    ['states the same value as the excerpt', 'Refunds are processed within thirty days of the request.'],
    ["states another value than the expert's", 'Refunds are processed within 21 days of the request.'],
    ['replaces the excerpt by the bare answer', '14 days'],
  ])('sets aside a rewrite that %s: the rule-based draft stands in', async (_why, proposed) => {
    const drafts = await new ModelRecommendationWriter(new ScriptedTransport(update(proposed))).write(request);
    expect(drafts[0]).toMatchObject({ documentId: 'kd_policy', action: 'UPDATE', proposedText: 'Refunds are processed within 14 days of the request.', reason: expect.stringContaining("The model's rewrite was set aside") });
  });

  describe('falls back to the rule-based writer', () => {
    let warn: jest.SpyInstance;
    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => warn.mockRestore());

    it.each([
      ['declines', ScriptedLanguageModel.declined(), 'declined'],
      ['answers with malformed output twice (LLM.INVALID_RESPONSE)', ScriptedLanguageModel.malformed(), 'invalid-response'],
    ])('when the model %s: the rule-based drafts, logged with the reason and counted', async (_case, reply, reason) => {
      const before = ModelFallbacks.of('recommendation-writer');
      const drafts = await new ModelRecommendationWriter(new ScriptedLanguageModel([reply])).write(request);
      expect(drafts).toEqual(await new RuleBasedRecommendationWriter().write(request));
      expect(drafts.map((d) => [d.documentId, d.action])).toEqual([
        ['kd_policy', 'UPDATE'],
        ['kd_faq', 'KEEP'],
      ]);
      expect(warn.mock.calls.map(([details]) => details)).toEqual([{ capability: 'recommendation-writer', model: 'scripted:model', reason, fallbacks: before + 1 }]);
    });

    it('when a rewrite is set aside: logged as an unusable output with the check’s reason', async () => {
      await new ModelRecommendationWriter(new ScriptedTransport(update('14 days'))).write(request);
      expect(warn.mock.calls.map(([details]) => details)).toEqual([
        { capability: 'recommendation-writer', model: 'scripted:model', reason: 'unusable-output', fallbacks: expect.any(Number), documents: 1, problem: expect.stringContaining('1 rewrite(s) set aside: the rewrite') },
      ]);
    });

    it('but passes an outage on: set-answer returns no drafts and may be asked again', async () => {
      await expect(new ModelRecommendationWriter(new ScriptedLanguageModel([ScriptedLanguageModel.outage()])).write(request)).rejects.toMatchObject({ code: 'LLM.UNAVAILABLE' });
      expect(warn).not.toHaveBeenCalled();
    });
  });

  it('drops recommendations on excerpts it was not given', async () => {
    const drafts = await new ModelRecommendationWriter(new ScriptedTransport([{ excerpt_id: 'kn_other', action: 'UPDATE', proposed_text: 'Anything.', reason: 'x' }])).write(request);
    expect(drafts).toEqual([]);
  });
});
