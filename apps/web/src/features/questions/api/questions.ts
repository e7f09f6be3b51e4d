import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@/lib/api-client';
import { offsetOf, PAGE_SIZE } from '@/lib/paging';
import { useServices } from '@/lib/services';
import { ANALYSIS_RUNNING, QuestionState } from '../question-states';

export function useQuestions(instanceId: string, filter: { state?: QuestionState; page?: number }) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['questions', instanceId, filter],
    queryFn: ({ signal }) =>
      unwrap(api.POST('/audit/mandatory-question/list', { body: { instance_id: instanceId, state: filter.state, offset: offsetOf(filter.page), limit: PAGE_SIZE }, signal })),
    placeholderData: keepPreviousData,
    // While an analysis runs, its question changes state within seconds.
    refetchInterval: (query) => (query.state.data?.items.some((q) => ANALYSIS_RUNNING.includes(q.state)) ? 2_000 : false),
  });
}

/** After a change, every list and counter of the instance may have moved. */
function useInvalidateInstance(instanceId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['questions', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['stats', instanceId] }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ]);
}

export function useCreateQuestion(instanceId: string) {
  const { api } = useServices();
  const invalidate = useInvalidateInstance(instanceId);
  return useMutation({
    mutationFn: (question: string) => unwrap(api.POST('/audit/mandatory-question/create', { body: { instance_id: instanceId, question } })),
    onSuccess: invalidate,
  });
}

export function useForceAnalyze(instanceId: string) {
  const { api } = useServices();
  const invalidate = useInvalidateInstance(instanceId);
  return useMutation({
    mutationFn: (questionId: string) => unwrap(api.POST('/audit/mandatory-question/force-analyze', { body: { instance_id: instanceId, question_id: questionId } })),
    onSuccess: invalidate,
  });
}

/** The expert's answer to a question (admin flow): its OPEN conflicts move to ANSWERED. */
export function useSetQuestionAnswer(instanceId: string) {
  const { api } = useServices();
  const invalidate = useInvalidateInstance(instanceId);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ questionId, answer }: { questionId: string; answer: string }) =>
      unwrap(api.POST('/audit/mandatory-question/set-answer', { body: { instance_id: instanceId, question_id: questionId, answer } })),
    // The question's conflicts changed state too.
    onSuccess: () => Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: ['conflicts', instanceId] })]),
  });
}

/** MANAGED (the documents its conflicts cite are indexed again) or IGNORED: the question leaves the worklist. */
export function useSetQuestionState(instanceId: string) {
  const { api } = useServices();
  const invalidate = useInvalidateInstance(instanceId);
  return useMutation({
    mutationFn: ({ questionId, state }: { questionId: string; state: 'MANAGED' | 'IGNORED' }) =>
      unwrap(api.POST(state === 'MANAGED' ? '/audit/mandatory-question/set-managed' : '/audit/mandatory-question/set-ignored', { body: { instance_id: instanceId, question_id: questionId } })),
    onSuccess: invalidate,
  });
}
