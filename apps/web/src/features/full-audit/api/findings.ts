import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AuditClient, unwrap } from '@/lib/api-client';
import { offsetOf, PAGE_SIZE } from '@/lib/paging';
import { useServices } from '@/lib/services';
import { FindingFilter, findingStatesOf } from '../finding-states';

export function useFindings(instanceId: string, filter: { state?: FindingFilter; linked?: boolean; page?: number }, enabled: boolean) {
  const { api } = useServices();
  const states = findingStatesOf(filter.state ?? 'unresolved');
  return useQuery({
    queryKey: ['findings', instanceId, { states, linked: filter.linked ?? false, page: filter.page ?? 1 }],
    queryFn: ({ signal }) =>
      unwrap(
        api.POST('/audit/full-audit/list', {
          body: { instance_id: instanceId, state_in: states, only_linked_to_question: filter.linked ?? false, offset: offsetOf(filter.page), limit: PAGE_SIZE },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One finding's detail; its route's loader asks for it as the navigation starts (and on hover or focus of a link to it), before the view renders. */
export const findingQuery = (api: AuditClient, instanceId: string, findingId: string) =>
  queryOptions({
    queryKey: ['finding', instanceId, findingId],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/full-audit/detail', { body: { instance_id: instanceId, conflict_id: findingId }, signal })),
  });

export function useFinding(instanceId: string, findingId: string) {
  const { api } = useServices();
  return useQuery(findingQuery(api, instanceId, findingId));
}

function useRefreshFinding(instanceId: string, findingId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['finding', instanceId, findingId] }),
      queryClient.invalidateQueries({ queryKey: ['findings', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['stats', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ]);
}

export function useSetFindingAnswer(instanceId: string, findingId: string) {
  const { api } = useServices();
  const refresh = useRefreshFinding(instanceId, findingId);
  return useMutation({
    mutationFn: (answer: string) => unwrap(api.POST('/audit/full-audit/set-expert-answer', { body: { instance_id: instanceId, conflict_id: findingId, answer } })),
    onSuccess: refresh,
  });
}

export function useCloseFinding(instanceId: string, findingId: string) {
  const { api } = useServices();
  const refresh = useRefreshFinding(instanceId, findingId);
  return useMutation({
    mutationFn: () => unwrap(api.POST('/audit/full-audit/close', { body: { instance_id: instanceId, conflict_id: findingId } })),
    onSuccess: refresh,
  });
}

export function useIgnoreFinding(instanceId: string, findingId: string) {
  const { api } = useServices();
  const refresh = useRefreshFinding(instanceId, findingId);
  return useMutation({
    mutationFn: () => unwrap(api.POST('/audit/full-audit/ignore', { body: { instance_id: instanceId, conflict_id: findingId } })),
    onSuccess: refresh,
  });
}

/** The governance override (admins): reopen a MANAGED or IGNORED finding as DETECTED. 409 on a DISAPPEARED one. */
export function useSetFindingState(instanceId: string, findingId: string) {
  const { api } = useServices();
  const refresh = useRefreshFinding(instanceId, findingId);
  return useMutation({
    mutationFn: (state: 'managed' | 'ignored' | 'detected') => unwrap(api.POST('/audit/full-audit/set-state', { body: { instance_id: instanceId, conflict_id: findingId, state } })),
    onSuccess: refresh,
  });
}
