import { fireEvent, screen, within } from '@testing-library/react';
import { renderView } from '@/testing/render';
import type { MandatoryQuestion } from '../question-states';
import { QuestionsTable } from './questions-table';

const question = (id: string, text: string, state: MandatoryQuestion['state'], conflicts = 0): MandatoryQuestion => ({
  id,
  instance_id: 'ki_1',
  question: text,
  state,
  answer: null,
  conflict_count: conflicts,
  compagnon_questions: [],
  created_at: '2025-04-01T00:00:00Z',
  updated_at: '2025-04-01T00:00:00Z',
  analyzed_at: state === 'PENDING' ? null : '2025-04-01T00:00:00Z',
  version: 1,
});

const QUESTIONS = [question('mq_1', 'How long is parental leave?', 'REFUSED'), question('mq_2', 'Within how many days are expense claims due?', 'CONFLICTS', 1), question('mq_3', 'Who approves travel?', 'PENDING')];

describe('QuestionsTable', () => {
  it('shows each question with its state and conflicts, and offers to analyse again only a REFUSED one', async () => {
    const forced: string[] = [];
    await renderView(<QuestionsTable instanceId="ki_1" questions={QUESTIONS} onForceAnalyze={(id) => forced.push(id)} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]?.textContent)).toEqual(['Not answered', 'Conflicts', 'Pending']);
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: '1 conflict' })).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Not yet')).toBeTruthy();
    expect(screen.getAllByRole('button')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Analyse again: How long is parental leave?' }));
    expect(forced).toEqual(['mq_1']);
  });

  it("puts the page's other actions in each row, next to analyse again", async () => {
    await renderView(<QuestionsTable instanceId="ki_1" questions={QUESTIONS} onForceAnalyze={() => undefined} renderActions={(q) => <button type="button">{`More: ${q.id}`}</button>} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('button').map((b) => b.textContent))).toEqual([['Analyse again', 'More: mq_1'], ['More: mq_2'], ['More: mq_3']]);
  });

  it('speaks French', async () => {
    await renderView(<QuestionsTable instanceId="ki_1" questions={QUESTIONS} onForceAnalyze={() => undefined} />, { language: 'fr' });
    expect(screen.getByText('Sans réponse')).toBeTruthy();
    expect(screen.getByRole('link', { name: '1\u00a0conflit' })).toBeTruthy();
  });
});
