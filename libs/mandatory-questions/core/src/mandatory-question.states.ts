import type { MandatoryQuestionState } from './mandatory-question';

export type QuestionMove = 'set-answer' | 'set-managed' | 'set-ignored' | 'force-analyze' | 'analysis-start';

/** `keep`: the move leaves the state as it is (set-answer); `same`: an idempotent repeat; `forbidden`: 409. */
export type QuestionTransition = { kind: 'to'; state: MandatoryQuestionState } | { kind: 'keep' } | { kind: 'same' } | { kind: 'forbidden' };

const OPEN_STATES: MandatoryQuestionState[] = ['PENDING', 'ANALYZING', 'CONFLICTS', 'NO_CONFLICT', 'REFUSED'];

/**
 * The state machine of a mandatory question (BEHAVIOUR.md §4), pure. An expert may answer a question
 * until it is closed (MANAGED or IGNORED: 409); set-managed and set-ignored close it from any state
 * (a repeat is idempotent, and one closed state may be changed into the other); force-analyze only
 * from REFUSED; the analysis runs on every open question (re-analysis included), never on a closed one.
 */
export function questionTransition(from: MandatoryQuestionState, move: QuestionMove): QuestionTransition {
  const open = OPEN_STATES.includes(from);
  switch (move) {
    case 'set-answer':
      return open ? { kind: 'keep' } : { kind: 'forbidden' };
    case 'set-managed':
      return from === 'MANAGED' ? { kind: 'same' } : { kind: 'to', state: 'MANAGED' };
    case 'set-ignored':
      return from === 'IGNORED' ? { kind: 'same' } : { kind: 'to', state: 'IGNORED' };
    case 'force-analyze':
      return from === 'REFUSED' ? { kind: 'to', state: 'PENDING' } : { kind: 'forbidden' };
    case 'analysis-start':
      return open ? { kind: 'to', state: 'ANALYZING' } : { kind: 'forbidden' };
  }
}

export function isOpenQuestion(state: MandatoryQuestionState): boolean {
  return OPEN_STATES.includes(state);
}
