import { conflictTransition } from './question-conflict.states';

describe('question conflict state table (BEHAVIOUR.md §5)', () => {
  it.each([
    ['OPEN', 'set-answer', { kind: 'to', state: 'RECOMMENDATIONS_READY' }],
    ['ANSWERED', 'set-answer', { kind: 'to', state: 'RECOMMENDATIONS_READY' }],
    ['RECOMMENDATIONS_READY', 'set-answer', { kind: 'to', state: 'RECOMMENDATIONS_READY' }],
    ['MANAGED', 'set-answer', { kind: 'forbidden' }],
    ['IGNORED', 'set-answer', { kind: 'forbidden' }],
    ['RECOMMENDATIONS_READY', 'close', { kind: 'to', state: 'MANAGED' }],
    ['ANSWERED', 'close', { kind: 'to', state: 'MANAGED' }],
    ['MANAGED', 'close', { kind: 'same' }],
    ['OPEN', 'close', { kind: 'forbidden' }],
    ['IGNORED', 'close', { kind: 'forbidden' }],
    ['OPEN', 'ignore', { kind: 'to', state: 'IGNORED' }],
    ['ANSWERED', 'ignore', { kind: 'to', state: 'IGNORED' }],
    ['RECOMMENDATIONS_READY', 'ignore', { kind: 'to', state: 'IGNORED' }],
    ['IGNORED', 'ignore', { kind: 'same' }],
    ['MANAGED', 'ignore', { kind: 'forbidden' }],
    ['OPEN', 'question-answered', { kind: 'to', state: 'ANSWERED' }],
    ['RECOMMENDATIONS_READY', 'question-answered', { kind: 'forbidden' }],
    ['OPEN', 'analysis-close', { kind: 'to', state: 'MANAGED' }],
    ['ANSWERED', 'analysis-close', { kind: 'forbidden' }],
  ] as const)('%s --%s--> %j', (from, move, expected) => {
    expect(conflictTransition(from, move)).toEqual(expected);
  });
});
