import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { createQueryClient } from '@/lib/query-client';
import { Services, ServicesProvider } from '@/lib/services';
import { createAppRouter } from './router';
import { cssVariablesResolver, theme } from '@/lib/theme';

export function App({ services }: { services: Services }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter({ basepath: services.location.basepath, queryClient }));
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
