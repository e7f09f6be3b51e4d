import { Badge, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { StateBadge } from '@/components/state-badge';
import { formatDate } from '@/lib/format';
import { Tone, TONES } from '@/lib/theme';
import type { Finding, FindingState } from '../finding-states';
import { findingAttributeText } from './finding-attribute';

export const FINDING_STATE_TONES: Record<FindingState, Tone> = {
  DETECTED: 'todo',
  REDETECTED: 'problem',
  MANAGED: 'done',
  IGNORED: 'neutral',
  DISAPPEARED: 'neutral',
};

export function FindingsTable({ instanceId, findings }: { instanceId: string; findings: readonly Finding[] }) {
  const { t, i18n } = useTranslation();
  if (findings.length === 0) return <Text my="md">{t('fullAudit.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('fullAudit.columns.subject')}</Table.Th>
            <Table.Th scope="col">{t('fullAudit.columns.state')}</Table.Th>
            <Table.Th scope="col">{t('fullAudit.columns.documents')}</Table.Th>
            <Table.Th scope="col">{t('fullAudit.columns.lastSeen')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {findings.map((finding) => (
            <Table.Tr key={finding.id} data-finding-id={finding.id}>
              <Table.Td>
                <Group gap="xs">
                  <AnchorLink to="/instances/$instanceId/full-audit/$findingId" params={{ instanceId, findingId: finding.id }} fw={500}>
                    {finding.subject}
                  </AnchorLink>
                  {finding.is_important && (
                    <Badge size="xs" color={TONES.problem} variant="outline">
                      {t('fullAudit.important')}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {findingAttributeText(finding.attribute, t)}
                  {finding.linked_questions.length > 0 ? ` · ${t('fullAudit.linkedCount', { count: finding.linked_questions.length })}` : ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <StateBadge label={t(`fullAudit.states.${finding.state}`)} tone={FINDING_STATE_TONES[finding.state]} />
              </Table.Td>
              <Table.Td>{finding.documents.length}</Table.Td>
              <Table.Td>
                <Text size="sm">{formatDate(finding.last_seen_at, i18n.language)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
