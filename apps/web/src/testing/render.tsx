import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, RenderResult } from '@testing-library/react';
import i18n from 'i18next';
import type { ReactNode } from 'react';
import { cssVariablesResolver, theme } from '@/lib/theme';
import { initI18n, Language } from '@/lib/i18n';

/**
 * Renders a view as the app does (Mantine, i18next in `language`, a router for its links, a query
 * client), and waits for the router to render it.
 */
export async function renderView(ui: ReactNode, options: { language?: Language } = {}): Promise<RenderResult> {
  if (!i18n.isInitialized) await initI18n(options.language ?? 'en');
  await i18n.changeLanguage(options.language ?? 'en');
  const router = createRouter({ routeTree: createRootRoute({ component: () => ui }), history: createMemoryHistory({ initialEntries: ['/'] }) });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router as never} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  await router.load();
  return result;
}
