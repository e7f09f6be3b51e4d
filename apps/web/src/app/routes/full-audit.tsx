import { Checkbox, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Loading } from '@/components/loading';
import { Pager } from '@/components/pager';
import { useFindings } from '@/features/full-audit/api/findings';
import { useScanStatus } from '@/features/full-audit/api/get-scan-status';
import { FindingsTable } from '@/features/full-audit/components/findings-table';
import { ScanProgressView } from '@/features/full-audit/components/scan-progress';
import { FINDING_FILTERS } from '@/features/full-audit/finding-states';
import { useDocumentTitle } from '@/lib/use-document-title';

const route = getRouteApi('/instances/$instanceId/full-audit');

/** The findings, once have-to-show says the first scan completed; until then, the scan's progress. */
export function FullAuditPage() {
  const { t } = useTranslation();
  const { instanceId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const status = useScanStatus(instanceId);
  const show = status.data?.show === true;
  const findings = useFindings(instanceId, search, show);
  useDocumentTitle(t('fullAudit.title'));
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {t('fullAudit.title')}
        </Title>
        {show && (
          <Group align="flex-end">
            <Checkbox
              label={t('fullAudit.onlyLinked')}
              checked={search.linked === true}
              onChange={(e) => void navigate({ search: { ...search, linked: e.currentTarget.checked || undefined, page: undefined } })}
              mb={8}
            />
            <Select
              label={t('fullAudit.filter')}
              value={search.state ?? 'unresolved'}
              onChange={(value) => void navigate({ search: { ...search, state: FINDING_FILTERS.find((s) => s === value && s !== 'unresolved'), page: undefined } })}
              data={FINDING_FILTERS.map((s) => ({ value: s, label: t(`fullAudit.filters.${s}`) }))}
              allowDeselect={false}
              w={220}
            />
          </Group>
        )}
      </Group>
      {status.isPending ? (
        <Loading />
      ) : status.isError ? (
        <ErrorAlert error={status.error} />
      ) : (
        <Paper withBorder p="sm">
          <ScanProgressView status={status.data} />
        </Paper>
      )}
      {status.data && !show && <Text>{t('fullAudit.notYet')}</Text>}
      {show &&
        (findings.isPending ? (
          <Loading />
        ) : findings.isError ? (
          <ErrorAlert error={findings.error} />
        ) : (
          <>
            <FindingsTable instanceId={instanceId} findings={findings.data.items} />
            <Pager total={findings.data.total} page={search.page ?? 1} onChange={(page) => void navigate({ search: { ...search, page } })} />
          </>
        ))}
    </Stack>
  );
}
