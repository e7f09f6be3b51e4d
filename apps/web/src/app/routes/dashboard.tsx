import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Loading } from '@/components/loading';
import { useDashboard } from '@/features/dashboard/api/get-dashboard';
import { InstanceCards } from '@/features/dashboard/components/instance-cards';
import { ScanProgress } from '@/features/full-audit/components/scan-progress';
import { useDocumentTitle } from '@/lib/use-document-title';

export function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  useDocumentTitle(t('dashboard.title'));
  return (
    <Stack gap="md">
      <Title order={1}>{t('dashboard.title')}</Title>
      {dashboard.isPending ? (
        <Loading />
      ) : dashboard.isError ? (
        <ErrorAlert error={dashboard.error} />
      ) : (
        <InstanceCards entries={dashboard.data} progress={(instanceId) => <ScanProgress instanceId={instanceId} />} />
      )}
    </Stack>
  );
}
