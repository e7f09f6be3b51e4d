import { Box, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { StepBadge } from '@/components/step-badge';
import type { DashboardEntry } from '../api/get-dashboard';

type Counter = 'unresolved_question_conflicts' | 'unresolved_full_audit_conflicts' | 'pending_mandatory_questions' | 'pending_missing_subjects' | 'pending_duplicate_clusters';

/** The counters of one instance, each linking to the list that holds the work when that list exists. */
const COUNTERS: ReadonlyArray<{ key: Counter; to?: '/instances/$instanceId/conflicts' | '/instances/$instanceId/full-audit' | '/instances/$instanceId/questions' }> = [
  { key: 'unresolved_question_conflicts', to: '/instances/$instanceId/conflicts' },
  { key: 'unresolved_full_audit_conflicts', to: '/instances/$instanceId/full-audit' },
  { key: 'pending_mandatory_questions', to: '/instances/$instanceId/questions' },
  { key: 'pending_missing_subjects' },
  { key: 'pending_duplicate_clusters' },
];

/**
 * Every instance the user can access, newest first as the API lists them, with what is left to do
 * on it. `progress` renders the running work of an instance (composed by the route).
 */
export function InstanceCards({ entries, progress }: { entries: readonly DashboardEntry[]; progress?: (instanceId: string) => ReactNode }) {
  const { t } = useTranslation();
  if (entries.length === 0) return <Text>{t('dashboard.empty')}</Text>;
  return (
    <Stack gap="md">
      {entries.map((entry) => (
        <Card key={entry.instance_id} withBorder padding="lg" component="section" aria-labelledby={`instance-${entry.instance_id}`}>
          <Group justify="space-between" align="flex-start" mb="sm">
            <Title order={2} size="h3" id={`instance-${entry.instance_id}`}>
              <AnchorLink to="/instances/$instanceId" params={{ instanceId: entry.instance_id }} inherit>
                {entry.name}
              </AnchorLink>
            </Title>
            <StepBadge step={entry.step} />
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm" component="dl" m={0}>
            {COUNTERS.map(({ key, to }) => (
              // A label on two lines (French) must not push its number below the others.
              <Stack key={key} data-counter={key} gap={0} justify="space-between">
                <Text component="dt" size="xs" c="dimmed">
                  {t(`dashboard.counters.${key}`)}
                </Text>
                <Text component="dd" m={0} fw={700} fz="xl">
                  {to && entry[key] > 0 ? (
                    <AnchorLink to={to} params={{ instanceId: entry.instance_id }} inherit>
                      {entry[key]}
                    </AnchorLink>
                  ) : (
                    entry[key]
                  )}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
          {progress && <Box mt="sm">{progress(entry.instance_id)}</Box>}
        </Card>
      ))}
    </Stack>
  );
}
