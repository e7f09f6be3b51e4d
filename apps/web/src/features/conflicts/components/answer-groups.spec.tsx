import { fireEvent, screen, within } from '@testing-library/react';
import { renderView } from '@/testing/render';
import type { QuestionConflict } from '../conflict-states';
import { AnswerGroups } from './answer-groups';

const excerpt = (document: string, text: string, span: string, date: string | null = null) => ({
  semantic_node_id: `sn_${document}`,
  document_id: `kd_${document}`,
  document_name: document,
  document_url: document === 'Travel expenses' ? 'https://intranet.example.com/travel' : null,
  document_date: date,
  text,
  extracted_answer: span,
  answer_start: text.indexOf(span),
  answer_end: text.indexOf(span) + span.length,
  normalized_value: span,
  scope: [],
});

export const CONFLICT: QuestionConflict = {
  id: 'qc_1',
  instance_id: 'ki_1',
  question_id: 'mq_1',
  question: 'Within how many days must expense claims be submitted?',
  state: 'OPEN',
  answer: null,
  scope: [],
  answer_groups: [
    { answer: '30 days', key: 'P30D', excerpts: [excerpt('Travel expenses', 'Submit your claim within 30 days of the trip.', 'within 30 days', '2025-03-01')] },
    { answer: '60 days', key: 'P60D', excerpts: [excerpt('Expense reimbursement', 'Claims are paid if sent within 60 days.', 'within 60 days', '2023-01-10')] },
  ],
  documents: [
    { document_id: 'kd_Travel expenses', document_name: 'Travel expenses', document_url: null, is_newest: true },
    { document_id: 'kd_Expense reimbursement', document_name: 'Expense reimbursement', document_url: null, is_newest: false },
  ],
  compagnon_questions: [],
  recommendations: [],
  created_at: '2025-04-01T00:00:00Z',
  updated_at: '2025-04-01T00:00:00Z',
  answered_at: null,
  closed_at: null,
  version: 1,
};

describe('AnswerGroups', () => {
  it('shows each answer group with its excerpts, the answering span marked, the document and which one is newest', async () => {
    await renderView(<AnswerGroups conflict={CONFLICT} />);
    const groups = screen.getAllByRole('region');
    expect(groups).toHaveLength(2);
    const [first, second] = groups as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('heading', { name: '30 days' })).toBeTruthy();
    expect(within(first).getByText('within 30 days').tagName).toBe('MARK');
    expect(within(first).getByRole('link', { name: 'Travel expenses' }).getAttribute('href')).toBe('https://intranet.example.com/travel');
    expect(within(first).getByText('Newest')).toBeTruthy();
    expect(within(second).getByText('within 60 days').tagName).toBe('MARK');
    expect(within(second).getByText('Older')).toBeTruthy();
    expect(second.textContent).toContain('Claims are paid if sent within 60 days.');
  });

  it('offers each answer as the expert answer when the conflict is open', async () => {
    const chosen: string[] = [];
    await renderView(<AnswerGroups conflict={CONFLICT} onChoose={(a) => chosen.push(a)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Use this answer: 60 days' }));
    expect(chosen).toEqual(['60 days']);
  });

  it('says nothing of newer or older when no document is known to be the newest', async () => {
    await renderView(<AnswerGroups conflict={{ ...CONFLICT, documents: CONFLICT.documents.map((d) => ({ ...d, is_newest: false })) }} />);
    expect(screen.queryByText('Older')).toBeNull();
  });

  it('speaks French', async () => {
    await renderView(<AnswerGroups conflict={CONFLICT} onChoose={() => undefined} />, { language: 'fr' });
    expect(screen.getByText('Réponse 1 sur 2')).toBeTruthy();
    expect(screen.getByText('Le plus récent')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Retenir cette réponse/ })).toHaveLength(2);
  });
});
