import { queryOptions, useQuery } from '@tanstack/react-query';
import { AuditClient, AuditResult, unwrap } from '@/lib/api-client';
import { useServices } from '@/lib/services';

export type DashboardEntry = AuditResult<'/audit/dashboard/get-my-dashboard'>[number];

export const dashboardQuery = (api: AuditClient) =>
  queryOptions({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/dashboard/get-my-dashboard', { body: {}, signal })),
    // Counters move as analyses finish in the background.
    refetchInterval: 15_000,
  });

export function useDashboard() {
  const { api } = useServices();
  return useQuery(dashboardQuery(api));
}
