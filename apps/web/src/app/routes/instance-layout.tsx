import { Breadcrumbs, Group, Text, Title } from '@mantine/core';
import { getRouteApi, Outlet, useMatchRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AnchorLink, ButtonLink } from '@/components/links';
import { ErrorAlert } from '@/components/error-alert';
import { StepBadge } from '@/components/step-badge';
import { useInstance } from '@/features/instances/api/get-instance';

const route = getRouteApi('/instances/$instanceId');

const TABS = [
  { value: 'overview', to: '/instances/$instanceId' },
  { value: 'questions', to: '/instances/$instanceId/questions' },
  { value: 'conflicts', to: '/instances/$instanceId/conflicts' },
  { value: 'fullAudit', to: '/instances/$instanceId/full-audit' },
] as const;

/** An instance's name and step above its views, with a link per worklist (each view has its own URL). */
export function InstanceLayout() {
  const { t } = useTranslation();
  const { instanceId } = route.useParams();
  const instance = useInstance(instanceId);
  const matchRoute = useMatchRoute();
  const active =
    matchRoute({ to: '/instances/$instanceId/questions', params: { instanceId } }) ? 'questions'
    : matchRoute({ to: '/instances/$instanceId/conflicts', params: { instanceId }, fuzzy: true }) ? 'conflicts'
    : matchRoute({ to: '/instances/$instanceId/full-audit', params: { instanceId }, fuzzy: true }) ? 'fullAudit'
    : 'overview';
  return (
    <>
      <Breadcrumbs mb="xs" aria-label={t('layout.breadcrumbs')}>
        <AnchorLink to="/" size="sm">
          {t('dashboard.title')}
        </AnchorLink>
        <Text size="sm">{instance.data?.name ?? '…'}</Text>
      </Breadcrumbs>
      {instance.isError ? (
        <ErrorAlert error={instance.error} />
      ) : (
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h3" component="p">
            {instance.data?.name ?? '…'}
          </Title>
          {instance.data && <StepBadge step={instance.data.step} />}
        </Group>
      )}
      <Group component="nav" aria-label={t('instance.tabs.label')} gap="xs" mb="lg" pb="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        {TABS.map((tab) => (
          <ButtonLink
            key={tab.value}
            to={tab.to}
            params={{ instanceId }}
            variant={active === tab.value ? 'filled' : 'default'}
            // The router marks the link of the current page (aria-current); the overview only when it is shown itself.
            activeOptions={{ exact: tab.value === 'overview' }}
            size="sm"
          >
            {t(`instance.tabs.${tab.value}`)}
          </ButtonLink>
        ))}
      </Group>
      <Outlet />
    </>
  );
}
