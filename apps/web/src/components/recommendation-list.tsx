import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StateBadge } from '@/components/state-badge';
import { TextDiff } from '@/components/text-diff';
import { formatDuration } from '@/lib/format';

/** What a recommendation holds for either kind of conflict (question conflicts and full-audit findings share the shape). */
export interface RecommendationLike {
  id: string;
  document_name: string;
  document_url: string | null;
  action: 'KEEP' | 'UPDATE' | 'DELETE';
  excerpt: string;
  proposed_text: string | null;
  reason: string;
  estimated_seconds: number;
}

const ACTION_TONES = { KEEP: 'done', UPDATE: 'todo', DELETE: 'problem' } as const;

/** One card per document: keep it, update it (the proposed text as a difference against the excerpt) or delete it. */
export function RecommendationList({ recommendations }: { recommendations: readonly RecommendationLike[] }) {
  const { t, i18n } = useTranslation();
  const total = recommendations.filter((r) => r.action !== 'KEEP').reduce((sum, r) => sum + r.estimated_seconds, 0);
  return (
    <Stack gap="sm">
      {total > 0 && <Text size="sm">{t('recommendations.totalTime', { time: formatDuration(total, i18n.language) })}</Text>}
      {recommendations.map((r) => (
        <Card key={r.id} withBorder padding="md" component="article" data-recommendation={r.action} aria-label={t('recommendations.cardLabel', { action: t(`recommendations.actions.${r.action}`), document: r.document_name })}>
          <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
            <Group gap="xs">
              <StateBadge label={t(`recommendations.actions.${r.action}`)} tone={ACTION_TONES[r.action]} />
              {r.document_url ? (
                <Anchor href={r.document_url} target="_blank" rel="noreferrer noopener" fw={600}>
                  {r.document_name}
                </Anchor>
              ) : (
                <Text fw={600}>{r.document_name}</Text>
              )}
            </Group>
            {r.action !== 'KEEP' && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t('recommendations.estimated', { time: formatDuration(r.estimated_seconds, i18n.language) })}
              </Text>
            )}
          </Group>
          {r.action === 'UPDATE' && r.proposed_text !== null ? (
            <>
              <Text size="xs" c="dimmed" fw={700} tt="uppercase">
                {t('recommendations.proposedChange')}
              </Text>
              <TextDiff original={r.excerpt} proposed={r.proposed_text} />
            </>
          ) : r.action === 'DELETE' ? (
            <p className="excerpt text-diff">
              <del>{r.excerpt}</del>
            </p>
          ) : (
            <p className="excerpt">{r.excerpt}</p>
          )}
          {r.action === 'UPDATE' && r.proposed_text === null && (
            <Text size="sm" fw={500}>
              {t('recommendations.noProposal')}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {r.reason}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}
