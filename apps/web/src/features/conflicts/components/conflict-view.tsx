import { Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { ANSWER_FIELD_ID, AnswerForm } from '@/components/answer-form';
import { ErrorAlert } from '@/components/error-alert';
import { Loading } from '@/components/loading';
import { RecommendationList } from '@/components/recommendation-list';
import { StateBadge } from '@/components/state-badge';
import { TONES } from '@/lib/theme';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCloseConflict, useConflict, useIgnoreConflict, useSetConflictAnswer } from '../api/conflicts';
import { canClose, isOpenForWork } from '../conflict-states';
import { AnswerGroups } from './answer-groups';
import { CONFLICT_STATE_TONES } from './conflicts-table';

/** One question conflict: its answer groups side by side, the expert's answer, the recommendations, close or ignore. */
export function ConflictView({ instanceId, conflictId }: { instanceId: string; conflictId: string }) {
  const { t } = useTranslation();
  const conflict = useConflict(instanceId, conflictId);
  const setAnswer = useSetConflictAnswer(instanceId, conflictId);
  const close = useCloseConflict(instanceId, conflictId);
  const ignore = useIgnoreConflict(instanceId, conflictId);
  // The expert's draft answer; until they type or pick a group, the answer already set.
  const [draft, setDraft] = useState<string>();
  useDocumentTitle(conflict.data ? t('conflict.title', { question: conflict.data.question }) : t('conflict.loadingTitle'));

  if (conflict.isPending) return <Loading />;
  if (conflict.isError) return <ErrorAlert error={conflict.error} />;
  const c = conflict.data;
  const open = isOpenForWork(c.state);
  const choose = (answer: string) => {
    setDraft(answer);
    document.getElementById(ANSWER_FIELD_ID)?.focus();
  };
  // set-answer returns the recommendations at once; the conflict's own list catches up on the refetch.
  const recommendations = c.recommendations.length > 0 ? c.recommendations : (setAnswer.data?.recommendations ?? []);
  return (
    <Stack gap="lg">
      <div>
        <AnchorLink to="/instances/$instanceId/conflicts" params={{ instanceId }} size="sm">
          {t('conflict.back')}
        </AnchorLink>
        <Group justify="space-between" align="flex-start" mt="xs">
          <Title order={1} size="h2">
            {c.question}
          </Title>
          <StateBadge label={t(`conflicts.states.${c.state}`)} tone={CONFLICT_STATE_TONES[c.state]} />
        </Group>
        {c.scope.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('common.scope', { scope: c.scope.join(', ') })}
          </Text>
        )}
      </div>

      <section aria-labelledby="groups-title">
        <Title order={2} size="h3" id="groups-title" mb="sm">
          {t('conflict.groupsTitle', { count: c.answer_groups.length })}
        </Title>
        <AnswerGroups conflict={c} onChoose={open ? choose : undefined} />
      </section>

      {c.compagnon_questions.length > 0 && (
        <section aria-labelledby="companions-title">
          <Title order={2} size="h3" id="companions-title" mb="xs">
            {t('conflict.companionsTitle')}
          </Title>
          <List>
            {c.compagnon_questions.map((q) => (
              <List.Item key={q}>{q}</List.Item>
            ))}
          </List>
        </section>
      )}

      <Paper withBorder p="md" component="section" aria-labelledby="answer-title">
        <Title order={2} size="h3" id="answer-title" mb="xs">
          {t('conflict.answerTitle')}
        </Title>
        {c.answer && (
          <Text mb="sm">
            {t('conflict.currentAnswer')} <strong>{c.answer}</strong>
          </Text>
        )}
        {open ? (
          <AnswerForm value={draft ?? c.answer ?? ''} onChange={setDraft} onSubmit={(a) => setAnswer.mutate(a)} pending={setAnswer.isPending} label={t('conflict.answerLabel')} />
        ) : (
          <Text c="dimmed">{t('conflict.closedNote')}</Text>
        )}
        {setAnswer.isPending && (
          <Text size="sm" c="dimmed" role="status">
            {t('conflict.analysing')}
          </Text>
        )}
        {setAnswer.isError && <ErrorAlert error={setAnswer.error} />}
        {setAnswer.isSuccess && setAnswer.data.recommendations.length === 0 && (
          <Text size="sm" c={TONES.problem} role="status">
            {t('conflict.noRecommendations')}
          </Text>
        )}
      </Paper>

      {recommendations.length > 0 && (
        <section aria-labelledby="recommendations-title">
          <Title order={2} size="h3" id="recommendations-title" mb="sm">
            {t('recommendations.title', { count: recommendations.length })}
          </Title>
          <RecommendationList recommendations={recommendations} />
        </section>
      )}

      {open && (
        <Group>
          <Button onClick={() => close.mutate()} loading={close.isPending} disabled={!canClose(c.state)} title={canClose(c.state) ? undefined : t('conflict.closeNeedsAnswer')}>
            {t('conflict.close')}
          </Button>
          <Button variant="default" onClick={() => ignore.mutate()} loading={ignore.isPending}>
            {t('conflict.ignore')}
          </Button>
          {!canClose(c.state) && (
            <Text size="sm" c="dimmed">
              {t('conflict.closeNeedsAnswer')}
            </Text>
          )}
        </Group>
      )}
      {close.isError && <ErrorAlert error={close.error} />}
      {ignore.isError && <ErrorAlert error={ignore.error} />}
    </Stack>
  );
}
