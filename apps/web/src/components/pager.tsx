import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { pageCount, PAGE_SIZE } from '@/lib/paging';

/** Pages of a list the API pages: "21-40 of 57" and the page links. */
export function Pager({ total, page, onChange }: { total: number; page: number; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  if (total === 0) return null;
  const first = (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, page * PAGE_SIZE);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {t('common.range', { first, last, total })}
      </Text>
      {total > PAGE_SIZE && (
        <Pagination
          total={pageCount(total)}
          value={page}
          onChange={onChange}
          getControlProps={(control) => ({ 'aria-label': t(control === 'next' ? 'common.nextPage' : control === 'previous' ? 'common.previousPage' : control === 'first' ? 'common.firstPage' : 'common.lastPage') })}
          getItemProps={(p) => ({ 'aria-label': t('common.page', { page: p }) })}
        />
      )}
    </Group>
  );
}
