import { screen, within } from '@testing-library/react';
import { renderView } from '@/testing/render';
import { RecommendationLike, RecommendationList } from './recommendation-list';

const base = { document_url: null, reason: 'States 60 days; the expert says 30.', estimated_seconds: 120 };
const RECOMMENDATIONS: RecommendationLike[] = [
  { ...base, id: 'r1', document_name: 'Expense reimbursement', action: 'UPDATE', excerpt: 'Submit every expense within 60 days of the expense.', proposed_text: 'Submit every expense within 30 days of the expense.' },
  { ...base, id: 'r2', document_name: 'Travel expenses', action: 'KEEP', excerpt: 'Submit your claim within 30 days.', proposed_text: null, estimated_seconds: 0 },
  { ...base, id: 'r3', document_name: 'Old policy', action: 'UPDATE', excerpt: 'Claims: yes.', proposed_text: null },
  { ...base, id: 'r4', document_name: 'Draft', action: 'DELETE', excerpt: 'Claims within 90 days.', proposed_text: null },
];

describe('RecommendationList', () => {
  it("shows an UPDATE's proposed text as a difference against the excerpt", async () => {
    await renderView(<RecommendationList recommendations={RECOMMENDATIONS} />);
    const update = screen.getByRole('article', { name: 'Update: Expense reimbursement' });
    expect(update.querySelector('del')?.textContent).toBe('removed: 60');
    expect(update.querySelector('ins')?.textContent).toBe('added: 30');
    expect(update.textContent).toContain('Submit every expense within');
    expect(within(update).getByText('About 2 min')).toBeTruthy();
  });

  it('says so when no rewrite could be proposed, strikes a DELETE and leaves a KEEP as it is', async () => {
    await renderView(<RecommendationList recommendations={RECOMMENDATIONS} />);
    expect(within(screen.getByRole('article', { name: 'Update: Old policy' })).getByText(/No rewrite could be proposed/)).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Delete: Draft' }).querySelector('del')?.textContent).toBe('Claims within 90 days.');
    const keep = screen.getByRole('article', { name: 'Keep: Travel expenses' });
    expect(keep.querySelector('del, ins')).toBeNull();
    expect(screen.getByText('Estimated work: 6 min')).toBeTruthy();
  });

  it('speaks French', async () => {
    await renderView(<RecommendationList recommendations={RECOMMENDATIONS} />, { language: 'fr' });
    expect(screen.getByRole('article', { name: 'Mettre à jour\u00a0: Expense reimbursement' }).querySelector('ins')?.textContent).toBe('ajouté\u00a0: 30');
  });
});
