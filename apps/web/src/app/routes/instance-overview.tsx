import { Paper, Stack, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Loading } from '@/components/loading';
import { ScanProgress } from '@/features/full-audit/components/scan-progress';
import { useFilteredStats } from '@/features/instances/api/get-filtered-stats';
import { StatsGrid } from '@/features/instances/components/stats-grid';
import { useDocumentTitle } from '@/lib/use-document-title';

const route = getRouteApi('/instances/$instanceId/');

export function InstanceOverviewPage() {
  const { t } = useTranslation();
  const { instanceId } = route.useParams();
  const stats = useFilteredStats(instanceId);
  useDocumentTitle(t('instance.overviewTitle'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('instance.overviewTitle')}
      </Title>
      {stats.isPending ? <Loading /> : stats.isError ? <ErrorAlert error={stats.error} /> : <StatsGrid stats={stats.data} />}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          {t('fullAudit.scan.title')}
        </Title>
        <ScanProgress instanceId={instanceId} />
      </Paper>
    </Stack>
  );
}
