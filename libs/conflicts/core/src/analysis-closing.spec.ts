import { conflictsToClose } from './analysis-closing';

describe('conflictsToClose: an open conflict not found again closes only when the analysis could see it is gone', () => {
  const raised = new Date('2026-11-01T10:00:00Z');
  const before = new Date('2026-10-01T10:00:00Z');
  const after = new Date('2026-11-02T10:00:00Z');
  const open = [{ fingerprint: 'fp_refund', documentIds: ['kd_policy', 'kd_faq'], createdAt: raised }];
  const close = (found: string[], read: string[], indexed: [string, Date][]) => conflictsToClose(open, new Set(found), new Set(read), new Map(indexed));

  it('keeps a conflict the analysis found again', () => {
    expect(close(['fp_refund'], ['kd_policy', 'kd_faq'], [])).toEqual([]);
  });

  it('closes one whose documents it read and no longer disagree', () => {
    expect(close([], ['kd_policy', 'kd_faq'], [])).toEqual(['fp_refund']);
  });

  it('keeps one citing a document it did not read and that did not change since: retrieval may have ranked it out', () => {
    expect(close([], ['kd_policy'], [['kd_faq', before]])).toEqual([]);
  });

  it('closes one citing a document changed since the conflict was raised, or deleted', () => {
    expect(close([], ['kd_policy'], [['kd_faq', after]])).toEqual(['fp_refund']);
    expect(close([], ['kd_policy'], [])).toEqual(['fp_refund']);
  });
});
