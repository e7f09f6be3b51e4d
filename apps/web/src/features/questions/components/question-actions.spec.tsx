import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ApiError } from '@/lib/api-error';
import { renderView } from '@/testing/render';
import type { MandatoryQuestion } from '../question-states';
import { QuestionActions } from './question-actions';

const QUESTION: MandatoryQuestion = {
  id: 'mq_1',
  instance_id: 'ki_1',
  question: 'Who approves travel?',
  state: 'CONFLICTS',
  answer: null,
  conflict_count: 2,
  compagnon_questions: [],
  created_at: '2025-04-01T00:00:00Z',
  updated_at: '2025-04-01T00:00:00Z',
  analyzed_at: '2025-04-01T00:00:00Z',
  version: 1,
};

describe('QuestionActions', () => {
  it("sets the expert's answer from a dialog, which closes once the change is made", async () => {
    const answers: string[] = [];
    await renderView(<QuestionActions question={QUESTION} onAnswer={async (a) => void answers.push(a)} onSetState={async () => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Answer: Who approves travel?' }));
    const field = await screen.findByRole('textbox', { name: 'Answer' });
    fireEvent.change(field, { target: { value: '  The line manager.  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the answer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers).toEqual(['The line manager.']);
  });

  it('asks before ignoring or marking managed, and does nothing when cancelled', async () => {
    const states: string[] = [];
    await renderView(<QuestionActions question={QUESTION} onAnswer={async () => undefined} onSetState={async (s) => void states.push(s)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore: Who approves travel?' }));
    expect((await screen.findByRole('dialog', { name: 'Ignore the question?' })).textContent).toContain('leaves the worklist');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Mark managed: Who approves travel?' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Close the dialog' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(states).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Ignore: Who approves travel?' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Ignore the question' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Mark managed: Who approves travel?' }));
    await screen.findByRole('dialog', { name: 'Mark the question managed?' });
    fireEvent.click(screen.getByRole('button', { name: 'Mark managed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(states).toEqual(['IGNORED', 'MANAGED']);
  });

  it("keeps the dialog open with the service's error and its hint", async () => {
    const refused = new ApiError({ status: 403, code: 'AUTH.ROLE_NOT_ALLOWED', detail: 'Your role cannot govern this instance.', hint: 'Ask an instance admin.' });
    await renderView(<QuestionActions question={QUESTION} onAnswer={async () => undefined} onSetState={() => Promise.reject(refused)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ignore: Who approves travel?' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Ignore the question' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your role cannot govern this instance.');
    expect(alert.textContent).toContain('Ask an instance admin.');
    expect(screen.getByRole('dialog', { name: 'Ignore the question?' })).toBeTruthy();
  });

  it('offers only what changes something: no answer, managed or ignore on a question already in that state', async () => {
    await renderView(<QuestionActions question={{ ...QUESTION, state: 'IGNORED' }} onAnswer={async () => undefined} onSetState={async () => undefined} />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Mark managed']);
  });

  it('speaks French', async () => {
    await renderView(<QuestionActions question={QUESTION} onAnswer={async () => undefined} onSetState={async () => undefined} />, { language: 'fr' });
    fireEvent.click(screen.getByRole('button', { name: 'Ignorer\u00a0: Who approves travel?' }));
    expect(await screen.findByRole('dialog', { name: 'Ignorer la question\u00a0?' })).toBeTruthy();
  });
});
