import { Button, Group, List, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { StateBadge } from '@/components/state-badge';
import { formatDate } from '@/lib/format';
import type { Tone } from '@/lib/theme';
import type { MandatoryQuestion, QuestionState } from '../question-states';

export const QUESTION_STATE_TONES: Record<QuestionState, Tone> = {
  PENDING: 'neutral',
  ANALYZING: 'running',
  CONFLICTS: 'todo',
  NO_CONFLICT: 'done',
  REFUSED: 'problem',
  MANAGED: 'done',
  IGNORED: 'neutral',
};

/** The mandatory questions of one page, with their state and what the analysis found; REFUSED ones can be analysed again, and the page may add its other actions. */
export function QuestionsTable({
  instanceId,
  questions,
  onForceAnalyze,
  analyzing,
  renderActions,
}: {
  instanceId: string;
  questions: readonly MandatoryQuestion[];
  onForceAnalyze?: (questionId: string) => void;
  /** The question a force-analyze was just asked for. */
  analyzing?: string;
  /** The other actions on a question (answer, managed, ignored), when the page offers them. */
  renderActions?: (question: MandatoryQuestion) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  if (questions.length === 0) return <Text my="md">{t('questions.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('questions.columns.question')}</Table.Th>
            <Table.Th scope="col">{t('questions.columns.state')}</Table.Th>
            <Table.Th scope="col">{t('questions.columns.conflicts')}</Table.Th>
            <Table.Th scope="col">{t('questions.columns.analyzedAt')}</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>{t('questions.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {questions.map((question) => (
            <Table.Tr key={question.id} data-question-id={question.id}>
              <Table.Td>
                <Text fw={500}>{question.question}</Text>
                {question.answer && (
                  <Text size="sm" c="dimmed">
                    {t('questions.answer', { answer: question.answer })}
                  </Text>
                )}
                {question.compagnon_questions.length > 0 && (
                  <>
                    <Text size="sm" c="dimmed" mt={4}>
                      {t('questions.companions')}
                    </Text>
                    <List size="sm" c="dimmed">
                      {question.compagnon_questions.map((companion) => (
                        <List.Item key={companion}>{companion}</List.Item>
                      ))}
                    </List>
                  </>
                )}
              </Table.Td>
              <Table.Td>
                <StateBadge label={t(`questions.states.${question.state}`)} tone={QUESTION_STATE_TONES[question.state]} />
              </Table.Td>
              <Table.Td>
                {question.conflict_count > 0 ? (
                  <AnchorLink to="/instances/$instanceId/conflicts" params={{ instanceId }} search={{ state: 'all' }}>
                    {t('questions.conflictCount', { count: question.conflict_count })}
                  </AnchorLink>
                ) : (
                  <Text size="sm">{t('questions.conflictCount', { count: 0 })}</Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{question.analyzed_at ? formatDate(question.analyzed_at, i18n.language) : t('questions.notAnalyzed')}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {question.state === 'REFUSED' && onForceAnalyze && (
                    <Button size="xs" variant="light" loading={analyzing === question.id} onClick={() => onForceAnalyze(question.id)} aria-label={t('questions.forceAnalyzeLabel', { question: question.question })}>
                      {t('questions.forceAnalyze')}
                    </Button>
                  )}
                  {renderActions?.(question)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
