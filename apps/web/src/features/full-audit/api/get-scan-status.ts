import { useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-client';
import { useServices } from '@/lib/services';

/** The full audit of one instance: whether its findings may be shown yet (have-to-show), and the running scan's progress. */
export function useScanStatus(instanceId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['full-audit', instanceId, 'status'],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/full-audit/have-to-show', { body: { instance_id: instanceId }, signal })),
    refetchInterval: (query) => (query.state.data?.scan?.state === 'RUNNING' || query.state.data?.show === false ? 3_000 : 30_000),
  });
}
