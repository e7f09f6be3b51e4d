import { fireEvent, screen } from '@testing-library/react';
import { ApiError } from '@/lib/api-error';
import { renderView } from '@/testing/render';
import { FindingOverride } from './finding-override';

describe('FindingOverride', () => {
  it('offers an admin to reopen a closed or ignored finding', async () => {
    let reopened = 0;
    await renderView(<FindingOverride state="IGNORED" allowed onReopen={() => reopened++} pending={false} error={null} />);
    expect(screen.getByRole('region', { name: 'Governance' }).textContent).toContain('“Ignored”');
    fireEvent.click(screen.getByRole('button', { name: 'Reopen the finding' }));
    expect(reopened).toBe(1);
  });

  it.each([
    ['a caller who is not an admin', 'MANAGED', false],
    ['an open finding', 'DETECTED', true],
    ['a finding detected again', 'REDETECTED', true],
    ['a disappeared finding (the service answers 409)', 'DISAPPEARED', true],
  ] as const)('is not offered to %s', async (_, state, allowed) => {
    const { container } = await renderView(<FindingOverride state={state} allowed={allowed} onReopen={() => undefined} pending={false} error={null} />);
    expect(container.querySelector('button')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Governance' })).toBeNull();
  });

  it("shows the service's refusal in words with its hint", async () => {
    const error = new ApiError({ status: 409, code: 'FULL_AUDIT.INVALID_TRANSITION', detail: 'The conflict has disappeared.', hint: 'Run a scan first.' });
    await renderView(<FindingOverride state="MANAGED" allowed onReopen={() => undefined} pending={false} error={error} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The conflict has disappeared.');
    expect(alert.textContent).toContain('Run a scan first.');
  });

  it('speaks French', async () => {
    await renderView(<FindingOverride state="MANAGED" allowed onReopen={() => undefined} pending={false} error={null} />, { language: 'fr' });
    expect(screen.getByRole('button', { name: 'Rouvrir le constat' })).toBeTruthy();
  });
});
