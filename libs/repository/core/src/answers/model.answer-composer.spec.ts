import { Logger } from '@nestjs/common';
import { DomainError, LanguageModel, ModelFallbacks, StructuredCall, StructuredResult } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { ANSWER_OUTPUT, ANSWER_SYSTEM_PROMPT, AnswerToolInput, readAnswerPrompt } from './answer-prompt';
import { MAX_EXCERPT_CHARS, MAX_PROMPT_EXCERPTS, ModelAnswerComposer } from './model.answer-composer';
import { answerExtractively, RuleBasedAnswerComposer } from './rule-based.answer-composer';
import { answerComposerContract, CONTRACT_EXCERPTS, expectWellFormed } from './testing/answer-composer.contract';

const USAGE = { inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 };
const QUESTION = { question: 'How long does a refund take?', excerpts: CONTRACT_EXCERPTS };

/** A transport whose model answers from the prompt it receives (grounded), unless a reply is scripted. */
class ScriptedTransport extends LanguageModel {
  readonly name = 'scripted:model';
  readonly configured = true;
  readonly calls: StructuredCall[] = [];
  readonly script: (StructuredResult<AnswerToolInput> | Error)[] = [];

  async complete<T>(call: StructuredCall): Promise<StructuredResult<T>> {
    this.calls.push(call);
    const next = this.script.shift();
    if (next instanceof Error) throw next;
    if (next) return next as StructuredResult<T>;
    const answer = answerExtractively(readAnswerPrompt(call.messages[0].content));
    const output: AnswerToolInput = { answer: answer.answer, reason: answer.reason, confidence: answer.confidence, cited_excerpt_ids: answer.citedExcerptIds };
    return { kind: 'output', output: output as T, usage: USAGE, model: this.name };
  }
}

const says = (output: AnswerToolInput): StructuredResult<AnswerToolInput> => ({ kind: 'output', output, usage: USAGE, model: 'scripted:model' });

answerComposerContract('ModelAnswerComposer (over a grounded transport)', () => new ModelAnswerComposer(new ScriptedTransport()));

