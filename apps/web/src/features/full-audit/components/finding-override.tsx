import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import type { FindingState } from '../finding-states';

/** States an admin can reopen (set-state `detected`); a DISAPPEARED finding cannot be (409). */
export const REOPENABLE_FINDING_STATES: readonly FindingState[] = ['MANAGED', 'IGNORED'];

/**
 * The governance override of a closed or ignored finding: an admin reopens it (the spec's "admin
 * reopen, used by the audit web app"). Shown only to whom may use it and only where it applies; the
 * service's refusal is shown in words with its hint.
 */
export function FindingOverride({ state, allowed, onReopen, pending, error }: { state: FindingState; allowed: boolean; onReopen: () => void; pending: boolean; error: unknown }) {
  const { t } = useTranslation();
  if (!allowed || !REOPENABLE_FINDING_STATES.includes(state)) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="finding-override-title">
      <Title order={2} size="h3" id="finding-override-title" mb="xs">
        {t('finding.override.title')}
      </Title>
      <Text size="sm" mb="sm">
        {t('finding.override.description', { state: t(`fullAudit.states.${state}`) })}
      </Text>
      <Group>
        <Button variant="light" onClick={onReopen} loading={pending}>
          {t('finding.override.reopen')}
        </Button>
      </Group>
      {error ? <ErrorAlert error={error} /> : null}
    </Paper>
  );
}
