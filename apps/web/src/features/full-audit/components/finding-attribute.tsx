import { useTranslation } from 'react-i18next';
import { isSuperseded } from '../finding-states';

/**
 * What a finding is about, in words: the attribute its statements disagree on, as the service names it,
 * or for a superseded version still in the repository (attribute 'superseded', ADR 0049) a label in the
 * user's language rather than the raw kind. `long` is the finding view's sentence, otherwise the
 * findings table's short label.
 */
export function findingAttributeText(attribute: string, t: ReturnType<typeof useTranslation>['t'], long = false): string {
  if (isSuperseded({ attribute })) return long ? t('finding.superseded') : t('fullAudit.superseded');
  return long ? t('finding.attribute', { attribute }) : attribute;
}