describe('ModelAnswerComposer', () => {
  it('sends this context’s prompt and schema through the generic call, excerpts best first', async () => {
    const transport = new ScriptedTransport();
    const composer = new ModelAnswerComposer(transport);
    const answer = await composer.compose({ ...QUESTION, excerpts: [...CONTRACT_EXCERPTS].reverse(), language: 'en' });
    expect(answer.answer).toContain('30 days');
    expect(answer.usage).toEqual(USAGE);
    expect(composer.name).toBe('scripted:model');
    const [call] = transport.calls;
    expect(call.system).toBe(ANSWER_SYSTEM_PROMPT);
    expect(call.output).toBe(ANSWER_OUTPUT);
    expect(call.maxTokens).toBe(1024);
    const prompt = call.messages[0].content;
    expect(prompt.startsWith('<question>How long does a refund take?</question>')).toBe(true);
    expect(prompt.indexOf('id="kn_refund"')).toBeLessThan(prompt.indexOf('id="kn_hotel"'));
    expect(prompt).toContain('Answer in the language tagged "en"');
  });

  it('makes no call when there are no excerpts', async () => {
    const transport = new ScriptedTransport();
    expect(await new ModelAnswerComposer(transport).compose({ question: 'How long does a refund take?', excerpts: [] })).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    expect(transport.calls).toHaveLength(0);
  });

  it('keeps only citations of given excerpts, clamps the confidence, and discards an ungrounded answer', async () => {
    const transport = new ScriptedTransport();
    const composer = new ModelAnswerComposer(transport);
    transport.script.push(says({ answer: '30 days.', reason: 'From the policy.', confidence: 1.7, cited_excerpt_ids: ['kn_refund', 'kn_refund', 'kn_invented'] }));
    const invented = await composer.compose(QUESTION);
    expect(invented).toMatchObject({ answer: '30 days.', reason: 'From the policy.', confidence: 0.8, citedExcerptIds: ['kn_refund'] });
    expectWellFormed(invented, QUESTION);

    transport.script.push(says({ answer: '  30 days.  ', reason: '', confidence: -3, cited_excerpt_ids: [' kn_refund '] }));
    expect(await composer.compose(QUESTION)).toMatchObject({ answer: '30 days.', reason: 'Answered from the cited excerpts.', confidence: 0, citedExcerptIds: ['kn_refund'] });

    transport.script.push(says({ answer: 'Refunds take a month.', reason: 'General knowledge.', confidence: 0.9, cited_excerpt_ids: ['kn_elsewhere'] }));
    const ungrounded = await composer.compose(QUESTION);
    expect(ungrounded).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [] });
    expect(ungrounded.reason).toBe('The language model answered without citing any of the given excerpts, so its answer was discarded as ungrounded.');
    expect(ungrounded.usage?.inputTokens).toBeGreaterThan(0);

    transport.script.push(says({ answer: '', reason: 'The excerpts do not cover this.', confidence: 0.6, cited_excerpt_ids: ['kn_refund'] }));
    expect(await composer.compose(QUESTION)).toMatchObject({ answer: '', reason: 'The excerpts do not cover this.', confidence: 0, citedExcerptIds: [] });
  });

  it('turns a declined call into no answer (never the rule-based one), and passes the transport’s outages on', async () => {
    const transport = new ScriptedTransport();
    const composer = new ModelAnswerComposer(transport);
    transport.script.push({ kind: 'declined', usage: USAGE, model: 'scripted:model' });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      expect(await composer.compose(QUESTION)).toMatchObject({ answer: '', confidence: 0, citedExcerptIds: [], reason: 'The language model declined to answer this question.' });
      expect(warn.mock.calls.map(([details]) => details)).toEqual([{ capability: 'answer-composer', model: 'scripted:model', reason: 'declined' }]);
    } finally {
      warn.mockRestore();
    }
    transport.script.push(DomainError.unavailable('LLM.UNAVAILABLE', 'The language model is unavailable (HTTP 529 overloaded_error, 3 attempts).', { retryAfterSeconds: 7 }));
    const error = await domainErrorOf(composer.compose(QUESTION));
    expect([error.code, error.retryAfterSeconds]).toEqual(['LLM.UNAVAILABLE', 7]);
  });

  it('answers with the rule-based composer when the reply stays malformed (LLM.INVALID_RESPONSE), logged with the reason and counted', async () => {
    const transport = new ScriptedTransport();
    transport.script.push(DomainError.unavailable('LLM.INVALID_RESPONSE', 'The language model gave no usable answer: its reply is not JSON.'));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const before = ModelFallbacks.of('answer-composer');
      const answer = await new ModelAnswerComposer(transport).compose(QUESTION);
      expect(answer).toEqual(await new RuleBasedAnswerComposer().compose(QUESTION));
      expect(answer.answer).toContain('30 days');
      expect(warn.mock.calls.map(([details]) => details)).toEqual([{ capability: 'answer-composer', model: 'scripted:model', reason: 'invalid-response', fallbacks: before + 1 }]);
    } finally {
      warn.mockRestore();
    }
  });

  it('bounds what it sends: the best excerpts, each cut to a maximum length', async () => {
    const transport = new ScriptedTransport();
    const many = Array.from({ length: MAX_PROMPT_EXCERPTS + 5 }, (_, i) => ({
      id: `kn_${String(i).padStart(2, '0')}`,
      documentId: 'doc',
      documentName: 'Handbook',
      text: i === 0 ? `Refunds are processed within 30 days. ${'x'.repeat(MAX_EXCERPT_CHARS + 100)}` : `Policy number ${i}.`,
      score: 1 - i / 100,
    }));
    await new ModelAnswerComposer(transport).compose({ question: 'How long does a refund take?', excerpts: many });
    const prompt = transport.calls[0].messages[0].content;
    expect(prompt.match(/<excerpt /g)).toHaveLength(MAX_PROMPT_EXCERPTS);
    expect(prompt).toContain('id="kn_00"');
    expect(prompt).not.toContain(`id="kn_${MAX_PROMPT_EXCERPTS}"`);
    expect(prompt).toContain(`${'x'.repeat(100)}…`);
    expect(prompt.length).toBeLessThan(MAX_EXCERPT_CHARS + 5000);
  });
});
