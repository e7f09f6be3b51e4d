import { AppShell, Button, Container, Group, SegmentedControl, Text } from '@mantine/core';
import { Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '@/components/links';
import { isLanguage, LANGUAGES } from '@/lib/i18n';
import { useServices } from '@/lib/services';

/** Header (the app's name, the language, sign out) around every view; a skip link leads past it. */
export function RootLayout() {
  const { t, i18n } = useTranslation();
  const { session } = useServices();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <a href="#main" className="skip-link">
        {t('layout.skip')}
      </a>
      <AppShell.Header>
        <Container size="xl" h="100%">
          <Group h="100%" justify="space-between">
            <AnchorLink to="/" fw={700} fz="lg" underline="never" c="var(--mantine-color-text)">
              docaudit
            </AnchorLink>
            <Group gap="sm">
              <SegmentedControl
                size="xs"
                aria-label={t('layout.language')}
                value={i18n.resolvedLanguage ?? 'en'}
                onChange={(value) => isLanguage(value) && void i18n.changeLanguage(value)}
                data={LANGUAGES.map((lng) => ({ value: lng, label: <span lang={lng}>{t(`layout.languages.${lng}`)}</span> }))}
              />
              <Button
                variant="default"
                size="xs"
                loading={signingOut}
                onClick={() => {
                  setSigningOut(true);
                  void session.signOut();
                }}
              >
                {t('layout.signOut')}
              </Button>
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xl" id="main" tabIndex={-1}>
          <Outlet />
        </Container>
        <Container size="xl">
          <Text size="xs" c="dimmed" mt="xl">
            {t('layout.footer')}
          </Text>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
