import { highlight } from './highlight';
import { wordDiff } from './word-diff';

describe('highlight', () => {
  it('cuts the text around the span, clamping offsets that fall outside it', () => {
    expect(highlight('within 30 days of the trip', 7, 14)).toEqual({ before: 'within ', span: '30 days', after: ' of the trip' });
    expect(highlight('short', 3, 99)).toEqual({ before: 'sho', span: 'rt', after: '' });
    expect(highlight('short', 4, 2)).toEqual({ before: 'shor', span: '', after: 't' });
  });
});

describe('wordDiff', () => {
  it('gives the words removed and added, the rest unchanged', () => {
    expect(wordDiff('Submit within 60 days of the expense.', 'Submit within 30 days of the expense.')).toEqual([
      { kind: 'same', text: 'Submit within ' },
      { kind: 'removed', text: '60' },
      { kind: 'added', text: '30' },
      { kind: 'same', text: ' days of the expense.' },
    ]);
  });
});
