import { useQuery } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-client';
import { useServices } from '@/lib/services';

/**
 * Whether the caller administers the instance (global admins always do): the app's only way to learn
 * the caller's standing, since the session cookie is unreadable. The admin-only governance actions are
 * offered on it; the service still decides each call.
 */
export function useIsInstanceAdmin(instanceId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['instances', instanceId, 'is-admin'],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/user/user-is-admin-for-instance', { body: { instance_id: instanceId }, signal })),
    staleTime: 60_000,
  });
}
