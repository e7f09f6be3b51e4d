import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import { CONFLICT_FILTERS, ConflictFilter } from '@/features/conflicts/conflict-states';
import { FINDING_FILTERS, FindingFilter } from '@/features/full-audit/finding-states';
import { QUESTION_STATES, QuestionState } from '@/features/questions/question-states';
import { ConflictPage } from './routes/conflict';
import { ConflictsPage } from './routes/conflicts';
import { DashboardPage } from './routes/dashboard';
import { FindingPage } from './routes/finding';
import { FullAuditPage } from './routes/full-audit';
import { InstanceLayout } from './routes/instance-layout';
import { InstanceOverviewPage } from './routes/instance-overview';
import { NotFoundPage } from './routes/not-found';
import { QuestionsPage } from './routes/questions';
import { RootLayout } from './routes/root-layout';
import { flag, oneOf, pageParam } from './search-params';

export interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: RootLayout, notFoundComponent: NotFoundPage });

const dashboardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: DashboardPage });

const instanceRoute = createRoute({ getParentRoute: () => rootRoute, path: 'instances/$instanceId', component: InstanceLayout });

const instanceOverviewRoute = createRoute({ getParentRoute: () => instanceRoute, path: '/', component: InstanceOverviewPage });

const questionsRoute = createRoute({
  getParentRoute: () => instanceRoute,
  path: 'questions',
  validateSearch: (search: Record<string, unknown>): { state?: QuestionState; page?: number } => ({ state: oneOf(QUESTION_STATES, search.state), page: pageParam(search.page) }),
  component: QuestionsPage,
});

const conflictsRoute = createRoute({
  getParentRoute: () => instanceRoute,
  path: 'conflicts',
  validateSearch: (search: Record<string, unknown>): { state?: ConflictFilter; page?: number } => ({ state: oneOf(CONFLICT_FILTERS, search.state), page: pageParam(search.page) }),
  component: ConflictsPage,
});

const conflictRoute = createRoute({ getParentRoute: () => instanceRoute, path: 'conflicts/$conflictId', component: ConflictPage });

const fullAuditRoute = createRoute({
  getParentRoute: () => instanceRoute,
  path: 'full-audit',
  validateSearch: (search: Record<string, unknown>): { state?: FindingFilter; linked?: true; page?: number } => ({
    state: oneOf(FINDING_FILTERS, search.state),
    linked: flag(search.linked),
    page: pageParam(search.page),
  }),
  component: FullAuditPage,
});

const findingRoute = createRoute({ getParentRoute: () => instanceRoute, path: 'full-audit/$findingId', component: FindingPage });

export const routeTree = rootRoute.addChildren([
  dashboardRoute,
  instanceRoute.addChildren([instanceOverviewRoute, questionsRoute, conflictsRoute, conflictRoute, fullAuditRoute, findingRoute]),
]);

export function createAppRouter(options: { basepath: string; queryClient: QueryClient }) {
  return createRouter({ routeTree, basepath: options.basepath, context: { queryClient: options.queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
