import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AuditClient, unwrap } from '@/lib/api-client';
import { offsetOf, PAGE_SIZE } from '@/lib/paging';
import { useServices } from '@/lib/services';
import { ConflictFilter, statesOf } from '../conflict-states';

export function useConflicts(instanceId: string, filter: { state?: ConflictFilter; page?: number }) {
  const { api } = useServices();
  const states = statesOf(filter.state ?? 'unresolved');
  return useQuery({
    queryKey: ['conflicts', instanceId, { states, page: filter.page ?? 1 }],
    queryFn: ({ signal }) =>
      unwrap(api.POST('/audit/conflict/list-conflicts-for-instance', { body: { instance_id: instanceId, state_in: states, offset: offsetOf(filter.page), limit: PAGE_SIZE }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** One conflict's detail; its route's loader asks for it as the navigation starts (and on hover or focus of a link to it), before the view renders. */
export const conflictQuery = (api: AuditClient, instanceId: string, conflictId: string) =>
  queryOptions({
    queryKey: ['conflict', instanceId, conflictId],
    queryFn: ({ signal }) => unwrap(api.POST('/audit/conflict/get', { body: { instance_id: instanceId, conflict_id: conflictId }, signal })),
  });

export function useConflict(instanceId: string, conflictId: string) {
  const { api } = useServices();
  return useQuery(conflictQuery(api, instanceId, conflictId));
}

function useRefreshConflict(instanceId: string, conflictId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['conflict', instanceId, conflictId] }),
      queryClient.invalidateQueries({ queryKey: ['conflicts', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['questions', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['stats', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ]);
}

/** The expert's answer; the answer comes back with the recommendations (a synchronous analysis of a few seconds). */
export function useSetConflictAnswer(instanceId: string, conflictId: string) {
  const { api } = useServices();
  const refresh = useRefreshConflict(instanceId, conflictId);
  return useMutation({
    mutationFn: (answer: string) => unwrap(api.POST('/audit/conflict/set-answer', { body: { instance_id: instanceId, conflict_id: conflictId, answer } })),
    onSuccess: refresh,
  });
}

export function useCloseConflict(instanceId: string, conflictId: string) {
  const { api } = useServices();
  const refresh = useRefreshConflict(instanceId, conflictId);
  return useMutation({
    mutationFn: () => unwrap(api.POST('/audit/conflict/set-managed', { body: { instance_id: instanceId, conflict_id: conflictId } })),
    onSuccess: refresh,
  });
}

export function useIgnoreConflict(instanceId: string, conflictId: string) {
  const { api } = useServices();
  const refresh = useRefreshConflict(instanceId, conflictId);
  return useMutation({
    mutationFn: () => unwrap(api.POST('/audit/conflict/set-ignored', { body: { instance_id: instanceId, conflict_id: conflictId } })),
    onSuccess: refresh,
  });
}
