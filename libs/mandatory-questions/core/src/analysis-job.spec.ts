import { analysisJobOptions } from './analysis-job';

describe('analysis jobs', () => {
  it.each([
    ['created', 'interactive'],
    ['forced', 'interactive'],
    ['document', 'background'],
    ['instance', 'background'],
  ] as const)('an analysis started because the question was %s runs as %s work, with the analysis retries', (reason, priority) => {
    expect(analysisJobOptions(reason)).toEqual({ maxAttempts: 12, priority });
  });

  it('keeps a created or forced question behind the indexation before the instance runs (the running phase analyses it again)', () => {
    expect(analysisJobOptions('created', false)).toEqual({ maxAttempts: 12, priority: 'background' });
    expect(analysisJobOptions('forced', false)).toEqual({ maxAttempts: 12, priority: 'background' });
  });
});
