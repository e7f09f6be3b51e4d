import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import type { AuditClient } from '@/lib/api-client';
import { conflictQuery } from '@/features/conflicts/api/conflicts';
import { CONFLICT_FILTERS, ConflictFilter } from '@/features/conflicts/conflict-states';
import { findingQuery } from '@/features/full-audit/api/findings';
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
  api: AuditClient;
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

// A detail's request starts with the navigation (or the link's hover or focus), not once the view has rendered; not awaited: the
// view shows its loading state and its errors as before.
const conflictRoute = createRoute({
  getParentRoute: () => instanceRoute,
  path: 'conflicts/$conflictId',
  loader: ({ context: { queryClient, api }, params }) => void queryClient.prefetchQuery(conflictQuery(api, params.instanceId, params.conflictId)),
  component: ConflictPage,
});

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

const findingRoute = createRoute({
  getParentRoute: () => instanceRoute,
  path: 'full-audit/$findingId',
  loader: ({ context: { queryClient, api }, params }) => void queryClient.prefetchQuery(findingQuery(api, params.instanceId, params.findingId)),
  component: FindingPage,
});

export const routeTree = rootRoute.addChildren([
  dashboardRoute,
  instanceRoute.addChildren([instanceOverviewRoute, questionsRoute, conflictsRoute, conflictRoute, fullAuditRoute, findingRoute]),
]);

export function createAppRouter(options: { basepath: string; queryClient: QueryClient; api: AuditClient }) {
  return createRouter({ routeTree, basepath: options.basepath, context: { queryClient: options.queryClient, api: options.api }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
