import { Button, Group, Modal, Text, Textarea } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANSWER_MAX } from '@/components/answer-form';
import { ErrorAlert } from '@/components/error-alert';
import { TONES } from '@/lib/theme';
import type { MandatoryQuestion } from '../question-states';

type Dialog = 'answer' | 'MANAGED' | 'IGNORED';

/**
 * What an expert does with one mandatory question besides analysing it again: set its answer, mark it
 * managed, or ignore it. Each opens a dialog; marking managed and ignoring take the question off the
 * worklist, so they ask for a confirmation. The dialog stays open with the service's error until it
 * succeeds, and closes once the change is made (the list has been refetched by then).
 */
export function QuestionActions({
  question,
  onAnswer,
  onSetState,
}: {
  question: MandatoryQuestion;
  onAnswer: (answer: string) => Promise<unknown>;
  onSetState: (state: 'MANAGED' | 'IGNORED') => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>();
  // The confirmation's kind outlives its dialog: the closing transition keeps its own title and words.
  const [confirming, setConfirming] = useState<'MANAGED' | 'IGNORED'>('IGNORED');
  const [answer, setAnswer] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();

  const open = (which: Dialog) => {
    setError(undefined);
    if (which === 'answer') setAnswer(question.answer ?? '');
    else setConfirming(which);
    setDialog(which);
  };
  const run = async (action: () => Promise<unknown>) => {
    setPending(true);
    setError(undefined);
    try {
      await action();
      setDialog(undefined);
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  const submitAnswer = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = answer.trim();
    if (trimmed) void run(() => onAnswer(trimmed));
  };
  const closeDialog = () => !pending && setDialog(undefined);
  const resolved = question.state === 'MANAGED' || question.state === 'IGNORED';

  return (
    <>
      <Group gap="xs" wrap="nowrap">
        {!resolved && (
          <Button size="xs" variant="light" onClick={() => open('answer')} aria-label={t('questions.actions.answerLabel', { question: question.question })}>
            {t('questions.actions.answer')}
          </Button>
        )}
        {question.state !== 'MANAGED' && (
          <Button size="xs" variant="default" onClick={() => open('MANAGED')} aria-label={t('questions.actions.managedLabel', { question: question.question })}>
            {t('questions.actions.managed')}
          </Button>
        )}
        {question.state !== 'IGNORED' && (
          <Button size="xs" variant="default" onClick={() => open('IGNORED')} aria-label={t('questions.actions.ignoreLabel', { question: question.question })}>
            {t('questions.actions.ignore')}
          </Button>
        )}
      </Group>

      <Modal opened={dialog === 'answer'} onClose={closeDialog} closeButtonProps={{ 'aria-label': t('questions.actions.closeDialog') }} title={t('questions.actions.answerTitle')} size="lg">
        <form onSubmit={submitAnswer}>
          <Text fw={500} mb="sm">
            {question.question}
          </Text>
          <Textarea
            label={t('questions.actions.answerField')}
            description={t('questions.actions.answerDescription')}
            value={answer}
            onChange={(e) => setAnswer(e.currentTarget.value)}
            maxLength={ANSWER_MAX}
            autosize
            minRows={3}
            data-autofocus
          />
          {error ? <ErrorAlert error={error} /> : null}
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={closeDialog} disabled={pending}>
              {t('questions.actions.cancel')}
            </Button>
            <Button type="submit" loading={pending} disabled={!answer.trim()}>
              {t('questions.actions.saveAnswer')}
            </Button>
          </Group>
        </form>
      </Modal>

      <Modal
        opened={dialog === 'MANAGED' || dialog === 'IGNORED'}
        onClose={closeDialog}
        closeButtonProps={{ 'aria-label': t('questions.actions.closeDialog') }}
        title={confirming === 'IGNORED' ? t('questions.actions.ignoreTitle') : t('questions.actions.managedTitle')}
      >
        <Text fw={500} mb="xs">
          {question.question}
        </Text>
        <Text size="sm" mb="md">
          {confirming === 'IGNORED' ? t('questions.actions.ignoreConfirm') : t('questions.actions.managedConfirm')}
        </Text>
        {error ? <ErrorAlert error={error} /> : null}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={closeDialog} disabled={pending} data-autofocus>
            {t('questions.actions.cancel')}
          </Button>
          <Button color={confirming === 'IGNORED' ? TONES.problem : undefined} loading={pending} onClick={() => void run(() => onSetState(confirming))}>
            {confirming === 'IGNORED' ? t('questions.actions.ignoreSubmit') : t('questions.actions.managedSubmit')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
