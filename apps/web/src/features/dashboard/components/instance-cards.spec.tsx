import { screen, within } from '@testing-library/react';
import { renderView } from '@/testing/render';
import type { DashboardEntry } from '../api/get-dashboard';
import { InstanceCards } from './instance-cards';

const ENTRIES: DashboardEntry[] = [
  { instance_id: 'ki_2', name: 'Handbook', step: 'ON_DUPLICATE_IDENTIFICATION', unresolved_question_conflicts: 0, unresolved_full_audit_conflicts: 0, pending_mandatory_questions: 0, pending_missing_subjects: 0, pending_duplicate_clusters: 0 },
  { instance_id: 'ki_1', name: 'Demo repository', step: 'RUNNING_PHASE', unresolved_question_conflicts: 4, unresolved_full_audit_conflicts: 18, pending_mandatory_questions: 5, pending_missing_subjects: 1, pending_duplicate_clusters: 5 },
];

describe('InstanceCards', () => {
  it('lists every instance in the order of the API with its step and counters, linking counters to their worklists', async () => {
    await renderView(<InstanceCards entries={ENTRIES} progress={(id) => <p>progress of {id}</p>} />);
    const cards = screen.getAllByRole('region');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Handbook', 'Demo repository']);
    const demo = cards[1] as HTMLElement;
    expect(within(demo).getByText('Running')).toBeTruthy();
    expect(within(demo).getByRole('link', { name: '4' }).getAttribute('href')).toBe('/instances/ki_1/conflicts');
    expect(within(demo).getByRole('link', { name: '18' }).getAttribute('href')).toBe('/instances/ki_1/full-audit');
    expect(within(demo).getByRole('link', { name: '5' }).getAttribute('href')).toBe('/instances/ki_1/questions');
    expect(within(demo).getByText('progress of ki_1')).toBeTruthy();
    // Nothing to do: a number, not a link.
    expect(within(cards[0] as HTMLElement).queryAllByRole('link').map((a) => a.textContent)).toEqual(['Handbook']);
    expect(within(cards[0] as HTMLElement).getByText('Finding duplicates')).toBeTruthy();
  });

  it('says when there is no instance, in French too', async () => {
    await renderView(<InstanceCards entries={[]} />, { language: 'fr' });
    expect(screen.getByText('Vous n’avez encore accès à aucune instance d’audit.')).toBeTruthy();
  });
});
