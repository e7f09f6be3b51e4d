import { questionTransition } from './mandatory-question.states';

describe('mandatory question state machine (BEHAVIOUR.md §4)', () => {
  it('force-analyze only from REFUSED, back to PENDING', () => {
    expect(questionTransition('REFUSED', 'force-analyze')).toEqual({ kind: 'to', state: 'PENDING' });
    for (const from of ['PENDING', 'ANALYZING', 'CONFLICTS', 'NO_CONFLICT', 'MANAGED', 'IGNORED'] as const) expect(questionTransition(from, 'force-analyze')).toEqual({ kind: 'forbidden' });
  });
  it('set-answer on open questions only; closing is idempotent', () => {
    expect(questionTransition('CONFLICTS', 'set-answer')).toEqual({ kind: 'keep' });
    expect(questionTransition('MANAGED', 'set-answer')).toEqual({ kind: 'forbidden' });
    expect(questionTransition('IGNORED', 'set-answer')).toEqual({ kind: 'forbidden' });
    expect(questionTransition('CONFLICTS', 'set-managed')).toEqual({ kind: 'to', state: 'MANAGED' });
    expect(questionTransition('MANAGED', 'set-managed')).toEqual({ kind: 'same' });
    expect(questionTransition('IGNORED', 'set-ignored')).toEqual({ kind: 'same' });
  });
  it('the analysis runs on open questions (re-analysis included), never on closed ones', () => {
    expect(questionTransition('NO_CONFLICT', 'analysis-start')).toEqual({ kind: 'to', state: 'ANALYZING' });
    expect(questionTransition('ANALYZING', 'analysis-start')).toEqual({ kind: 'to', state: 'ANALYZING' });
    expect(questionTransition('IGNORED', 'analysis-start')).toEqual({ kind: 'forbidden' });
  });
});
