import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('notFound.title')}</Title>
      <Text>{t('notFound.text')}</Text>
      <AnchorLink to="/">
        {t('notFound.back')}
      </AnchorLink>
    </Stack>
  );
}
