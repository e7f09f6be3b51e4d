import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { TONES } from '@/lib/theme';

/**
 * Ignoring a finding takes it off the worklist, so it asks for a confirmation first (as ignoring a
 * mandatory question does). The dialog stays open with the service's error until the ignore succeeds;
 * Escape or Cancel leave the finding as it is and give the focus back to the Ignore button. `onOpen` clears
 * a previous attempt's error, so the dialog opens without it.
 */
export function FindingIgnore({ subject, onIgnore, onOpen, pending, error }: { subject: string; onIgnore: () => Promise<unknown>; onOpen?: () => void; pending: boolean; error: unknown }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const close = () => !pending && setOpened(false);
  const confirm = async () => {
    try {
      await onIgnore();
      setOpened(false);
    } catch {
      // shown from `error`, the dialog stays open
    }
  };
  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          onOpen?.();
          setOpened(true);
        }}
      >
        {t('finding.ignore')}
      </Button>
      <Modal opened={opened} onClose={close} closeButtonProps={{ 'aria-label': t('finding.ignoreDialog.closeDialog') }} title={t('finding.ignoreDialog.title')}>
        <Text fw={500} mb="xs">
          {subject}
        </Text>
        <Text size="sm" mb="md">
          {t('finding.ignoreDialog.confirm')}
        </Text>
        {error ? <ErrorAlert error={error} /> : null}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close} disabled={pending} data-autofocus>
            {t('finding.ignoreDialog.cancel')}
          </Button>
          <Button color={TONES.problem} loading={pending} onClick={() => void confirm()}>
            {t('finding.ignoreDialog.submit')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
