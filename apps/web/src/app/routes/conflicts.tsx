import { Group, Select, Stack, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Loading } from '@/components/loading';
import { Pager } from '@/components/pager';
import { useConflicts } from '@/features/conflicts/api/conflicts';
import { ConflictsTable } from '@/features/conflicts/components/conflicts-table';
import { CONFLICT_FILTERS } from '@/features/conflicts/conflict-states';
import { useDocumentTitle } from '@/lib/use-document-title';

const route = getRouteApi('/instances/$instanceId/conflicts');

export function ConflictsPage() {
  const { t } = useTranslation();
  const { instanceId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const conflicts = useConflicts(instanceId, search);
  useDocumentTitle(t('conflicts.title'));
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {t('conflicts.title')}
        </Title>
        <Select
          label={t('conflicts.filter')}
          value={search.state ?? 'unresolved'}
          onChange={(value) => void navigate({ search: { state: CONFLICT_FILTERS.find((s) => s === value && s !== 'unresolved'), page: undefined } })}
          data={CONFLICT_FILTERS.map((s) => ({ value: s, label: t(`conflicts.filters.${s}`) }))}
          allowDeselect={false}
          w={240}
        />
      </Group>
      {conflicts.isPending ? (
        <Loading />
      ) : conflicts.isError ? (
        <ErrorAlert error={conflicts.error} />
      ) : (
        <>
          <ConflictsTable instanceId={instanceId} conflicts={conflicts.data.items} />
          <Pager total={conflicts.data.total} page={search.page ?? 1} onChange={(page) => void navigate({ search: { ...search, page } })} />
        </>
      )}
    </Stack>
  );
}
