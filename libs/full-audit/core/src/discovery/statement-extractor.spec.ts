import { DomainError, LanguageModel, StructuredCall } from '@svc/kernel';
import { extractionGroups, locateSpan, ModelStatementExtractor, STATEMENT_EXTRACTION, statementValueKey } from './statement-extractor';

/** A transport that answers each call from a script (the transport's own tests cover the protocols). */
function scripted(answers: ((call: StructuredCall) => unknown)[]): LanguageModel & { calls: StructuredCall[] } {
  const calls: StructuredCall[] = [];
  return {
    name: 'scripted:model',
    configured: true,
    batches: null,
    calls,
    async complete(call: StructuredCall) {
      calls.push(call);
      const answer = answers.shift()!(call);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as LanguageModel & { calls: StructuredCall[] };
}

const statement = (passage_id: string, span: string, over: Record<string, unknown> = {}) => ({
  passage_id,
  subject: 'Return Window',
  attribute: 'duration',
  value: '30',
  unit: 'days',
  scope: null,
  condition: null,
  modality: 'is',
  effective_date: null,
  span,
  ...over,
});

const passages = [
  { id: 'kn_1', documentName: 'returns.md', headingPath: ['Returns'], text: 'Customers may return an item\nwithin 30 days of delivery. Refunds <b>follow</b>.' },
  { id: 'kn_2', documentName: 'faq.md', headingPath: [], text: 'The store closes at 2 p.m. on Saturdays.' },
];

describe('ModelStatementExtractor', () => {
  it('keeps the statements whose quote is in their passage, with its offsets; drops an invented or reworded quote and one naming another passage', async () => {
    const model = scripted([
      () => ({
        kind: 'output',
        usage: { inputTokens: 120, outputTokens: 40 },
        model: 'm',
        output: {
          statements: [
            // A line break written as a space: still the passage's words.
            statement('kn_1', 'Customers may return an item within 30 days of delivery.'),
            statement('kn_1', 'Customers may return items within 30 days.'),
            statement('kn_2', 'The store closes at 2 p.m. on Saturdays.', { subject: 'store closing time', attribute: 'time', value: '14:00', unit: null, scope: 'Saturdays' }),
            statement('kn_9', 'The store closes at 2 p.m.'),
            statement('kn_2', 'The warehouse opens at 9.'),
          ],
        },
      }),
    ]);
    const result = await new ModelStatementExtractor(model).read(passages);
    expect(result.dropped).toBe(3);
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 40 });
    const [returns] = result.statements.get('kn_1')!;
    expect(returns).toMatchObject({ subject: 'return window', attribute: 'duration', value: '30', unit: 'days', span: 'Customers may return an item\nwithin 30 days of delivery.', start: 0 });
    expect(passages[0].text.slice(returns.start, returns.end)).toBe(returns.span);
    expect(result.statements.get('kn_2')!).toEqual([expect.objectContaining({ subject: 'store closing time', scope: 'saturdays', span: 'The store closes at 2 p.m. on Saturdays.' })]);
  });

  it('sends the passages as data (escaped), with their ids, documents and headings, under the fixed instructions and the output schema', async () => {
    const model = scripted([() => ({ kind: 'output', usage: { inputTokens: 1, outputTokens: 1 }, model: 'm', output: { statements: [statement('kn_1', 'Refunds &lt;b&gt;follow&lt;/b&gt;.')] } })]);
    const result = await new ModelStatementExtractor(model).read(passages);
    const prompt = model.calls[0].messages[0].content;
    expect(prompt).toContain('<passage id="kn_1" document="returns.md" headings="Returns">');
    expect(prompt).toContain('Refunds &lt;b&gt;follow&lt;/b&gt;.');
    expect(model.calls[0].output.name).toBe('submit_statements');
    // The model quotes the escaped text: the quote is the passage's words once the escapes are undone.
    expect(result.statements.get('kn_1')!.map((s) => s.span)).toEqual(['Refunds <b>follow</b>.']);
  });

  it('a declined call reads no statement in its passages; a reply that stays malformed and an outage are thrown (the passages stay unread)', async () => {
    const declined = await new ModelStatementExtractor(scripted([() => ({ kind: 'declined', usage: { inputTokens: 5, outputTokens: 0 }, model: 'm' })])).read(passages);
    expect([...declined.statements.values()]).toEqual([[], []]);
    await expect(new ModelStatementExtractor(scripted([() => DomainError.unavailable('LLM.INVALID_RESPONSE', 'not JSON')])).read(passages)).rejects.toThrow('not JSON');
    await expect(new ModelStatementExtractor(scripted([() => new Error('overloaded')])).read(passages)).rejects.toThrow('overloaded');
  });

  it('names the model and the prompt version it caches under', () => {
    expect(new ModelStatementExtractor(scripted([])).version).toMatch(/^scripted:model\|statements-v\d+$/u);
  });
});

describe('statement values and spans', () => {
  it('one time written two ways has one key; a duration is typed; a name is its folded words', () => {
    expect(statementValueKey('2 p.m.', null, 'The store closes at 2 p.m.')).toBe(statementValueKey('14:00', null, 'The store closes at 14:00.'));
    expect(statementValueKey('30', 'days', 'x')).toMatch(/^duration:/u);
    expect(statementValueKey('30', 'days', 'x')).not.toBe(statementValueKey('60', 'days', 'x'));
    expect(statementValueKey('Finance Team', null, 'x')).toBe('finance team');
  });

  it('a span is found verbatim or across other white space, never reworded', () => {
    expect(locateSpan('a  b\nc', 'a b c')).toEqual({ start: 0, end: 6 });
    expect(locateSpan('Refunds take 14 days.', 'Refunds take two weeks.')).toBeNull();
    expect(locateSpan('x', 'x')).toBeNull();
  });

  it('calls hold a bounded number of passages and characters, in order', () => {
    const many = Array.from({ length: STATEMENT_EXTRACTION.passagesPerCall + 3 }, (_, i) => ({ id: `p${i}`, text: 'short' }));
    expect(extractionGroups(many).map((g) => g.length)).toEqual([STATEMENT_EXTRACTION.passagesPerCall, 3]);
    const long = [{ text: 'x'.repeat(STATEMENT_EXTRACTION.charactersPerCall) }, { text: 'y' }, { text: 'z'.repeat(STATEMENT_EXTRACTION.charactersPerCall + 5) }];
    expect(extractionGroups(long).map((g) => g.length)).toEqual([1, 1, 1]);
  });
});
