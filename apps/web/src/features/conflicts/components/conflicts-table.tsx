import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { StateBadge } from '@/components/state-badge';
import { formatDate } from '@/lib/format';
import type { Tone } from '@/lib/theme';
import type { ConflictState, QuestionConflict } from '../conflict-states';

export const CONFLICT_STATE_TONES: Record<ConflictState, Tone> = {
  OPEN: 'todo',
  ANSWERED: 'ready',
  RECOMMENDATIONS_READY: 'ready',
  MANAGED: 'done',
  IGNORED: 'neutral',
};

export function ConflictsTable({ instanceId, conflicts }: { instanceId: string; conflicts: readonly QuestionConflict[] }) {
  const { t, i18n } = useTranslation();
  if (conflicts.length === 0) return <Text my="md">{t('conflicts.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('conflicts.columns.question')}</Table.Th>
            <Table.Th scope="col">{t('conflicts.columns.state')}</Table.Th>
            <Table.Th scope="col">{t('conflicts.columns.answers')}</Table.Th>
            <Table.Th scope="col">{t('conflicts.columns.documents')}</Table.Th>
            <Table.Th scope="col">{t('conflicts.columns.updatedAt')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {conflicts.map((conflict) => (
            <Table.Tr key={conflict.id} data-conflict-id={conflict.id}>
              <Table.Td>
                <AnchorLink to="/instances/$instanceId/conflicts/$conflictId" params={{ instanceId, conflictId: conflict.id }} fw={500}>
                  {conflict.question}
                </AnchorLink>
                {conflict.scope.length > 0 && (
                  <Text size="xs" c="dimmed">
                    {t('common.scope', { scope: conflict.scope.join(', ') })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <StateBadge label={t(`conflicts.states.${conflict.state}`)} tone={CONFLICT_STATE_TONES[conflict.state]} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{conflict.answer_groups.map((g) => g.answer).join(' · ')}</Text>
              </Table.Td>
              <Table.Td>{conflict.documents.length}</Table.Td>
              <Table.Td>
                <Text size="sm">{formatDate(conflict.updated_at, i18n.language)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
