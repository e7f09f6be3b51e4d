import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ApiError } from '@/lib/api-error';
import { renderView } from '@/testing/render';
import { FindingIgnore } from './finding-ignore';

describe('FindingIgnore', () => {
  it('ignores the finding only once the expert confirms', async () => {
    let ignored = 0;
    await renderView(<FindingIgnore subject="Expense claims deadline" onIgnore={async () => ignored++} pending={false} error={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ignore the finding?' });
    expect(dialog.textContent).toContain('Expense claims deadline');
    expect(ignored).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore the finding' }));
    await waitFor(() => expect(ignored).toBe(1));
  });

  it('leaves the finding as it is when the expert cancels', async () => {
    let ignored = 0;
    await renderView(<FindingIgnore subject="Expense claims deadline" onIgnore={async () => ignored++} pending={false} error={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore' }));
    await screen.findByRole('dialog', { name: 'Ignore the finding?' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(ignored).toBe(0);
  });

  it("keeps the dialog open with the service's refusal in words", async () => {
    const error = new ApiError({ status: 409, code: 'FULL_AUDIT.INVALID_TRANSITION', detail: 'The conflict has disappeared.', hint: 'Run a scan first.' });
    await renderView(<FindingIgnore subject="Expense claims deadline" onIgnore={() => Promise.reject(error)} pending={false} error={error} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ignore the finding?' });
    fireEvent.click(screen.getByRole('button', { name: 'Ignore the finding' }));
    await waitFor(() => expect(dialog.textContent).toContain('Run a scan first.'));
    expect(screen.getByRole('dialog', { name: 'Ignore the finding?' })).toBeTruthy();
  });

  it('clears the previous attempt’s error when it opens again', async () => {
    let reset = 0;
    await renderView(<FindingIgnore subject="Expense claims deadline" onIgnore={async () => undefined} onOpen={() => reset++} pending={false} error={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore' }));
    await screen.findByRole('dialog', { name: 'Ignore the finding?' });
    expect(reset).toBe(1);
  });
});
