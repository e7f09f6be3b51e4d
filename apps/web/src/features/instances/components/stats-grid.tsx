import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '@/lib/format';
import type { FilteredStats } from '../api/get-filtered-stats';

const SHOWN: ReadonlyArray<keyof FilteredStats> = [
  'total_questions',
  'questions_with_conflicts_to_manage',
  'questions_without_conflicts',
  'questions_not_analyzed_yet',
  'managed_questions',
  'total_conflicts',
  'missing_subjects_count',
  'total_documents',
  'documents_with_unmanaged_conflicts',
  'documents_to_update_count',
  'estimated_total_update_time',
];

/** The instance's filtered stats (what is left to do), one tile each. */
export function StatsGrid({ stats }: { stats: FilteredStats }) {
  const { t, i18n } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" component="dl" m={0}>
      {SHOWN.map((key) => (
        <Paper key={key} withBorder p="sm" data-stat={key}>
          <Text component="dt" size="xs" c="dimmed">
            {t(`stats.${key}`)}
          </Text>
          <Text component="dd" m={0} fw={700} fz="lg">
            {key === 'estimated_total_update_time' ? (stats[key] > 0 ? formatDuration(stats[key], i18n.language) : '0') : stats[key]}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
