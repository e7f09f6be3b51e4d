import { Anchor, Button, Card, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { ANSWER_FIELD_ID, AnswerForm } from '@/components/answer-form';
import { ErrorAlert } from '@/components/error-alert';
import { HighlightedExcerpt } from '@/components/highlighted-excerpt';
import { Loading } from '@/components/loading';
import { RecommendationList } from '@/components/recommendation-list';
import { StateBadge } from '@/components/state-badge';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCloseFinding, useFinding, useIgnoreFinding, useSetFindingAnswer, useSetFindingState } from '../api/findings';
import { groupByValue, UNRESOLVED_FINDING_STATES } from '../finding-states';
import { findingAttributeText } from './finding-attribute';
import { FindingIgnore } from './finding-ignore';
import { FindingOverride } from './finding-override';
import { FINDING_STATE_TONES } from './findings-table';

/**
 * One full-audit finding: the statements side by side grouped by value, the explanation, then answer,
 * close or ignore; for whom may use it (`canOverride`, an instance admin), the governance override that
 * reopens a closed or ignored finding.
 */
export function FindingView({ instanceId, findingId, canOverride = false }: { instanceId: string; findingId: string; canOverride?: boolean }) {
  const { t } = useTranslation();
  const finding = useFinding(instanceId, findingId);
  const setAnswer = useSetFindingAnswer(instanceId, findingId);
  const close = useCloseFinding(instanceId, findingId);
  const ignore = useIgnoreFinding(instanceId, findingId);
  const setState = useSetFindingState(instanceId, findingId);
  // The expert's draft answer; until they type or pick a group, the answer already set.
  const [draft, setDraft] = useState<string>();
  useDocumentTitle(finding.data ? t('finding.title', { subject: finding.data.subject }) : t('finding.loadingTitle'));

  if (finding.isPending) return <Loading />;
  if (finding.isError) return <ErrorAlert error={finding.error} />;
  const f = finding.data;
  const open = UNRESOLVED_FINDING_STATES.includes(f.state);
  const groups = groupByValue(f.excerpts);
  const recommendations = f.compagnon_recommendations.length > 0 ? f.compagnon_recommendations : (setAnswer.data?.recommendations ?? []);
  const choose = (value: string) => {
    setDraft(value);
    document.getElementById(ANSWER_FIELD_ID)?.focus();
  };
  return (
    <Stack gap="lg">
      <div>
        <AnchorLink to="/instances/$instanceId/full-audit" params={{ instanceId }} size="sm">
          {t('finding.back')}
        </AnchorLink>
        <Group justify="space-between" align="flex-start" mt="xs">
          <Title order={1} size="h2">
            {f.subject}
          </Title>
          <StateBadge label={t(`fullAudit.states.${f.state}`)} tone={FINDING_STATE_TONES[f.state]} />
        </Group>
        <Text size="sm" c="dimmed">
          {findingAttributeText(f.attribute, t, true)}
        </Text>
      </div>

      <Paper withBorder p="md" component="section" aria-labelledby="explanation-title">
        <Title order={2} size="h3" id="explanation-title" mb="xs">
          {t('finding.explanation')}
        </Title>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{f.explanation}</Text>
      </Paper>

      <section aria-labelledby="statements-title">
        <Title order={2} size="h3" id="statements-title" mb="sm">
          {t('finding.statementsTitle', { values: groups.length, documents: f.documents.length })}
        </Title>
        <SimpleGrid cols={{ base: 1, md: Math.min(3, Math.max(1, groups.length)) }} spacing="md">
          {groups.map((group, index) => (
            <Card key={group.value} withBorder padding="md" component="section" aria-labelledby={`value-${index}`} data-value-group={group.value}>
              <Group justify="space-between" align="flex-start" mb="xs" wrap="nowrap">
                <div>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                    {t('finding.valueLabel', { index: index + 1, total: groups.length })}
                  </Text>
                  <Title order={3} size="h4" id={`value-${index}`}>
                    {group.value}
                  </Title>
                </div>
                {open && (
                  <Button size="xs" variant="light" onClick={() => choose(group.value)} aria-label={t('conflict.chooseLabel', { answer: group.value })}>
                    {t('conflict.choose')}
                  </Button>
                )}
              </Group>
              <Stack gap="sm">
                {group.excerpts.map((excerpt) => (
                  <Card key={excerpt.semantic_node_id} withBorder padding="sm" component="article" bg="var(--mantine-color-gray-0)">
                    {excerpt.document_url ? (
                      <Anchor href={excerpt.document_url} target="_blank" rel="noreferrer noopener" fw={600} size="sm">
                        {excerpt.document_name}
                      </Anchor>
                    ) : (
                      <Text fw={600} size="sm">
                        {excerpt.document_name}
                      </Text>
                    )}
                    <HighlightedExcerpt text={excerpt.text} start={excerpt.value_start} end={excerpt.value_end} />
                  </Card>
                ))}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </section>

      {(f.compagnon_questions.length > 0 || f.linked_questions.length > 0) && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {f.compagnon_questions.length > 0 && (
            <section aria-labelledby="finding-companions">
              <Title order={2} size="h3" id="finding-companions" mb="xs">
                {t('finding.companions')}
              </Title>
              <List>
                {f.compagnon_questions.map((q) => (
                  <List.Item key={q}>{q}</List.Item>
                ))}
              </List>
            </section>
          )}
          {f.linked_questions.length > 0 && (
            <section aria-labelledby="finding-linked">
              <Title order={2} size="h3" id="finding-linked" mb="xs">
                {t('finding.linked')}
              </Title>
              <List>
                {f.linked_questions.map((q) => (
                  <List.Item key={q.question_id}>{q.question}</List.Item>
                ))}
              </List>
            </section>
          )}
        </SimpleGrid>
      )}

      <Paper withBorder p="md" component="section" aria-labelledby="finding-answer-title">
        <Title order={2} size="h3" id="finding-answer-title" mb="xs">
          {t('conflict.answerTitle')}
        </Title>
        {f.answer && (
          <Text mb="sm">
            {t('conflict.currentAnswer')} <strong>{f.answer}</strong>
          </Text>
        )}
        {open ? (
          <AnswerForm value={draft ?? f.answer ?? ''} onChange={setDraft} onSubmit={(a) => setAnswer.mutate(a)} pending={setAnswer.isPending} label={t('conflict.answerLabel')} />
        ) : (
          <Text c="dimmed">{t(`finding.resolved.${f.state as 'MANAGED' | 'IGNORED' | 'DISAPPEARED'}`)}</Text>
        )}
        {setAnswer.isPending && (
          <Text size="sm" c="dimmed" role="status">
            {t('conflict.analysing')}
          </Text>
        )}
        {setAnswer.isError && <ErrorAlert error={setAnswer.error} />}
      </Paper>

      {recommendations.length > 0 && (
        <section aria-labelledby="finding-recommendations-title">
          <Title order={2} size="h3" id="finding-recommendations-title" mb="sm">
            {t('recommendations.title', { count: recommendations.length })}
          </Title>
          <RecommendationList recommendations={recommendations} />
        </section>
      )}

      {open && (
        <Group>
          <Button onClick={() => close.mutate()} loading={close.isPending}>
            {t('finding.close')}
          </Button>
          <FindingIgnore subject={f.subject} onIgnore={() => ignore.mutateAsync()} onOpen={() => ignore.reset()} pending={ignore.isPending} error={ignore.error} />
        </Group>
      )}
      {close.isError && <ErrorAlert error={close.error} />}
      <FindingOverride state={f.state} allowed={canOverride} onReopen={() => setState.mutate('detected')} pending={setState.isPending} error={setState.error} />
    </Stack>
  );
}
