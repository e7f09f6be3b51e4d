import type { QuestionConflictState } from './question-conflict';

export type ConflictMove = 'set-answer' | 'close' | 'ignore' | 'question-answered' | 'analysis-close';

/**
 * The state table of a question conflict (BEHAVIOUR.md §5), pure. `to`: the state after the move;
 * `same`: an idempotent repeat (200, nothing changes); `forbidden`: 409.
 */
export type ConflictTransition = { kind: 'to'; state: QuestionConflictState } | { kind: 'same' } | { kind: 'forbidden' };

const TABLE: Record<ConflictMove, Partial<Record<QuestionConflictState, ConflictTransition>>> = {
  'set-answer': {
    OPEN: { kind: 'to', state: 'RECOMMENDATIONS_READY' },
    ANSWERED: { kind: 'to', state: 'RECOMMENDATIONS_READY' },
    RECOMMENDATIONS_READY: { kind: 'to', state: 'RECOMMENDATIONS_READY' },
  },
  close: {
    RECOMMENDATIONS_READY: { kind: 'to', state: 'MANAGED' },
    ANSWERED: { kind: 'to', state: 'MANAGED' },
    MANAGED: { kind: 'same' },
  },
  ignore: {
    OPEN: { kind: 'to', state: 'IGNORED' },
    ANSWERED: { kind: 'to', state: 'IGNORED' },
    RECOMMENDATIONS_READY: { kind: 'to', state: 'IGNORED' },
    IGNORED: { kind: 'same' },
  },
  // The question's expert answer reaches its open conflicts; the others keep their state.
  'question-answered': { OPEN: { kind: 'to', state: 'ANSWERED' } },
  // A later analysis no longer finds an open conflict: the documents were fixed.
  'analysis-close': { OPEN: { kind: 'to', state: 'MANAGED' } },
};

export function conflictTransition(from: QuestionConflictState, move: ConflictMove): ConflictTransition {
  return TABLE[move][from] ?? { kind: 'forbidden' };
}

/** The states a move is allowed from (for error messages). */
export function statesAllowing(move: ConflictMove): QuestionConflictState[] {
  return Object.keys(TABLE[move]) as QuestionConflictState[];
}
