import { Button, Group, Textarea } from '@mantine/core';
import { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The answer bodies' limit (set-answer and set-expert-answer: 1 to 10000 characters). */
export const ANSWER_MAX = 10_000;

/** The field holding the expert's answer: the answer groups' "use this answer" buttons focus it. */
export const ANSWER_FIELD_ID = 'expert-answer';

/**
 * The expert's answer to a conflict, controlled by the view (an answer group picked by the expert
 * replaces the text). Setting it runs the recommendation analysis (a few seconds).
 */
export function AnswerForm({ value, onChange, onSubmit, pending, label }: { value: string; onChange: (value: string) => void; onSubmit: (answer: string) => void; pending: boolean; label: string }) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onSubmit(value.trim());
  };
  return (
    <form onSubmit={submit}>
      <Textarea label={label} description={t('answer.description')} value={value} onChange={(e) => onChange(e.currentTarget.value)} maxLength={ANSWER_MAX} autosize minRows={2} id={ANSWER_FIELD_ID} />
      <Group justify="flex-end" mt="sm">
        <Button type="submit" loading={pending} disabled={!value.trim()}>
          {t('answer.submit')}
        </Button>
      </Group>
    </form>
  );
}
