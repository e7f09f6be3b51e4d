import { FULL_AUDIT_SCAN, settleDue } from './scan.use-cases';

describe('settleDue: when incremental judgements call for the whole repository to be judged again', () => {
  it('a small repository settles after any change', () => {
    expect(settleDue({ changed: 1, documents: 60 })).toBe(true);
    expect(settleDue({ changed: 1, documents: 1 })).toBe(true);
  });

  it('a large one once the documents judged since the last full judgement reach the settle share', () => {
    const documents = 10_000;
    const share = Math.ceil(FULL_AUDIT_SCAN.settleShare * documents);
    expect(settleDue({ changed: share - 1, documents })).toBe(false);
    expect(settleDue({ changed: share, documents })).toBe(true);
  });

  it('nothing judged since: nothing to settle (also after the last document was deleted)', () => {
    expect(settleDue({ changed: 0, documents: 0 })).toBe(false);
    expect(settleDue({ changed: 0, documents: 500 })).toBe(false);
    expect(settleDue({ changed: 3, documents: 0 })).toBe(true);
  });
});
