import { useQuery } from '@tanstack/react-query';
import { AuditResult, unwrap } from '@/lib/api-client';
import { useServices } from '@/lib/services';

export type AuditInstance = AuditResult<'/audit/instance/get-instance'>;

export function useInstance(instanceId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['instances', instanceId],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/instance/get-instance', { body: { instance_id: instanceId }, signal })),
    staleTime: 30_000,
  });
}
