import { Group, Paper, Select, Stack, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Loading } from '@/components/loading';
import { Pager } from '@/components/pager';
import { useCreateQuestion, useForceAnalyze, useQuestions, useSetQuestionAnswer, useSetQuestionState } from '@/features/questions/api/questions';
import { CreateQuestionForm } from '@/features/questions/components/create-question-form';
import { QuestionActions } from '@/features/questions/components/question-actions';
import { QuestionsTable } from '@/features/questions/components/questions-table';
import { QUESTION_STATES } from '@/features/questions/question-states';
import { useDocumentTitle } from '@/lib/use-document-title';

const route = getRouteApi('/instances/$instanceId/questions');

export function QuestionsPage() {
  const { t } = useTranslation();
  const { instanceId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const questions = useQuestions(instanceId, search);
  const create = useCreateQuestion(instanceId);
  const force = useForceAnalyze(instanceId);
  const setAnswer = useSetQuestionAnswer(instanceId);
  const setState = useSetQuestionState(instanceId);
  useDocumentTitle(t('questions.title'));
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {t('questions.title')}
        </Title>
        <Select
          label={t('questions.filter')}
          value={search.state ?? ''}
          onChange={(value) => void navigate({ search: { state: QUESTION_STATES.find((s) => s === value), page: undefined } })}
          data={[{ value: '', label: t('questions.allStates') }, ...QUESTION_STATES.map((s) => ({ value: s, label: t(`questions.states.${s}`) }))]}
          allowDeselect={false}
          w={220}
        />
      </Group>
      {force.isError && <ErrorAlert error={force.error} />}
      {questions.isPending ? (
        <Loading />
      ) : questions.isError ? (
        <ErrorAlert error={questions.error} />
      ) : (
        <>
          <QuestionsTable
            instanceId={instanceId}
            questions={questions.data.items}
            onForceAnalyze={(id) => force.mutate(id)}
            analyzing={force.isPending ? force.variables : undefined}
            renderActions={(question) => (
              <QuestionActions
                question={question}
                onAnswer={(answer) => setAnswer.mutateAsync({ questionId: question.id, answer })}
                onSetState={(state) => setState.mutateAsync({ questionId: question.id, state })}
              />
            )}
          />
          <Pager total={questions.data.total} page={search.page ?? 1} onChange={(page) => void navigate({ search: { ...search, page } })} />
        </>
      )}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          {t('questions.create.title')}
        </Title>
        <CreateQuestionForm onCreate={(q) => create.mutateAsync(q)} pending={create.isPending} error={create.error} />
      </Paper>
    </Stack>
  );
}
