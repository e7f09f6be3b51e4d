import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { createQueryClient } from '@/lib/query-client';
import { Services, ServicesProvider } from '@/lib/services';
import { createAppRouter } from './router';
import { cssVariablesResolver, theme } from '@/lib/theme';

/** The app; `queryClient` when main has already asked for the first view's data. */
export function App({ services, queryClient: given }: { services: Services; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  const [router] = useState(() => createAppRouter({ basepath: services.location.basepath, queryClient, api: services.api }));
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <ServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ServicesProvider>
    </MantineProvider>
  );
}
