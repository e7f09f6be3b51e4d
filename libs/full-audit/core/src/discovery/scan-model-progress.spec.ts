import { scanModelProgress } from '../full-audit.use-cases';

describe("have-to-show: the model's part of a scan's progress", () => {
  const usage = { calls: 30, inputTokens: 90_000, outputTokens: 6_000, stopped: null };

  it('while the documents are read, the calls so far scaled to every chunk, at most the budget', () => {
    expect(scanModelProgress(usage, 2000, { state: 'RUNNING', chunks: 10 }, 2)).toEqual({ calls: 30, budget_calls: 2000, input_tokens: 90_000, output_tokens: 6_000, stopped: null, estimated_calls: 150 });
    expect(scanModelProgress(usage, 100, { state: 'RUNNING', chunks: 10 }, 2).estimated_calls).toBe(100);
  });

  it('once read (judging, completed) or stopped by the budget, the calls made, and why it stopped', () => {
    expect(scanModelProgress(usage, 2000, { state: 'RUNNING', chunks: 10 }, 10).estimated_calls).toBe(30);
    expect(scanModelProgress({ ...usage, calls: 100, stopped: 'budget' }, 100, { state: 'COMPLETED', chunks: 10 }, 10)).toMatchObject({ calls: 100, stopped: 'budget', estimated_calls: 100 });
  });
});
