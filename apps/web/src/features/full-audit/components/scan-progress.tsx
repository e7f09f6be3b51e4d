import { Group, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';
import { useScanStatus } from '../api/get-scan-status';
import type { ScanStatus } from '../finding-states';

/** The full-audit scan of an instance as a line: running (with its progress), last completed, or not started. */
export function ScanProgressView({ status }: { status: ScanStatus }) {
  const { t, i18n } = useTranslation();
  const scan = status.scan;
  if (!scan) return <Text size="sm" c="dimmed">{t('fullAudit.scan.none')}</Text>;
  if (scan.state === 'RUNNING') {
    const percent = scan.chunks === 0 ? 0 : Math.round((scan.chunks_done / scan.chunks) * 100);
    const label = t('fullAudit.scan.running', { done: scan.chunks_done, total: scan.chunks, documents: scan.documents });
    return (
      <div>
        <Group justify="space-between" mb={4}>
          <Text size="sm">{label}</Text>
          <Text size="sm" c="dimmed">
            {percent} %
          </Text>
        </Group>
        <Progress value={percent} aria-label={label} animated />
      </div>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {scan.state === 'COMPLETED'
        ? t('fullAudit.scan.completed', { date: formatDate(scan.finished_at, i18n.language), findings: scan.findings ?? 0, documents: scan.documents })
        : t('fullAudit.scan.abandoned', { date: formatDate(scan.finished_at ?? scan.started_at, i18n.language) })}
      {status.awaiting_model > 0 ? ` ${t('fullAudit.scan.awaitingModel', { count: status.awaiting_model })}` : ''}
    </Text>
  );
}

export function ScanProgress({ instanceId }: { instanceId: string }) {
  const status = useScanStatus(instanceId);
  return status.data ? <ScanProgressView status={status.data} /> : null;
}
