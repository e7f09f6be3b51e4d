import { DomainError } from './domain-error';
import type { LanguageModel, StructuredCall, StructuredResult } from './language-model';
import { callOrFallBack, ModelFallbacks, UnusableModelOutput } from './model-fallback';

const USAGE = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const CALL: StructuredCall = { system: 's', messages: [{ role: 'user', content: 'u' }], output: { name: 'o', description: 'd', schema: { type: 'object' } } };

/** A model that answers each call with the next scripted reply (a result, or an error to throw). */
function scripted(replies: (StructuredResult<{ n: number }> | Error)[]): LanguageModel {
  return {
    name: 'scripted',
    configured: true,
    batches: null,
    complete: async () => {
      const reply = replies.shift()!;
      if (reply instanceof Error) throw reply;
      return reply;
    },
  } as unknown as LanguageModel;
}

describe('callOrFallBack', () => {
  const warnings: { details: object; message: string }[] = [];
  const logger = { warn: (details: object, message: string) => warnings.push({ details, message }) };
  const run = (model: LanguageModel, capability = 'test-capability') => callOrFallBack<{ n: number }, string>(capability, model, logger, CALL, (o) => `model ${o.n}`, async () => 'rule-based');

  beforeEach(() => (warnings.length = 0));

  it("uses the model's output when it gives one, without a warning", async () => {
    expect(await run(scripted([{ kind: 'output', output: { n: 7 }, usage: USAGE, model: 'm' }]))).toBe('model 7');
    expect(warnings).toEqual([]);
  });

  it('answers with the rule-based adapter when the model declines or stays malformed, logged with the reason and counted', async () => {
    const before = ModelFallbacks.of('counted-capability');
    expect(await run(scripted([{ kind: 'declined', usage: USAGE, model: 'm' }]), 'counted-capability')).toBe('rule-based');
    expect(await run(scripted([DomainError.unavailable('LLM.INVALID_RESPONSE', 'not JSON')]), 'counted-capability')).toBe('rule-based');
    expect(warnings.map((w) => w.details)).toEqual([
      { capability: 'counted-capability', model: 'scripted', reason: 'declined', fallbacks: before + 1 },
      { capability: 'counted-capability', model: 'scripted', reason: 'invalid-response', fallbacks: before + 2 },
    ]);
    expect(ModelFallbacks.of('counted-capability')).toBe(before + 2);
  });

  it('passes an outage on, so the job retries instead of answering without the model', async () => {
    await expect(run(scripted([DomainError.unavailable('LLM.UNAVAILABLE', 'overloaded')]))).rejects.toMatchObject({ code: 'LLM.UNAVAILABLE' });
    expect(warnings).toEqual([]);
  });

  it("answers with the rule-based adapter when the capability's own check sets the output aside, naming the problem", async () => {
    const model = scripted([{ kind: 'output', output: { n: -1 }, usage: USAGE, model: 'm' }]);
    const checked = (o: { n: number }) => {
      if (o.n < 0) throw new UnusableModelOutput('a negative count');
      return `model ${o.n}`;
    };
    expect(await callOrFallBack('checked-capability', model, logger, CALL, checked, async () => 'rule-based')).toBe('rule-based');
    expect(warnings.map((w) => w.details)).toEqual([{ capability: 'checked-capability', model: 'scripted', reason: 'unusable-output', fallbacks: expect.any(Number), problem: 'a negative count' }]);
  });

  it("answers an outage with the rule-based adapter too when the capability's callers cannot wait (onFailure: fall-back)", async () => {
    const model = scripted([DomainError.unavailable('LLM.UNAVAILABLE', 'overloaded')]);
    const answer = await callOrFallBack<{ n: number }, string>('patient-capability', model, logger, CALL, (o) => `model ${o.n}`, async () => 'rule-based', { onFailure: 'fall-back' });
    expect(answer).toBe('rule-based');
    expect(warnings.map((w) => w.details)).toEqual([
      { capability: 'patient-capability', model: 'scripted', reason: 'failed', fallbacks: expect.any(Number), error: expect.objectContaining({ type: 'DomainError', code: 'LLM.UNAVAILABLE' }) },
    ]);
  });
});
