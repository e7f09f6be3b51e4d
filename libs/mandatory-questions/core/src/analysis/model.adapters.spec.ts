import { Logger } from '@nestjs/common';
import { ModelFallbacks } from '@svc/kernel';
import { ScriptedLanguageModel, ScriptedReply } from '@svc/kernel/testing';
import { ExtractedAnswer, Passage } from '@svc/text';
import { AnswerExtractor, CompanionQuestionWriter } from '../mandatory-questions.ports';
import { ModelAnswerExtractor, ModelCompanionQuestionWriter } from './model.adapters';

const policy: Passage = { id: 'kn_policy', documentId: 'kd_policy', text: 'Refunds are processed within 30 days of the request.' };
const faq: Passage = { id: 'kn_faq', documentId: 'kd_faq', text: 'A refund takes 14 days.' };
const QUESTION = 'How long does a refund take?';
const ruleAnswer: ExtractedAnswer = { passageId: faq.id, documentId: faq.documentId, start: 0, end: faq.text.length, text: faq.text, kind: 'duration', key: 'duration:P14D', display: '14 days', scope: [], confidence: 0.5 };

/** The rule-based adapters' stand-ins: what they answer says who answered. */
class RuleExtractor extends AnswerExtractor {
  readonly name = 'rule-based';
  async extract(): Promise<ExtractedAnswer[]> {
    return [ruleAnswer];
  }
}
class RuleWriter extends CompanionQuestionWriter {
  readonly name = 'rule-based';
  async write(): Promise<string[]> {
    return ['How long does a refund take for premium customers?'];
  }
}

describe('the question analysis on a language model', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  const fallbacks = () => warn.mock.calls.map(([details]) => details);

  describe('ModelAnswerExtractor', () => {
    const extract = (reply: ScriptedReply) => new ModelAnswerExtractor(new ScriptedLanguageModel([reply]), new RuleExtractor()).extract(QUESTION, [policy, faq]);

    it("keeps the model's spans found verbatim in the excerpt it names, typed by the text library", async () => {
      const answers = await extract(
        ScriptedLanguageModel.output({
          answers: [
            { excerpt_id: 'kn_policy', quote: 'within 30 days', value: '30 days', scope: [], confidence: 0.9 },
            { excerpt_id: 'kn_faq', quote: 'not in the excerpt', value: '14 days', scope: [], confidence: 0.9 },
          ],
        }),
      );
      expect(answers.map((a) => [a.passageId, a.text, a.key])).toEqual([['kn_policy', 'within 30 days', 'duration:P30D']]);
      expect(fallbacks()).toEqual([]);
    });

    it.each([
      ['declines', ScriptedLanguageModel.declined(), 'declined'],
      ['answers with malformed output twice (LLM.INVALID_RESPONSE)', ScriptedLanguageModel.malformed(), 'invalid-response'],
    ])('answers with the rule-based extractor when the model %s, logged with the reason and counted', async (_case, reply, reason) => {
      const before = ModelFallbacks.of('answer-extractor');
      expect(await extract(reply)).toEqual([ruleAnswer]);
      expect(fallbacks()).toEqual([{ capability: 'answer-extractor', model: 'scripted:model', reason, fallbacks: before + 1 }]);
    });

    it('passes an outage on: the job retries', async () => {
      await expect(extract(ScriptedLanguageModel.outage())).rejects.toMatchObject({ code: 'LLM.UNAVAILABLE' });
      expect(fallbacks()).toEqual([]);
    });
  });

  describe('ModelCompanionQuestionWriter', () => {
    const write = (reply: ScriptedReply) => new ModelCompanionQuestionWriter(new ScriptedLanguageModel([reply]), new RuleWriter()).write(QUESTION, [ruleAnswer]);

    it("keeps the model's questions, at most five, never the question itself", async () => {
      const questions = ['How long does a refund take?', 'How long in France?', ' How long in France? ', 'a', 'b', 'c', 'd', 'e'];
      expect(await write(ScriptedLanguageModel.output({ questions }))).toEqual(['How long in France?', 'a', 'b', 'c', 'd']);
    });

    it.each([
      ['declines', ScriptedLanguageModel.declined(), 'declined'],
      ['answers with malformed output twice (LLM.INVALID_RESPONSE)', ScriptedLanguageModel.malformed(), 'invalid-response'],
    ])('answers with the rule-based writer when the model %s, logged with the reason and counted', async (_case, reply, reason) => {
      const before = ModelFallbacks.of('companion-question-writer');
      expect(await write(reply)).toEqual(['How long does a refund take for premium customers?']);
      expect(fallbacks()).toEqual([{ capability: 'companion-question-writer', model: 'scripted:model', reason, fallbacks: before + 1 }]);
    });
  });
});
