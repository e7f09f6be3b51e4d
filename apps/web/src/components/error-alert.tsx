import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-error';

/** An API error in words: what the service said (its detail and hint), under a title for its kind. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation();
  const apiError = error instanceof ApiError ? error : null;
  const heading =
    title ??
    (apiError?.status === 0
      ? t('errors.network')
      : apiError?.status === 403
        ? t('errors.forbidden')
        : apiError?.status === 404
          ? t('errors.notFound')
          : apiError?.status === 409
            ? t('errors.conflict')
            : apiError && apiError.status >= 500
              ? t('errors.unavailable')
              : t('errors.refused'));
  return (
    <Alert color="red" title={heading} role="alert">
      <Text size="sm">{apiError?.message ?? (error instanceof Error ? error.message : String(error))}</Text>
      {apiError?.fieldErrors.map((e, i) => (
        <Text size="sm" key={i}>
          {e.field ? `${e.field}: ` : ''}
          {e.message}
        </Text>
      ))}
      {apiError?.hint && (
        <Text size="sm" mt="xs">
          {t('errors.hint', { hint: apiError.hint })}
        </Text>
      )}
      {apiError?.code && (
        <Text size="xs" c="dimmed" mt="xs">
          {t('errors.code', { code: apiError.code, requestId: apiError.requestId ?? '-' })}
        </Text>
      )}
    </Alert>
  );
}
