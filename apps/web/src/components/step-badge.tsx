import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TONES } from '@/lib/theme';

/** The workflow steps of an audit instance, in order (interface spec, part 2). */
export const STEPS = ['INIT', 'ON_CHECKING_INDEXATION', 'CHECK_INDEXATION_DONE', 'LAUNCH_DUPLICATE_IDENTIFICATION', 'ON_DUPLICATE_IDENTIFICATION', 'DUPLICATE_IDENTIFICATION_DONE', 'RUNNING_PHASE'] as const;

/** An unknown step reads as "unknown", never as a raw key. */
export function stepKey(step: string): (typeof STEPS)[number] | 'UNKNOWN' {
  return (STEPS as readonly string[]).includes(step) ? (step as (typeof STEPS)[number]) : 'UNKNOWN';
}

export function StepBadge({ step }: { step: string }) {
  const { t } = useTranslation();
  const key = stepKey(step);
  const index = (STEPS as readonly string[]).indexOf(key);
  return (
    <Badge variant="filled" color={key === 'RUNNING_PHASE' ? TONES.done : TONES.running} title={index >= 0 ? t('steps.position', { position: index + 1, total: STEPS.length }) : undefined}>
      {t(`steps.${key}`)}
    </Badge>
  );
}
