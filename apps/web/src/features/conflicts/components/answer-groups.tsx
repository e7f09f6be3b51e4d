import { Anchor, Badge, Button, Card, Group, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HighlightedExcerpt } from '@/components/highlighted-excerpt';
import { formatDay } from '@/lib/format';
import { TONES } from '@/lib/theme';
import type { AnswerGroup, QuestionConflict } from '../conflict-states';

/**
 * The answer groups side by side: each answer the documents give, with its excerpts, the answering
 * span highlighted, the document (name, link, date) and whether it is the newest of the conflict's documents.
 */
export function AnswerGroups({ conflict, onChoose }: { conflict: QuestionConflict; onChoose?: (answer: string) => void }) {
  const { t } = useTranslation();
  // Newer or older only means something when the conflict knows its newest document (dated documents).
  const newest = conflict.documents.some((d) => d.is_newest) ? new Map(conflict.documents.map((d) => [d.document_id, d.is_newest])) : new Map<string, boolean>();
  const columns = Math.min(3, Math.max(1, conflict.answer_groups.length));
  return (
    <SimpleGrid cols={{ base: 1, md: columns }} spacing="md">
      {conflict.answer_groups.map((group, index) => (
        <Card key={group.key} withBorder padding="md" component="section" aria-labelledby={`group-${index}`} data-answer-group={group.key}>
          <Group justify="space-between" align="flex-start" mb="xs" wrap="nowrap">
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                {t('conflict.groupLabel', { index: index + 1, total: conflict.answer_groups.length })}
              </Text>
              <Title order={3} size="h4" id={`group-${index}`}>
                {group.answer}
              </Title>
            </div>
            {onChoose && (
              <Button size="xs" variant="light" onClick={() => onChoose(group.answer)} aria-label={t('conflict.chooseLabel', { answer: group.answer })}>
                {t('conflict.choose')}
              </Button>
            )}
          </Group>
          <Text size="sm" c="dimmed" mb="sm">
            {t('conflict.excerptCount', { count: group.excerpts.length })}
          </Text>
          <ScrollArea.Autosize mah={520} type="auto">
            <Stack gap="sm">
              <ExcerptList group={group} newest={newest} />
            </Stack>
          </ScrollArea.Autosize>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function ExcerptList({ group, newest }: { group: AnswerGroup; newest: Map<string, boolean> }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {group.excerpts.map((excerpt) => (
        <Card key={excerpt.semantic_node_id} withBorder padding="sm" radius="sm" component="article" bg="var(--mantine-color-gray-0)">
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <div>
              {excerpt.document_url ? (
                <Anchor href={excerpt.document_url} target="_blank" rel="noreferrer noopener" fw={600} size="sm">
                  {excerpt.document_name}
                </Anchor>
              ) : (
                <Text fw={600} size="sm">
                  {excerpt.document_name}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {excerpt.document_date ? t('conflict.documentDate', { date: formatDay(excerpt.document_date, i18n.language) }) : t('conflict.noDate')}
              </Text>
            </div>
            {newest.has(excerpt.document_id) && (
              <Badge size="sm" variant="outline" color={newest.get(excerpt.document_id) ? TONES.done : TONES.neutral}>
                {newest.get(excerpt.document_id) ? t('conflict.newer') : t('conflict.older')}
              </Badge>
            )}
          </Group>
          <HighlightedExcerpt text={excerpt.text} start={excerpt.answer_start} end={excerpt.answer_end} />
        </Card>
      ))}
    </>
  );
}
