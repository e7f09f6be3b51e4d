import { useQuery } from '@tanstack/react-query';
import { AuditResult, unwrap } from '@/lib/api-client';
import { useServices } from '@/lib/services';

export type FilteredStats = AuditResult<'/audit/stats/get-filtered-stats'>;

export function useFilteredStats(instanceId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['stats', instanceId],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/stats/get-filtered-stats', { body: { instance_id: instanceId }, signal })),
    refetchInterval: 15_000,
  });
}
