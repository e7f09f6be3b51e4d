import { screen, within } from '@testing-library/react';
import { renderView } from '@/testing/render';
import type { Finding } from '../finding-states';
import { findingAttributeText } from './finding-attribute';
import { FindingsTable } from './findings-table';

const finding = (id: string, attribute: string, subject: string): Finding =>
  ({
    id,
    attribute,
    subject,
    state: 'DETECTED',
    is_important: false,
    linked_questions: [],
    documents: [
      { document_id: 'kd_old', document_name: 'Expense policy 2023', document_url: null },
      { document_id: 'kd_new', document_name: 'Expense policy 2025', document_url: null },
    ],
    last_seen_at: '2026-11-28T09:00:00.000Z',
  }) as unknown as Finding;

const FINDINGS = [finding('fa_1', 'superseded', 'older version still in the repository: Expense policy 2023'), finding('fa_2', 'claim deadline', 'Expense claims')];

describe('FindingsTable', () => {
  it("labels a superseded version's finding in words, and keeps showing the other findings' attribute as it is", async () => {
    const { container } = await renderView(<FindingsTable instanceId="in_1" findings={FINDINGS} />);
    const superseded = container.querySelector('[data-finding-id="fa_1"]') as HTMLElement;
    expect(within(superseded).getByText('Superseded version')).toBeTruthy();
    expect(within(superseded).queryByText('superseded')).toBeNull();
    const other = container.querySelector('[data-finding-id="fa_2"]') as HTMLElement;
    expect(within(other).getByText('claim deadline')).toBeTruthy();
    expect(screen.getAllByText('Superseded version')).toHaveLength(1);
  });

  it('speaks French', async () => {
    const { container } = await renderView(<FindingsTable instanceId="in_1" findings={FINDINGS} />, { language: 'fr' });
    expect(within(container.querySelector('[data-finding-id="fa_1"]') as HTMLElement).getByText('Version remplacée')).toBeTruthy();
    expect(within(container.querySelector('[data-finding-id="fa_2"]') as HTMLElement).getByText('claim deadline')).toBeTruthy();
  });
});

describe('findingAttributeText (the finding view)', () => {
  it("says what a superseded version's finding is, in the user's language; other attributes as the service names them", async () => {
    await renderView(null);
    const i18n = (await import('i18next')).default;
    await i18n.changeLanguage('en');
    expect(findingAttributeText('superseded', i18n.t, true)).toBe('Superseded version: an older version of a document is still in the repository');
    expect(findingAttributeText('claim deadline', i18n.t, true)).toBe('Attribute: claim deadline');
    await i18n.changeLanguage('fr');
    expect(findingAttributeText('superseded', i18n.t, true)).toBe('Version remplacée\u00a0: une ancienne version d’un document est encore dans le référentiel');
    expect(findingAttributeText('superseded', i18n.t)).toBe('Version remplacée');
    expect(findingAttributeText('claim deadline', i18n.t, true)).toBe('Attribut\u00a0: claim deadline');
  });
});
