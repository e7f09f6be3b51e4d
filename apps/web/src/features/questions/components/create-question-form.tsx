import { Button, Group, Textarea } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';

/** Limits of the create operation's body (its OpenAPI schema: 3 to 2000 characters). */
export const QUESTION_MIN = 3;
export const QUESTION_MAX = 2000;

/** A new mandatory question; its analysis starts at once on the service. */
export function CreateQuestionForm({ onCreate, pending, error }: { onCreate: (question: string) => Promise<unknown>; pending: boolean; error: unknown }) {
  const { t } = useTranslation();
  const [question, setQuestion] = useState('');
  const trimmed = question.trim();
  const tooShort = trimmed.length > 0 && trimmed.length < QUESTION_MIN;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (trimmed.length < QUESTION_MIN) return;
    await onCreate(trimmed);
    setQuestion('');
  };
  return (
    <form onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label={t('questions.create.title')}>
      <Textarea
        label={t('questions.create.label')}
        description={t('questions.create.description')}
        value={question}
        onChange={(e) => setQuestion(e.currentTarget.value)}
        maxLength={QUESTION_MAX}
        autosize
        minRows={2}
        error={tooShort ? t('questions.create.tooShort', { min: QUESTION_MIN }) : undefined}
      />
      {error ? <ErrorAlert error={error} /> : null}
      <Group justify="flex-end" mt="sm">
        <Button type="submit" loading={pending} disabled={trimmed.length < QUESTION_MIN}>
          {t('questions.create.submit')}
        </Button>
      </Group>
    </form>
  );
}
